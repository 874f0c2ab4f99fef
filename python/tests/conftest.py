"""Shared fixtures: where the CLI built beside the module and the test data are (set by CTest;
a test that needs one skips when it is not given)."""

import os
import pathlib

import pytest


def _path_from(variable):
    value = os.environ.get(variable)
    return pathlib.Path(value) if value else None


@pytest.fixture
def cli():
    path = _path_from("PERFTKIT_CLI")
    if path is None or not path.exists():
        pytest.skip("PERFTKIT_CLI does not name the perftkit binary")
    return str(path)


@pytest.fixture
def shared_data():
    path = _path_from("PERFTKIT_SHARED_DATA")
    if path is None or not path.is_dir():
        pytest.skip("PERFTKIT_SHARED_DATA does not name the shared data folder")
    return path


@pytest.fixture
def test_data():
    path = _path_from("PERFTKIT_DATA")
    if path is None or not path.is_dir():
        pytest.skip("PERFTKIT_DATA does not name tests/data")
    return path
