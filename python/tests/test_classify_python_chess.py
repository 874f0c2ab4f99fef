"""perftkit.classify row by row against python-chess on 10,000 positions: Lichess final
positions, the dead-position test vector, and random games played to their ends (mates,
stalemates, bare kings, long clocks). Skips when python-chess is not installed."""

import random

import pytest

import perftkit

chess = pytest.importorskip("chess")


def _random_game_positions(count, seed):
    """Positions of random games: each game is played to its end or 200 plies, every position
    kept, so that endings of every kind turn up. Every tenth gets a long half-move clock, for
    the move-count rules (the FEN fields are independent)."""
    generator = random.Random(seed)
    fens = []
    while len(fens) < count:
        board = chess.Board()
        for _ in range(200):
            fen = board.fen()
            if len(fens) % 10 == 0:
                fields = fen.split()
                fields[4] = str(generator.choice([99, 100, 120, 149, 150, 170]))
                fen = " ".join(fields)
            fens.append(fen)
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(generator.choice(moves))
    return fens[:count]


def _dead_position_vector(shared_data):
    fens = []
    for line in (shared_data / "positions" / "test-vector.txt").read_text().splitlines():
        fields = line.split()
        if fields and not line.startswith("#") and len(fields) == 5:  # "XY" and an EPD position
            fens.append(" ".join(fields[1:]) + " 0 1")
    return fens


def test_same_values_as_python_chess_on_10000_positions(shared_data):
    lichess = (shared_data / "positions" / "lichess-30K-games.txt").read_text().splitlines()[:5000]
    fens = [line.rsplit(" ", 1)[0] for line in lichess] + _dead_position_vector(shared_data)
    fens += _random_game_positions(10_000 - len(fens), seed=17)
    assert len(fens) == 10_000
    result = perftkit.classify(fens)
    assert result["valid"].all()
    kinds = {"checkmate": 0, "stalemate": 0, "insufficient": 0, "fifty": 0}
    for i, fen in enumerate(fens):
        board = chess.Board(fen)
        legal = board.legal_moves.count()
        mate = board.is_checkmate()
        assert result["legal_moves"][i] == legal, fen
        assert result["in_check"][i] == board.is_check(), fen
        assert result["checkers"][i] == len(board.checkers()), fen
        assert result["checkmate"][i] == mate, fen
        assert result["stalemate"][i] == board.is_stalemate(), fen
        assert result["insufficient_white"][i] == board.has_insufficient_material(chess.WHITE), fen
        assert result["insufficient_black"][i] == board.has_insufficient_material(chess.BLACK), fen
        assert result["dead_by_material"][i] == board.is_insufficient_material(), fen
        # python-chess also needs a legal move for these; perftkit only rules out a mate
        # (README, "Classify"): they differ only in a stalemate with a long clock.
        assert result["fifty_move"][i] == (board.halfmove_clock >= 100 and not mate), fen
        assert result["seventyfive_move"][i] == (board.halfmove_clock >= 150 and not mate), fen
        assert result["side_to_move"][i] == ("w" if board.turn == chess.WHITE else "b"), fen
        kinds["checkmate"] += mate
        kinds["stalemate"] += board.is_stalemate()
        kinds["insufficient"] += board.is_insufficient_material()
        kinds["fifty"] += board.halfmove_clock >= 100
    # The sample reaches every kind of ending (else the test would prove little).
    assert all(count > 0 for count in kinds.values()), kinds
