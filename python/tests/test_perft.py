"""perftkit.perft against the published counts of the six standard positions (Chess
Programming Wiki), with divide and stats, and against the CLI's JSON for the same calls."""

import json
import subprocess

import pytest

import perftkit

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POSITION6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"

PUBLISHED = [
    ("startpos", 5, 4865609),
    (KIWIPETE, 4, 4085603),
    (POSITION3, 5, 674624),
    (POSITION4, 4, 422333),
    (POSITION5, 4, 2103487),
    (POSITION6, 4, 3894594),
]
IDS = ["start", "kiwipete", "position3", "position4", "position5", "position6"]


@pytest.mark.parametrize("fen,depth,nodes", PUBLISHED, ids=IDS)
def test_published_count(fen, depth, nodes):
    assert perftkit.perft(fen, depth) == nodes


@pytest.mark.parametrize("fen,depth,nodes", PUBLISHED, ids=IDS)
def test_divide_sums_to_the_published_count(fen, depth, nodes):
    by_move = perftkit.perft(fen, depth, divide=True)
    assert sum(by_move.values()) == nodes
    assert sorted(by_move) == sorted(perftkit.Position(fen).legal_moves())


@pytest.mark.parametrize("backend", ["cpu", "pipeline"])
@pytest.mark.parametrize("hash_mb", [0, 16])
def test_backends_and_tables_agree(backend, hash_mb):
    assert perftkit.perft(KIWIPETE, 4, backend=backend, hash_mb=hash_mb, threads=2) == 4085603


def test_stats_match_the_published_counters():
    # Kiwipete depth 3 (Chess Programming Wiki): 97862 nodes, 17102 captures, 45 e.p.,
    # 3162 castles, 0 promotions, 993 checks, 1 checkmate.
    stats = perftkit.perft(KIWIPETE, 3, stats=True)
    assert stats["nodes"] == 97862
    assert stats["captures"] == 17102
    assert stats["en_passant"] == 45
    assert stats["castles"] == 3162
    assert stats["promotions"] == 0
    assert stats["checks"] == 993
    assert stats["checkmates"] == 1


@pytest.mark.parametrize("hash_mb", [0, 4])
def test_stats_split_checks_as_the_grand_chess_tree(hash_mb):
    # Kiwipete depth 5 (The Grand Chess Tree): checks without mates 3,257,196 direct, 19,883
    # single discovered, 2,637 direct+discovered, 0 double discovered; mates 30,163 direct and
    # 8 direct+discovered. With and without the statistics table.
    split = perftkit.perft(KIWIPETE, 5, stats=True, hash_mb=hash_mb)["checks_by_origin"]
    assert split == {"direct": 3257196, "single_discovered": 19883, "direct_discovered": 2637,
                     "double_discovered": 0, "direct_mates": 30163, "single_discovered_mates": 0,
                     "direct_discovered_mates": 8, "double_discovered_mates": 0}


def test_moves_are_played_first():
    assert perftkit.perft("startpos", 3, moves=["e2e4", "e7e5"]) == perftkit.perft(
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", 3
    )


def test_depth_zero_is_one_node():
    assert perftkit.perft("startpos", 0) == 1


def _cli_json(cli, *arguments):
    out = subprocess.run([cli, "perft", "--json", *arguments], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


@pytest.mark.parametrize("fen,depth", [("startpos", 4), (KIWIPETE, 3), (POSITION4, 3)], ids=["start", "kiwipete", "position4"])
def test_same_as_the_cli_json(cli, fen, depth):
    plain = _cli_json(cli, "--fen", fen, "--depth", str(depth))
    assert perftkit.perft(fen, depth) == plain["nodes"]
    divided = _cli_json(cli, "--fen", fen, "--depth", str(depth), "--divide")
    assert perftkit.perft(fen, depth, divide=True) == divided["divide"]
    stats = _cli_json(cli, "--fen", fen, "--depth", str(depth), "--stats", "--divide")
    assert perftkit.perft(fen, depth, stats=True) == stats["stats"]
    assert perftkit.perft(fen, depth, stats=True, divide=True) == stats["divide"]


def test_counts_are_python_ints():
    # Counts come as Python ints, unbounded (no perft a test can afford exceeds 2**64).
    assert type(perftkit.perft("startpos", 2)) is int


@pytest.mark.parametrize(
    "kwargs,reason",
    [
        ({"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "depth": 2}, "side"),
        ({"fen": "startpos", "depth": -1}, "depth"),
        ({"fen": "startpos", "depth": 2, "moves": ["e2e5"]}, "e2e5"),
        ({"fen": "startpos", "depth": 2, "backend": "gpu"}, "backend"),
    ],
)
def test_bad_input_raises_value_error_naming_it(kwargs, reason):
    with pytest.raises(ValueError, match=reason):
        perftkit.perft(**kwargs)


def test_depth_is_required():
    with pytest.raises(TypeError, match="depth"):
        perftkit.perft("startpos")


@pytest.mark.parametrize("fen,depth,nodes", PUBLISHED, ids=IDS)
def test_stats_and_divided_stats_count_the_published_nodes(fen, depth, nodes):
    assert perftkit.perft(fen, depth, stats=True)["nodes"] == nodes
    by_move = perftkit.perft(fen, depth, stats=True, divide=True)
    assert sum(counters["nodes"] for counters in by_move.values()) == nodes
