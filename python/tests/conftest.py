"""Shared fixtures: where the CLI built beside the module and the test data are (set by CTest;
a test that needs one skips when it is not given)."""

import os
import pathlib

import pytest


def _named_path(variable, exists, what):
    """The path the environment variable names, or a skip when it names none that exists."""
    value = os.environ.get(variable)
    path = pathlib.Path(value) if value else None
    if path is None or not exists(path):
        pytest.skip(f"{variable} does not name {what}")
    return path


@pytest.fixture
def cli():
    return str(_named_path("PERFTKIT_CLI", pathlib.Path.exists, "the perftkit binary"))


@pytest.fixture
def shared_data():
    return _named_path("PERFTKIT_SHARED_DATA", pathlib.Path.is_dir, "the shared data folder")


@pytest.fixture
def test_data():
    return _named_path("PERFTKIT_DATA", pathlib.Path.is_dir, "tests/data")
