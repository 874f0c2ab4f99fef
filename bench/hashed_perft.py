#!/usr/bin/env python3
"""Time to result of record-style runs: start-position perft with transposition merging and the
default hash table (what `perftkit perft -d N` does), each depth run --runs times, the median
kept. Every run's count is checked against the published one. Writes the figures, the machine
(CPU, cores, load before and after) and the commit to results/hashed-perft-<host>-<date>.json.

This machine is shared and noisy, so two anchors can run interleaved with every run, in the
same rounds: --baseline (another perftkit build, e.g. the previous commit's: the ratio of
medians is the change's effect) and --stockfish (Stockfish's unhashed perft at --stockfish-depth,
a reference for how fast the machine was during the run).

--compare-hash MB runs the same binary with `--hash MB` interleaved too: a larger table must
never be slower than the default one at the same depth.

Each run's user and system seconds are kept. Memory a process has just freed is cheap to fault
in again, but on a virtual machine that hands freed memory back to its host (free page
reporting) fresh memory can cost seconds of system time a gigabyte, so a run after a smaller
one pays for the difference. --settle S waits S seconds before every run, long enough for the
guest to hand the memory back: every run then pays for its own table, as a first run does.
Without it, only the first run of a depth meets fresh memory (about 1.5 s more at perft 9 on
the 2-core VM), and with --baseline that is always this build's first run: --warmup runs this
build once unrecorded first, so that every recorded run is warm and the ratio is the builds'
alone. (A record-style figure, "median of 2", keeps the cold first run: no --warmup.)

--hash MB runs every perftkit run with that table instead of the default; --hash 0 times the
merged frontier and the unhashed count alone.

Usage: bench/hashed_perft.py [--perftkit build/release/perftkit] [--depths 8,9] [--runs 3]
                             [--threads N] [--baseline OTHER_PERFTKIT] [--hash MB] [--compare-hash MB] [--settle S]
                             [--warmup]
                             [--stockfish /usr/games/stockfish] [--stockfish-depth 7] [--out FILE]
"""
import argparse
import datetime
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import time

from bench_common import ROOT, commit, machine, stockfish_perft
PUBLISHED = {5: 4865609, 6: 119060324, 7: 3195901860, 8: 84998978956, 9: 2439530234167, 10: 69352859712417}


def run_once(perftkit, depth, threads, settle, hash_mb=None):
    cmd = [perftkit, "perft", "--depth", str(depth), "--json"] + (["--threads", str(threads)] if threads else [])
    cmd += ["--hash", str(hash_mb)] if hash_mb is not None else []
    time.sleep(settle)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
    result = json.loads(done.stdout)
    table = re.search(r"hash: (\d+) MB", done.stderr)
    return {"nodes": int(result["nodes"]), "seconds": result["seconds"], "wall_seconds": wall,
            "user_seconds": after.ru_utime - before.ru_utime, "system_seconds": after.ru_stime - before.ru_stime,
            "hash_mb": int(table.group(1)) if table else result.get("hash_mb"), "threads": result["threads"]}


def stockfish_once(stockfish, depth):
    nodes, seconds = stockfish_perft(stockfish, "startpos", depth)
    return {"nodes": nodes, "wall_seconds": seconds}


def summary(runs, depth, key):
    correct = all(r["nodes"] == PUBLISHED.get(depth) for r in runs)
    return correct, statistics.median(r[key] for r in runs)


