#!/usr/bin/env python3
"""Time to result of record-style runs: start-position perft with transposition merging and the
default hash table (what `perftkit perft -d N` does), each depth run --runs times, the median
kept. Every run's count is checked against the published one. Writes the figures, the machine
(CPU, cores, load before and after) and the commit to results/hashed-perft-<host>-<date>.json.

Usage: bench/hashed_perft.py [--perftkit build/release/perftkit] [--depths 8,9] [--runs 3]
                             [--threads N] [--out FILE]
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PUBLISHED = {5: 4865609, 6: 119060324, 7: 3195901860, 8: 84998978956, 9: 2439530234167, 10: 69352859712417}


def cpu_model():
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def commit():
    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    return git("rev-parse", "HEAD") or "unknown", bool(git("status", "--porcelain", "--untracked-files=no"))


def run_once(perftkit, depth, threads):
    cmd = [perftkit, "perft", "--depth", str(depth), "--json"] + (["--threads", str(threads)] if threads else [])
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
    result = json.loads(done.stdout)
    table = re.search(r"hash: (\d+) MB", done.stderr)
    return {"nodes": int(result["nodes"]), "seconds": result["seconds"], "wall_seconds": wall,
            "hash_mb": int(table.group(1)) if table else result.get("hash_mb"), "threads": result["threads"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--perftkit", default=os.path.join(ROOT, "build", "release", "perftkit"))
    parser.add_argument("--depths", default="8,9")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--out")
    args = parser.parse_args()

    load_before = os.getloadavg()
    rows, ok = [], True
    for depth in (int(d) for d in args.depths.split(",")):
        runs = [run_once(args.perftkit, depth, args.threads) for _ in range(args.runs)]
        correct = all(r["nodes"] == PUBLISHED.get(depth) for r in runs)
        ok = ok and correct
        median = statistics.median(r["seconds"] for r in runs)
        rows.append({"depth": depth, "expected": PUBLISHED.get(depth), "correct": correct,
                     "median_seconds": median, "runs": runs})
        print(f"perft {depth}: {runs[-1]['nodes']} ({'ok' if correct else 'MISMATCH'}), median {median:.2f} s "
              f"of {[round(r['seconds'], 2) for r in runs]}, table {runs[-1]['hash_mb']} MB, "
              f"{runs[-1]['threads']} threads", flush=True)

    sha, dirty = commit()
    record = {
        "benchmark": "hashed_perft",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": sha, "dirty": dirty,
        "machine": {"host": platform.node(), "cpu": cpu_model(), "cpus": os.cpu_count(),
                    "load_average_before": load_before, "load_average_after": os.getloadavg()},
        "command": "perftkit perft --depth N --json (default hash table, merging on)",
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
