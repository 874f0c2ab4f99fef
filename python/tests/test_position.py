"""perftkit.Position: legal moves, push, FEN, check, mate, stalemate, material, perft."""

import pytest

import perftkit

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def test_start_position():
    position = perftkit.Position()
    assert position.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert len(position.legal_moves()) == 20
    assert "e2e4" in position.legal_moves()
    assert not position.is_check()


def test_push_plays_a_move():
    position = perftkit.Position("startpos")
    position.push("e2e4")
    assert position.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def test_fools_mate():
    position = perftkit.Position()
    for move in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        position.push(move)
    assert position.is_check()
    assert position.is_checkmate()
    assert not position.is_stalemate()
    assert position.legal_moves() == []


def test_stalemate_and_material():
    assert perftkit.Position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").is_stalemate()
    assert perftkit.Position("8/8/4k3/8/8/4K3/8/5B2 w - - 0 1").is_insufficient_material()
    assert not perftkit.Position("8/8/4k3/8/8/4K3/8/5R2 w - - 0 1").is_insufficient_material()


def test_castling_moves_in_kiwipete():
    moves = perftkit.Position(KIWIPETE).legal_moves()
    assert len(moves) == 48
    assert "e1g1" in moves and "e1c1" in moves


def test_chess960_castling_is_king_takes_rook():
    # Shredder-FEN rights for the rooks on e1 and a1, the king on b1: both castlings are legal.
    moves = perftkit.Position("1k6/8/8/8/8/8/8/RK2R3 w EA - 0 1").legal_moves()
    assert "b1e1" in moves and "b1a1" in moves


def test_perft():
    assert perftkit.Position(KIWIPETE).perft(3) == 97862


def test_bad_fen_raises_value_error():
    with pytest.raises(ValueError, match="invalid FEN"):
        perftkit.Position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1")


def test_illegal_move_raises_value_error():
    position = perftkit.Position()
    with pytest.raises(ValueError, match="e2e5"):
        position.push("e2e5")
    assert position.fen() == perftkit.Position().fen()


def test_equality_and_repr():
    assert perftkit.Position() == perftkit.Position("startpos")
    assert repr(perftkit.Position()).startswith("Position('rnbqkbnr/")


def test_more_moves_than_a_move_list_holds():
    # An invented position (28 white queens): 263 legal moves (python-chess 1.11).
    position = perftkit.Position("kbQQQQQQ/bbQ4Q/QQ5Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1")
    moves = position.legal_moves()
    assert len(moves) == 263
    assert len(set(moves)) == 263


def test_move_texts_are_shared_between_calls_and_positions():
    first = perftkit.Position().legal_moves()
    second = perftkit.Position().legal_moves()
    assert first == second
    assert all(a is b for a, b in zip(first, second))
