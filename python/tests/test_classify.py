"""perftkit.classify: the lichess-30K figures of the CLI, every input type, bad rows kept with
their reasons, and random bytes that never crash."""

import json
import random
import subprocess

import numpy as np
import pytest

import perftkit

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
FOOLS_MATE = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
BARE_KINGS = "8/8/4k3/8/8/4K3/8/8 w - - 0 1"
FIFTY = "8/8/4k3/8/8/4K3/8/R7 w - - 100 80"


def _lichess_lines(shared_data):
    return (shared_data / "positions" / "lichess-30K-games.txt").read_text().splitlines()


def test_lichess_30k_figures_of_python_chess(shared_data):
    # shared/data/README.md: all 30,000 valid, none game-over, 5,650 in check; insufficient
    # material for the side to move in 436 (White to move) and 423 (Black to move).
    result = perftkit.classify(_lichess_lines(shared_data))
    assert result.num_rows == 30000
    assert result["valid"].all()
    assert int(result["in_check"].sum()) == 5650
    white = result["side_to_move"] == "w"
    assert int((result["insufficient_white"] & white).sum()) == 436
    assert int((result["insufficient_black"] & ~white).sum()) == 423
    assert all(outcome is None for outcome in result["outcome"])


def test_lichess_30k_rows_match_the_cli(cli, shared_data):
    path = shared_data / "positions" / "lichess-30K-games.txt"
    out = subprocess.run([cli, "classify", "--format", "jsonl", str(path)], check=True, capture_output=True, text=True).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    result = perftkit.classify(_lichess_lines(shared_data))
    assert len(rows) == result.num_rows
    for name in ["legal_moves", "in_check", "checkers", "checkmate", "stalemate", "insufficient_white",
                 "insufficient_black", "dead_by_material", "fifty_move", "seventyfive_move"]:
        assert result[name].tolist() == [row[name] for row in rows], name


def test_known_positions():
    result = perftkit.classify([KIWIPETE, FOOLS_MATE, STALEMATE, BARE_KINGS, FIFTY])
    assert result["legal_moves"].tolist() == [48, 0, 0, 8, 22]
    assert result["checkmate"].tolist() == [False, True, False, False, False]
    assert result["stalemate"].tolist() == [False, False, True, False, False]
    assert result["dead_by_material"].tolist() == [False, False, False, True, False]
    assert result["fifty_move"].tolist() == [False, False, False, False, True]
    assert result["outcome"].tolist() == [None, "checkmate", "stalemate", "insufficient_material", "fifty_moves"]
    assert result["winner"].tolist() == [None, "black", "draw", "draw", "draw"]
    assert result["side_to_move"].tolist() == ["w", "w", "b", "w", "w"]
    assert result["legal_moves"].dtype == np.uint16
    assert result["checkmate"].dtype == np.bool_


def test_bad_rows_are_kept_with_their_reason():
    texts = [KIWIPETE, "not a fen", None, 42, "", "# a comment", b"8/8/4k3/8/8/4K3/8/8 w - - 0 1", "\ud800"]
    result = perftkit.classify(texts)
    assert result.num_rows == len(texts)
    assert result["valid"].tolist() == [True, False, False, False, False, False, True, False]
    errors = result["error"].tolist()
    assert errors[0] is None and errors[6] is None
    assert all(isinstance(errors[i], str) and errors[i] for i in [1, 2, 3, 4, 5, 7])
    assert "None" in errors[2]
    assert result["legal_moves"][1] == 0


def test_rejected_fen_has_the_cli_reason(cli, tmp_path):
    bad = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra".replace("8/8/8/8", "8/8/8/9")
    path = tmp_path / "bad.fen"
    path.write_text(bad + "\n")
    out = subprocess.run([cli, "classify", "--format", "jsonl", str(path)], capture_output=True, text=True).stdout
    cli_error = json.loads(out.splitlines()[0])["error"]
    assert perftkit.classify([bad])["error"][0] == cli_error


def test_input_types_agree():
    fens = [KIWIPETE, FOOLS_MATE, STALEMATE]
    expected = perftkit.classify(fens)["legal_moves"].tolist()
    assert perftkit.classify(tuple(fens))["legal_moves"].tolist() == expected
    assert perftkit.classify(np.array(fens))["legal_moves"].tolist() == expected
    assert perftkit.classify([f.encode() for f in fens])["legal_moves"].tolist() == expected
    assert perftkit.classify(iter(fens))["legal_moves"].tolist() == expected


def test_pyarrow_input():
    pa = pytest.importorskip("pyarrow")
    fens = [KIWIPETE, None, STALEMATE]
    result = perftkit.classify(pa.array(fens))
    assert result["valid"].tolist() == [True, False, True]


def test_one_string_is_refused():
    with pytest.raises(TypeError):
        perftkit.classify(KIWIPETE)


def test_thread_counts_agree(shared_data):
    lines = _lichess_lines(shared_data)[:5000]
    one = perftkit.classify(lines, threads=1)
    two = perftkit.classify(lines, threads=2)
    for name in one:
        assert one[name].tolist() == two[name].tolist(), name


def test_random_bytes_never_crash():
    generator = random.Random(20261202)
    texts = [bytes(generator.randrange(256) for _ in range(generator.randrange(0, 90))) for _ in range(100_000)]
    # Every fifth text starts like a FEN, so that the parser goes past its first field.
    for i in range(0, len(texts), 5):
        texts[i] = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR " + texts[i]
    result = perftkit.classify(texts)
    assert result.num_rows == 100_000
    assert len(result["error"]) == 100_000
    invalid = ~result["valid"]
    assert all(result["error"][i] for i in np.flatnonzero(invalid))


def test_to_pandas_and_arrow_and_polars():
    fens = [KIWIPETE, "bad"]
    result = perftkit.classify(fens)
    pd = pytest.importorskip("pandas")
    frame = result.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert frame["legal_moves"].tolist() == [48, 0]


def test_to_arrow():
    pa = pytest.importorskip("pyarrow")
    table = perftkit.classify([KIWIPETE, "bad"]).to_arrow()
    assert isinstance(table, pa.Table)
    assert table.column("error").null_count == 1


def test_to_polars():
    pl = pytest.importorskip("polars")
    frame = perftkit.classify([KIWIPETE, "bad"]).to_polars()
    assert isinstance(frame, pl.DataFrame)
    assert frame["valid"].to_list() == [True, False]


def test_numpy_bytes_and_object_arrays_and_chunked_arrow():
    fens = [KIWIPETE, FOOLS_MATE, STALEMATE]
    expected = perftkit.classify(fens)["legal_moves"].tolist()
    assert perftkit.classify(np.array([f.encode() for f in fens]))["legal_moves"].tolist() == expected
    assert perftkit.classify(np.array(fens, dtype=object))["legal_moves"].tolist() == expected
    pa = pytest.importorskip("pyarrow")
    chunked = pa.chunked_array([fens[:1], fens[1:]], type=pa.large_string())
    assert perftkit.classify(chunked)["legal_moves"].tolist() == expected


def test_empty_input_gives_empty_columns():
    result = perftkit.classify([])
    assert result.num_rows == 0
    assert len(result["error"]) == 0