def cpu_times(runs):
    user = statistics.median(r["user_seconds"] for r in runs)
    system = statistics.median(r["system_seconds"] for r in runs)
    return f" (medians: user {user:.2f} s, system {system:.2f} s)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--perftkit", default=os.path.join(ROOT, "build", "release", "perftkit"))
    parser.add_argument("--depths", default="8,9")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--baseline", help="another perftkit binary, run interleaved")
    parser.add_argument("--hash", type=int, metavar="MB",
                        help="run this build and the baseline with --hash MB instead of the default table "
                             "(0: no table, the merged frontier alone)")
    parser.add_argument("--compare-hash", type=int, metavar="MB", help="also run with --hash MB, interleaved")
    parser.add_argument("--stockfish", help="Stockfish binary: its perft runs interleaved as a machine-speed reference")
    parser.add_argument("--stockfish-depth", type=int, default=7)
    parser.add_argument("--settle", type=float, default=0.0, metavar="S",
                        help="seconds to wait before every run (freed memory goes back to a VM's host)")
    parser.add_argument("--warmup", action="store_true",
                        help="run this build once unrecorded before each depth's rounds (every recorded run warm)")
    parser.add_argument("--out")
    args = parser.parse_args()

    load_before = os.getloadavg()
    rows, ok = [], True
    for depth in (int(d) for d in args.depths.split(",")):
        runs, baseline, reference, sized = [], [], [], []
        if args.warmup:  # unrecorded: only the first run of a depth meets fresh memory
            run_once(args.perftkit, depth, args.threads, 0.0, args.hash)
        for _ in range(args.runs):  # interleaved: each round runs every binary once
            runs.append(run_once(args.perftkit, depth, args.threads, args.settle, args.hash))
            if args.compare_hash:
                sized.append(run_once(args.perftkit, depth, args.threads, args.settle, args.compare_hash))
            if args.baseline:
                baseline.append(run_once(args.baseline, depth, args.threads, args.settle, args.hash))
            if args.stockfish:
                reference.append(stockfish_once(args.stockfish, args.stockfish_depth))
        correct, median = summary(runs, depth, "seconds")
        ok = ok and correct
        row = {"depth": depth, "expected": PUBLISHED.get(depth), "correct": correct,
               "median_seconds": median, "runs": runs}
        line = (f"perft {depth}: {runs[-1]['nodes']} ({'ok' if correct else 'MISMATCH'}), median {median:.2f} s "
                f"of {[round(r['seconds'], 2) for r in runs]}{cpu_times(runs)}, table {runs[-1]['hash_mb']} MB, "
                f"{runs[-1]['threads']} threads")
        if baseline:
            base_correct, base_median = summary(baseline, depth, "seconds")
            ok = ok and base_correct
            row["baseline"] = {"binary": args.baseline, "correct": base_correct, "median_seconds": base_median,
                               "runs": baseline, "speedup": base_median / median}
            line += (f"; baseline median {base_median:.2f} s of {[round(r['seconds'], 2) for r in baseline]}"
                     f"{cpu_times(baseline)} ({base_median / median:.2f}x)")
        if sized:
            sized_correct, sized_median = summary(sized, depth, "seconds")
            ok = ok and sized_correct
            row["compare_hash"] = {"hash_mb": args.compare_hash, "correct": sized_correct,
                                   "median_seconds": sized_median, "runs": sized,
                                   "default_over_sized": median / sized_median}
            line += (f"; --hash {args.compare_hash}: median {sized_median:.2f} s "
                     f"of {[round(r['seconds'], 2) for r in sized]}{cpu_times(sized)} ({median / sized_median:.2f}x the default's speed)")
        if reference:
            ref_correct, ref_median = summary(reference, args.stockfish_depth, "wall_seconds")
            ok = ok and ref_correct
            row["stockfish"] = {"depth": args.stockfish_depth, "correct": ref_correct,
                                "median_wall_seconds": ref_median, "runs": reference}
            line += (f"; stockfish perft {args.stockfish_depth} median {ref_median:.2f} s "
                     f"of {[round(r['wall_seconds'], 2) for r in reference]}")
        rows.append(row)
        print(line, flush=True)

    record = {
        "benchmark": "hashed_perft",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        **commit(),
        "machine": {**machine(),
                    "load_average_before": load_before, "load_average_after": os.getloadavg()},
        "command": "perftkit perft --depth N --json (merging on, "
                   + (f"--hash {args.hash})" if args.hash is not None else "default hash table)"),
        "settle_seconds": args.settle,
        "warmup": args.warmup,
        "results": rows,
    }
    out = args.out or os.path.join(ROOT, "results", f"hashed-perft-{platform.node()}-{datetime.date.today()}.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=2)
        f.write("\n")
    print(f"results: {out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
