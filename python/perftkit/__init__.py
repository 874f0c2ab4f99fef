"""perftkit: perft, position classification and a small exact position type, at C++ speed.

perft(fen, depth, ...)   exact leaf counts, per root move (divide) or with counters (stats)
classify(fens)           one row per position: a ClassifyResult, a dict of numpy columns
classify_file(path)      the rows of `perftkit classify` (FEN/EPD/PGN/CSV/JSONL, compressed or
                         not), in batches of ClassifyResult
Position(fen)            legal moves, check, mate, stalemate, perft
verify(path)             a perft suite checked, one dict per (position, depth)

The work runs in C++ without the GIL, on every core unless threads= says otherwise; Ctrl-C
stops a long call. Bad input to a single call raises ValueError with the reason the CLI
gives; in bulk, a bad row has valid=False and its reason in `error`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import Any, Optional, Union

from ._perftkit import Position, perft, verify
from ._perftkit import _classify_texts, _ClassifyChoices, _ClassifyFileReader
from .columns import ClassifyResult

__all__ = ["ClassifyResult", "Position", "classify", "classify_file", "perft", "verify"]


def _texts_of(fens):
    """The rows of fens as a sequence of str or bytes: a list or tuple as it is, a numpy
    array or a pyarrow array (or chunked array) of strings through tolist/to_pylist."""
    if isinstance(fens, (list, tuple)):
        return fens
    if isinstance(fens, (str, bytes)):
        raise TypeError("classify() takes a sequence of FENs, not one string: use Position(fen) or [fen]")
    if hasattr(fens, "to_pylist"):  # pyarrow Array or ChunkedArray
        return fens.to_pylist()
    if hasattr(fens, "tolist"):  # numpy array
        return fens.tolist()
    return list(fens)


def classify(fens: Any, *, threads: Optional[int] = None) -> ClassifyResult:
    """Classifies each FEN (or 4-field EPD position, or EPD line) of fens: a list, tuple,
    numpy array or pyarrow array of str or bytes.

    Returns a ClassifyResult: a dict of columns with one entry per input row, in order:
    valid, error, side_to_move, legal_moves, in_check, checkers, checkmate, stalemate,
    insufficient_white, insufficient_black, dead_by_material, fifty_move, seventyfive_move,
    outcome, winner. Numbers and flags are numpy arrays; error, side_to_move, outcome and
    winner are numpy object arrays of str or None. A row that is not a position has
    valid=False, its reason in error, and zeros elsewhere.
    """
    return ClassifyResult(_classify_texts(_texts_of(fens), threads))


def _names(value: Union[None, str, Sequence[str]]) -> list[str]:
    """A list of names from a list, a tuple or one comma-separated string (None: none)."""
    if value is None:
        return []
    if isinstance(value, str):
        return value.split(",") if value else []
    return [str(name) for name in value]


Names = Union[None, str, Sequence[str]]
PathLike = Union[str, "os.PathLike[str]"]


def classify_file(path: Union[PathLike, Sequence[PathLike]], *, columns: Names = None, tags: Names = None,
                  only: Names = None, game_over: bool = False, input: str = "auto", positions: str = "all",
                  fen_column: Union[None, str, int] = None, keep_columns: Names = None, batch_rows: int = 1_000_000,
                  threads: Optional[int] = None) -> Iterator[ClassifyResult]:
    """Streams the rows `perftkit classify` writes for path (a file name, os.PathLike, "-" for
    standard input, or a list of them), in batches of at most batch_rows rows, each a
    ClassifyResult with the CLI's columns: source, fen, id, valid, error, legal_moves, in_check,
    checkers, checkmate, stalemate, insufficient_white, insufficient_black, dead_by_material,
    fifty_move, seventyfive_move, repetitions, outcome, winner, flags, then the game columns
    asked for.

    Input is FEN/EPD lines, PGN games, or a CSV/TSV/JSONL table (input="auto" decides by name
    and first bytes), compressed with zstd, gzip or bzip2 or not. The options are the CLI's:
    columns (game, ply, move, move_uci, move_san, clock, eval), tags (tag names, or "all"),
    only (facts a row must have one of: check, checkmate, stalemate, ...), game_over,
    positions ("all" or "final"), fen_column and keep_columns (tables); each a list or a
    comma-separated string.

    Types: flags are bool; legal_moves uint16, checkers uint8; numbers a row may lack (game,
    ply, repetitions, clock, eval_cp, eval_mate, ratings) float64 with NaN when absent; text
    is str, or None when empty (tabs and line breaks in text read as spaces, as in TSV).

    An unreadable file or an unknown option raises ValueError at once. A damaged compressed
    stream yields every complete record before the damage, then raises ValueError naming
    the file and the compressed byte offset.
    """
    paths = [os.fspath(p) for p in path] if isinstance(path, (list, tuple)) else [os.fspath(path)]
    choices = _ClassifyChoices()
    choices.only = _names(only)
    choices.game_over = bool(game_over)
    choices.columns = _names(columns)
    choices.tags = _names(tags)
    choices.fen_column = "" if fen_column is None else str(fen_column)
    choices.keep_columns = _names(keep_columns)
    reader = _ClassifyFileReader(paths, input, positions, choices, threads)
    return _batches(reader, batch_rows)


def _batches(reader: _ClassifyFileReader, batch_rows: int) -> Iterator[ClassifyResult]:
    while True:
        batch = reader.next_batch(batch_rows)
        if batch is None:
            return
        yield ClassifyResult(batch)
