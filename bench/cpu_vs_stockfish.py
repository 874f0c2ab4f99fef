#!/usr/bin/env python3
"""Single-thread perft speed of perftkit against Stockfish 15.1, side by side in one run.

Workload (bulk counting at the last ply, no hash, no transposition merging):
start position perft 7 and Kiwipete perft 6. The two programs alternate, each position is
run --repeats times, and the median wall time of each is compared. Writes a JSON record
with the machine and commit to results/ (or --output).

    python3 bench/cpu_vs_stockfish.py [--perftkit build/release/perftkit] [--repeats 3]
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import time

from bench_common import ROOT, commit, machine, stockfish_perft

POSITIONS = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 7, 3195901860),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6, 8031647685),
]
STOCKFISH = "/usr/games/stockfish"


def ensure_stockfish():
    if not os.path.exists(STOCKFISH):
        print("installing stockfish (Debian package)...", file=sys.stderr)
        subprocess.run(["apt-get", "install", "-y", "-q", "stockfish"], check=True)
    out = subprocess.run([STOCKFISH], input="uci\nquit\n", capture_output=True, text=True).stdout
    match = re.search(r"id name (.*)", out)
    return match.group(1).strip() if match else "stockfish"


def run_stockfish(fen, depth):
    return stockfish_perft(STOCKFISH, fen, depth)


def run_perftkit(binary, fen, depth):
    start = time.perf_counter()
    out = subprocess.run([binary, "perft", "--fen", fen, "--depth", str(depth), "--threads", "1",
                          "--no-merge", "--hash", "0", "--backend", "cpu", "--json"],
                         capture_output=True, text=True, check=True).stdout
    seconds = time.perf_counter() - start
    return int(json.loads(out)["nodes"]), seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--perftkit", default=os.path.join(ROOT, "build/release/perftkit"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--output", help="JSON file (default: results/cpu-vs-stockfish-DATE.json)")
    args = parser.parse_args()

    if not os.path.exists(args.perftkit):
        subprocess.run(["cmake", "--workflow", "--preset", "release"], cwd=ROOT, check=True)
    stockfish_version = ensure_stockfish()

    rows = []
    failed = False
    for name, fen, depth, expected in POSITIONS:
        times = {"perftkit": [], "stockfish": []}
        for _ in range(args.repeats):
            for program, runner in (("perftkit", lambda: run_perftkit(args.perftkit, fen, depth)),
                                    ("stockfish", lambda: run_stockfish(fen, depth))):
                nodes, seconds = runner()
                if nodes != expected:
                    print(f"MISMATCH {program} {name} perft {depth}: {nodes} != {expected}", file=sys.stderr)
                    failed = True
                times[program].append(seconds)
        pk, sf = statistics.median(times["perftkit"]), statistics.median(times["stockfish"])
        rows.append({"position": name, "fen": fen, "depth": depth, "nodes": expected,
                     "perftkit_seconds": times["perftkit"], "stockfish_seconds": times["stockfish"],
                     "perftkit_median_nps": expected / pk, "stockfish_median_nps": expected / sf,
                     "ratio": sf / pk})

    print(f"{'position':<10} {'depth':>5} {'perftkit nps':>14} {'stockfish nps':>14} {'ratio':>7}")
    for r in rows:
        print(f"{r['position']:<10} {r['depth']:>5} {r['perftkit_median_nps']:>14.4g} "
              f"{r['stockfish_median_nps']:>14.4g} {r['ratio']:>6.2f}x")

    record = {"benchmark": "cpu-single-thread-perft-vs-stockfish", "date": datetime.datetime.now(
        datetime.timezone.utc).isoformat(timespec="seconds"), **commit(), "machine": machine(),
        "peer": stockfish_version, "repeats": args.repeats,
        "method": "single thread, bulk counting at the last ply, no hash, no merging; median wall time",
        "results": rows}
    output = args.output or os.path.join(ROOT, "results",
                                         f"cpu-vs-stockfish-{datetime.date.today().isoformat()}.json")
    os.makedirs(os.path.dirname(output), exist_ok=True)
    with open(output, "w") as f:
        json.dump(record, f, indent=2)
        f.write("\n")
    print(f"wrote {output}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
