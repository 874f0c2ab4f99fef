"""perftkit.verify: a suite's results in the file's order, wrong counts, rejected positions and
unreadable lines reported, and the same verdict as `perftkit verify`."""

import subprocess

import pytest

import perftkit


def test_standard_suite_passes_within_a_node_limit(shared_data, cli):
    path = shared_data / "perft" / "standard.epd"
    results = perftkit.verify(str(path), max_nodes=200_000)
    assert results and all(r["passed"] for r in results)
    assert all(r["expected"] <= 200_000 for r in results)
    assert results[0]["depth"] == 1 and results[0]["nodes"] == 20
    assert results[0]["source"].endswith(":1")
    assert subprocess.run([cli, "verify", "--max-nodes", "200000", str(path)], capture_output=True).returncode == 0


def test_wrong_count_fails_with_both_counts(test_data, cli):
    results = perftkit.verify(str(test_data / "wrong.epd"))
    failed = [r for r in results if not r["passed"]]
    assert [(r["depth"], r["expected"], r["nodes"]) for r in failed] == [(3, 8903, 8902)]
    assert len(results) == 5
    assert subprocess.run([cli, "verify", str(test_data / "wrong.epd")], capture_output=True).returncode == 1


def test_unreadable_lines_and_rejected_positions_are_results(test_data):
    results = perftkit.verify(str(test_data / "malformed.epd"))
    errors = [r for r in results if r["error"]]
    assert len(errors) == 2
    assert all(not r["passed"] for r in errors)
    assert any("invalid FEN" in r["error"] for r in errors)
    assert [r["depth"] for r in results if r["passed"]] == [1, 2]  # line 1; line 2 is unreadable as a whole


def test_max_depth(test_data):
    results = perftkit.verify(str(test_data / "wrong.epd"), max_depth=1)
    assert [r["depth"] for r in results] == [1, 1]


def test_a_file_that_is_not_a_suite_raises_value_error(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text('[Event "x"]\n\n1. e4 e5 *\n')
    with pytest.raises(ValueError, match="no perft cases"):
        perftkit.verify(str(path))
    with pytest.raises(ValueError):
        perftkit.verify(str(tmp_path / "missing.epd"))
