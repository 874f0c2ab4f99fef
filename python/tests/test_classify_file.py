"""perftkit.classify_file: the CLI's rows and columns over files, typed, in batches; every
compression gives the same rows; a cut stream yields its complete records, then ValueError."""

import bz2
import gzip
import json
import math
import shutil
import subprocess

import numpy as np
import pytest

import perftkit


def _all_rows(*args, **kwargs):
    batches = list(perftkit.classify_file(*args, **kwargs))
    return {name: np.concatenate([b[name] for b in batches]) for name in batches[0]} if batches else {}


def test_lichess_figures_as_classify_gives_them(shared_data):
    rows = _all_rows(shared_data / "positions" / "lichess-30K-games.txt")
    assert len(rows["valid"]) == 30000 and rows["valid"].all()
    assert int(rows["in_check"].sum()) == 5650
    assert rows["legal_moves"].dtype == np.uint16 and rows["in_check"].dtype == np.bool_
    assert (rows["id"] != None).all()  # noqa: E711 (elementwise)


def test_batches_hold_at_most_batch_rows_and_add_up(shared_data):
    path = shared_data / "positions" / "lichess-30K-games.txt"
    sizes = [b.num_rows for b in perftkit.classify_file(path, batch_rows=7000)]
    assert sizes == [7000, 7000, 7000, 7000, 2000]


def test_game_columns_match_the_cli(cli, test_data):
    path = test_data / "classify_columns.pgn"
    options = ["--columns", "game,ply,move,clock,eval", "--tags", "White,WhiteElo,Result"]
    out = subprocess.run([cli, "classify", "--format", "jsonl", *options, str(path)], check=True, capture_output=True,
                         text=True).stdout
    expected = [json.loads(line) for line in out.splitlines()]
    rows = _all_rows(path, columns="game,ply,move,clock,eval", tags=["White", "WhiteElo", "Result"])
    assert len(rows["fen"]) == len(expected)
    for i, row in enumerate(expected):
        for name, value in row.items():
            got = rows[name][i]
            if name == "flags":  # a JSON list; "a|b" text here, as in CSV and TSV
                value = "|".join(value) or None
            if isinstance(got, float) and math.isnan(got):
                got = None
            if isinstance(got, (np.floating, float)) and value is not None:
                assert got == pytest.approx(value), (i, name)
            elif isinstance(got, np.generic):
                assert got.item() == value, (i, name)
            else:
                assert got == value, (i, name)


def test_tables_keep_their_columns(test_data):
    rows = _all_rows(test_data / "puzzles.csv", keep_columns="PuzzleId,Rating")
    assert rows["valid"].tolist() == [True, True, True, False]
    assert rows["error"][3] == "fen: expected 4 to 6 fields, got 3"
    assert rows["PuzzleId"].tolist() == ["00008", "0000D", "0009B", "000bad"]
    assert rows["Rating"][0] == "1913"
    evals = _all_rows(test_data / "evals.jsonl", fen_column="fen")
    assert evals["valid"].tolist() == [True, True, True, False]


def _write_compressed(tmp_path, plain, name):
    data = plain.read_bytes()
    gz, bz = tmp_path / f"{name}.gz", tmp_path / f"{name}.bz2"
    gz.write_bytes(gzip.compress(data))
    bz.write_bytes(bz2.compress(data))
    paths = [plain, gz, bz]
    if shutil.which("zstd"):
        zst = tmp_path / f"{name}.zst"
        subprocess.run(["zstd", "-q", "-f", str(plain), "-o", str(zst)], check=True)
        paths.append(zst)
    return paths


def test_every_compression_gives_the_same_rows(tmp_path, test_data):
    plain = tmp_path / "games.pgn"
    shutil.copy(test_data / "classify_games.pgn", plain)
    results = [_all_rows(p, columns="game,ply,move") for p in _write_compressed(tmp_path, plain, "games.pgn")]
    assert len(results) >= 3 and len(results[0]["fen"]) > 0
    for other in results[1:]:
        for name, values in results[0].items():
            if name == "source":  # the file's name
                continue
            if values.dtype == np.float64:
                assert np.array_equal(other[name], values, equal_nan=True), name
            else:
                assert other[name].tolist() == values.tolist(), name


def test_a_cut_stream_yields_its_complete_records_then_raises(tmp_path, shared_data):
    lines = (shared_data / "positions" / "lichess-30K-games.txt").read_bytes()
    cut = tmp_path / "cut.txt.gz"
    cut.write_bytes(gzip.compress(lines)[:200_000])
    got = 0
    with pytest.raises(ValueError, match="compressed byte"):
        for batch in perftkit.classify_file(cut, batch_rows=1000):
            got += batch.num_rows
            assert batch["valid"].all()
    assert 0 < got < 30000


def test_dropping_the_reader_early_stops_the_stream(shared_data):
    path = shared_data / "positions" / "lichess-30K-games.txt"
    for _ in range(20):
        batches = perftkit.classify_file([path] * 10, batch_rows=100)
        assert next(batches).num_rows == 100
        del batches  # the stream, still running, stops at its next write


def test_selections_keep_only_matching_rows(tmp_path):
    path = tmp_path / "some.fen"
    path.write_text("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\nstartpos\n8/8/4k3/8/8/4K3/8/8 w - - 0 1\n")
    rows = _all_rows(path, only="stalemate,dead_by_material")
    assert rows["outcome"].tolist() == ["stalemate", "insufficient_material"]


def test_bad_arguments_raise_value_error_at_once(tmp_path, test_data):
    with pytest.raises(ValueError, match="cannot|No such|missing"):
        perftkit.classify_file(tmp_path / "missing.pgn")
    with pytest.raises(ValueError, match="--columns: unknown column 'nope'"):
        perftkit.classify_file(test_data / "classify_games.pgn", columns="nope")
    with pytest.raises(ValueError, match="input"):
        perftkit.classify_file(test_data / "classify_games.pgn", input="xml")


def test_standard_input(tmp_path):
    path = tmp_path / "two.fen"
    path.write_text("startpos\n8/8/4k3/8/8/4K3/8/8 w - - 0 1\n")
    script = ("import perftkit; b = list(perftkit.classify_file('-')); "
              "print(sum(x.num_rows for x in b), b[0]['legal_moves'].tolist())")
    import sys

    with open(path) as stdin:
        out = subprocess.run([sys.executable, "-c", script], stdin=stdin, capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[0] == "2 [20, 8]"
