#!/usr/bin/env python3
"""The Python module side by side with python-chess 1.11, in one run, on this machine:

- classify: the lichess-30K positions (perftkit on 1 and on every core; python-chess on one
  core, the same questions per position), then 1,000,000 FENs from a Python list, ending in
  numpy arrays (rows/s on every core, and per core against python-chess);
- perft: the start position and Kiwipete (perftkit on one thread without a table; python-chess
  with the usual make/unmake recursion, counting the last ply's legal moves, at one ply less,
  as nodes/s);
- the per-call cost of Position methods against the same C++ work without Python
  (perftkit._perftkit._cpp_seconds_per_call).

Each figure is the median of --runs runs. The module is imported from --module-dir (default:
build/test/python, the test tree's package) or else from the environment. Results, with the
machine and the commit, go to results/python-api-<date>.json.

Usage: bench/python_api.py [--module-dir build/test/python] [--runs 5] [--rows 1000000]
"""
import argparse
import json
import os
import statistics
import sys
import time
import timeit

from bench_common import ROOT, commit, machine

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
LICHESS = os.path.join(ROOT, "..", "shared", "data", "positions", "lichess-30K-games.txt")


def median_seconds(function, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def python_chess_classify(chess, fens):
    """The questions perftkit.classify answers, asked of python-chess, per position."""
    for fen in fens:
        board = chess.Board(fen)
        board.legal_moves.count()
        board.is_check()
        board.is_checkmate()
        board.is_stalemate()
        board.has_insufficient_material(chess.WHITE)
        board.has_insufficient_material(chess.BLACK)
        board.is_fifty_moves()


def python_chess_perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in list(board.legal_moves):
        board.push(move)
        nodes += python_chess_perft(board, depth - 1)
        board.pop()
    return nodes


def distinct_copies(lines, count):
    """count FEN strings, each a str object of its own (as read from a file), cycling lines."""
    return [(lines[i % len(lines)] + " ").rstrip() for i in range(count)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module-dir", default=os.path.join(ROOT, "build", "test", "python"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    sys.path.insert(0, args.module_dir)
    import chess
    import perftkit

    cores = os.cpu_count()
    report = {"commit": commit(), "machine": machine(), "python_chess": chess.__version__,
              "module": perftkit.__file__, "runs": args.runs}
    lines = [line.rsplit(" ", 1)[0] for line in open(LICHESS).read().splitlines()]

    # classify: lichess-30K
    one = median_seconds(lambda: perftkit.classify(lines, threads=1), args.runs)
    every = median_seconds(lambda: perftkit.classify(lines), args.runs)
    pc = median_seconds(lambda: python_chess_classify(chess, lines), max(1, args.runs // 2))
    report["classify_lichess_30k"] = {
        "rows": len(lines), "perftkit_1_thread_rows_per_s": len(lines) / one,
        f"perftkit_{cores}_threads_rows_per_s": len(lines) / every,
        "python_chess_rows_per_s": len(lines) / pc, "per_core_ratio": pc / one}

    # classify: a million FENs from a list, into numpy arrays
    fens = distinct_copies(lines, args.rows)
    million_every = median_seconds(lambda: perftkit.classify(fens), args.runs)
    million_one = median_seconds(lambda: perftkit.classify(fens, threads=1), args.runs)
    report["classify_list"] = {
        "rows": args.rows, f"rows_per_s_{cores}_threads": args.rows / million_every,
        "rows_per_s_1_thread": args.rows / million_one,
        "per_core_ratio_to_python_chess": (args.rows / million_one) / (len(lines) / pc)}

    # perft: one thread, no table, against python-chess a ply shallower (nodes/s)
    report["perft"] = {}
    for name, fen, depth in [("start", START, 5), ("kiwipete", KIWIPETE, 4)]:
        nodes = perftkit.perft(fen, depth)
        seconds = median_seconds(lambda: perftkit.perft(fen, depth, threads=1, hash_mb=0), args.runs)
        pc_nodes = python_chess_perft(chess.Board(fen), depth - 1)
        pc_seconds = median_seconds(lambda: python_chess_perft(chess.Board(fen), depth - 1), 1)
        report["perft"][name] = {
            "depth": depth, "nodes": nodes, "perftkit_nodes_per_s": nodes / seconds,
            "python_chess_depth": depth - 1, "python_chess_nodes_per_s": pc_nodes / pc_seconds,
            "ratio": (nodes / seconds) / (pc_nodes / pc_seconds)}

    # Position: per call, against the C++ work alone
    report["position_calls"] = {}
    for fen_name, fen in [("start", START), ("kiwipete", KIWIPETE)]:
        position = perftkit.Position(fen)
        board = chess.Board(fen)
        for method, pc_call in [("legal_moves", lambda: [m.uci() for m in board.legal_moves]),
                                ("fen", board.fen), ("is_check", board.is_check)]:
            call = getattr(position, method)
            repeats = 200_000
            python_call = statistics.median(timeit.repeat(call, number=repeats, repeat=args.runs)) / repeats
            cpp = statistics.median(perftkit._perftkit._cpp_seconds_per_call(method, fen, repeats)
                                    for _ in range(args.runs))
            pc_time = statistics.median(timeit.repeat(pc_call, number=repeats // 20, repeat=3)) / (repeats // 20)
            report["position_calls"][f"{fen_name}.{method}"] = {
                "python_us": python_call * 1e6, "cpp_work_us": cpp * 1e6,
                "overhead_us": (python_call - cpp) * 1e6, "python_chess_us": pc_time * 1e6}

    os.makedirs(os.path.join(ROOT, "results"), exist_ok=True)
    path = os.path.join(ROOT, "results", f"python-api-{time.strftime('%Y-%m-%d')}.json")
    with open(path, "w") as out:
        json.dump(report, out, indent=2)
    print(json.dumps({k: v for k, v in report.items() if k not in ("machine", "commit")}, indent=2))
    print(f"written to {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()
