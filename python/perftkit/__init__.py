"""perftkit: perft, position classification and a small exact position type, at C++ speed.

perft(fen, depth, ...)   exact leaf counts, per root move (divide) or with counters (stats)
classify(fens)           one row per position: a ClassifyResult, a dict of numpy columns
Position(fen)            legal moves, check, mate, stalemate, perft
verify(path)             a perft suite checked, one dict per (position, depth)

The work runs in C++ without the GIL, on every core unless threads= says otherwise; Ctrl-C
stops a long call. Bad input to a single call raises ValueError with the reason the CLI
gives; in bulk, a bad row has valid=False and its reason in `error`.
"""

from ._perftkit import Position, perft, verify
from ._perftkit import _classify_texts
from .columns import ClassifyResult

__all__ = ["ClassifyResult", "Position", "classify", "perft", "verify"]


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


def classify(fens, *, threads=None):
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
