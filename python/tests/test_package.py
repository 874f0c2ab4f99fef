"""The package as a user sees it: the public names, their docstrings and the type stubs."""

import pathlib

import perftkit


def test_public_names_have_docstrings():
    for name in perftkit.__all__:
        assert getattr(perftkit, name).__doc__, name
    for method in ["legal_moves", "push", "fen", "is_check", "is_checkmate", "is_stalemate",
                   "is_insufficient_material", "perft"]:
        assert getattr(perftkit.Position, method).__doc__, method


def test_type_stubs_sit_beside_the_module():
    package = pathlib.Path(perftkit.__file__).parent
    stub = (package / "_perftkit.pyi").read_text()
    assert "class Position" in stub
    assert "def perft(fen: str = 'startpos'" in stub
    assert "-> list[str]" in stub
    assert (package / "py.typed").exists()
