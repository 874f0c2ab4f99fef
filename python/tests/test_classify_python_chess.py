"""perftkit.classify row by row against python-chess on 10,000 positions: Lichess final
positions, the dead-position test vector, and random games played to their ends (mates,
stalemates, bare kings, long clocks). Skips when python-chess is not installed."""

import io
import random

import pytest

import perftkit

chess = pytest.importorskip("chess")
chess_pgn = pytest.importorskip("chess.pgn")


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


# Games as engine-match software writes them (TCEC's archive): the Variant tag says "normal" or
# "Standard" for standard chess and "fischerandom" (Cute Chess) for Chess960, engine comments
# follow every move, and the tags include the match's own.
TCEC_STYLE_GAMES = """[Event "TCEC Season 21 - Superfinal"]
[Site "https://tcec-chess.com"]
[Date "2021.04.22"]
[Round "1.1"]
[White "Engine A"]
[Black "Engine B"]
[Result "1/2-1/2"]
[Variant "normal"]
[TimeControl "7200+10"]
[Termination "adjudication"]

1. d4 {book, mb=+0+0+0+0+0,} Nf6 {book, mb=+0+0+0+0+0,} 2. c4 {d=45, sd=70, mt=180000,
tl=7200000, s=123456, n=123456789, pv=e6 Nc3, tb=0, h=0.0, ph=0.0, wv=0.27, R50=50,}
e6 {d=41, sd=66, pv=Nc3 Bb4, wv=0.25,} 3. Nc3 {wv=0.30,} Bb4 {wv=0.31,} 4. Qc2 O-O 5. a3
Bxc3+ 6. Qxc3 d5 7. Nf3 dxc4 8. Qxc4 b6 9. Bg5 Ba6 10. Qa4 c5 1/2-1/2

[Event "TCEC Season 21 - Superfinal"]
[Round "1.2"]
[White "Engine B"]
[Black "Engine A"]
[Result "1-0"]
[Variant "Standard"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O
9. h3 Na5 10. Bc2 c5 11. d4 Qc7 1-0

[Event "TCEC FRC 4"]
[Round "3.1"]
[White "Engine A"]
[Black "Engine B"]
[Result "0-1"]
[Variant "fischerandom"]
[SetUp "1"]
[FEN "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1"]

1. e4 {wv=0.2,} e5 2. d4 d5 3. exd5 exd4 4. Nd3 Nd6 0-1
"""


def test_tcec_style_games_give_the_positions_python_chess_gives(tmp_path):
    path = tmp_path / "tcec.pgn"
    path.write_text(TCEC_STYLE_GAMES)
    batches = list(perftkit.classify_file(path))
    boards = [" ".join(fen.split()[:2]) for batch in batches for fen in batch["fen"]]
    assert all(valid for batch in batches for valid in batch["valid"])
    expected = []
    stream = io.StringIO(TCEC_STYLE_GAMES)
    while (game := chess_pgn.read_game(stream)) is not None:
        assert not game.errors, game.errors
        board = game.board()
        expected.append(" ".join(board.fen().split()[:2]))
        for move in game.mainline_moves():
            board.push(move)
            expected.append(" ".join(board.fen().split()[:2]))
    assert len(expected) == 21 + 23 + 9
    assert boards == expected
