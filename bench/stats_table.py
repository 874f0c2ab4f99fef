#!/usr/bin/env python3
"""`perftkit perft --stats` at record depths, through the default statistics table (issue #62):
each run's wall time, peak resident memory (/usr/bin/time), the table's size and hit rate
(stderr), and its counters checked against the published rows (Chess Programming Wiki: nodes,
captures, e.p., castles, promotions, checks, mates; Kiwipete 7 nodes only). Each case runs
--runs times and the median is kept. --hash MB runs every case with that table instead, 0 for
none. --work-dir also runs each case as a work dir (a fresh one each run, the default 1,024
shards), alternating with the plain runs, and checks its counters the same way. --backend
pipeline runs the frontier pipeline (on OpenMP here) instead of the CPU core. Writes
results/stats-table-<host>-<date>.json with the machine and the commit.

Usage: bench/stats_table.py [--perftkit build/release/perftkit] [--cases start8,kiwipete6]
                            [--runs 2] [--threads N] [--hash MB] [--backend cpu|pipeline]
                            [--work-dir] [--out FILE]
Cases: start7, start8, start9, start10, kiwipete5, kiwipete6, kiwipete7.
"""
import argparse
import datetime
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from bench_common import ROOT, commit, machine

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
FIELDS = ["nodes", "captures", "en_passant", "castles", "promotions", "checks", "checkmates"]
# (fen, depth, published counters in FIELDS order; None where no figure is published)
CASES = {
    "start7": (START, 7, [3195901860, 108329926, 319617, 883453, 0, 33103848, 435767]),
    "start8": (START, 8, [84998978956, 3523740106, 7187977, 23605205, 0, 968981593, 9852036]),
    "start9": (START, 9, [2439530234167, 125208536153, 319496827, 1784356000, 17334376, 36095901903, 400191963]),
    "start10": (START, 10, [69352859712417, None, None, None, None, None, None]),
    "kiwipete5": (KIWIPETE, 5, [193690690, 35043416, 73365, 4993637, 8392, 3309887, 30171]),
    "kiwipete6": (KIWIPETE, 6, [8031647685, 1558445089, 3577504, 184513607, 56627920, 92238050, 360003]),
    "kiwipete7": (KIWIPETE, 7, [374190009323, None, None, None, None, None, None]),
}


def run_once(perftkit, fen, depth, threads, hash_mb, backend, work_dir=False):
    cmd = [perftkit, "perft", "--fen", fen, "--depth", str(depth), "--stats", "--json", "--backend", backend]
    cmd += ["--threads", str(threads)] if threads else []
    cmd += ["--hash", str(hash_mb)] if hash_mb is not None else []
    if work_dir:
        with tempfile.TemporaryDirectory(prefix="stats-work-dir-") as folder:
            return run_command(cmd + ["--work-dir", os.path.join(folder, "run")])
    return run_command(cmd)


def run_command(cmd):
    with tempfile.NamedTemporaryFile("r") as rss:
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", rss.name] + cmd, capture_output=True,
                              text=True)
        wall = time.perf_counter() - start
        kb, user, system = rss.read().split()[-3:]
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
    result = json.loads(done.stdout)
    table = re.search(r"statistics table: ([0-9.]+)% of (\d+) probes hit(?:, (\d+) subtrees stored)?", done.stderr)
    hash_line = re.search(r"hash: (\d+) MB per process", done.stderr)  # a work dir's table
    return {
        "wall_seconds": round(wall, 3),
        "seconds": result["seconds"],
        "user_seconds": float(user),
        "system_seconds": float(system),
        "peak_rss_mb": round(int(kb) / 1024, 1),
        "hash_mb": result["hash_mb"] if "hash_mb" in result else int(hash_line.group(1)) if hash_line else None,
        "hit_percent": float(table.group(1)) if table else None,
        "probes": int(table.group(2)) if table else None,
        "stored": int(table.group(3)) if table and table.group(3) else None,
        "stats": result["stats"],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--perftkit", default=os.path.join(ROOT, "build/release/perftkit"))
    parser.add_argument("--cases", default="start8,kiwipete6")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--hash", type=int, default=None)
    parser.add_argument("--backend", default="cpu", choices=["cpu", "pipeline"])
    parser.add_argument("--work-dir", action="store_true")
    parser.add_argument("--out")
    args = parser.parse_args()

    rows = []
    for name in args.cases.split(","):
        fen, depth, published = CASES[name]
        runs, work_dir_runs = [], []
        for _ in range(args.runs):
            runs.append(run_once(args.perftkit, fen, depth, args.threads, args.hash, args.backend))
            if args.work_dir:
                work_dir_runs.append(
                    run_once(args.perftkit, fen, depth, args.threads, args.hash, args.backend, work_dir=True))
        for run in runs + work_dir_runs:
            for field, want in zip(FIELDS, published):
                if want is not None and int(run["stats"][field]) != want:
                    sys.exit(f"{name}: {field} {run['stats'][field]}, published {want}")
        row = {"case": name, "fen": fen, "depth": depth, "runs": runs,
               "median_wall_seconds": statistics.median(r["wall_seconds"] for r in runs),
               "median_seconds": statistics.median(r["seconds"] for r in runs),
               "peak_rss_mb": max(r["peak_rss_mb"] for r in runs), "hash_mb": runs[0]["hash_mb"],
               "hit_percent": runs[0]["hit_percent"]}
        if work_dir_runs:
            row["work_dir_runs"] = work_dir_runs
            row["median_work_dir_wall_seconds"] = statistics.median(r["wall_seconds"] for r in work_dir_runs)
            row["work_dir_peak_rss_mb"] = max(r["peak_rss_mb"] for r in work_dir_runs)
            print(f"{name} in a work dir: median wall {row['median_work_dir_wall_seconds']:.2f} s, "
                  f"peak {row['work_dir_peak_rss_mb']:.0f} MB, counters as published", flush=True)
        rows.append(row)
        print(f"{name}: median wall {row['median_wall_seconds']:.2f} s (counting {row['median_seconds']:.2f} s), "
              f"peak {row['peak_rss_mb']:.0f} MB, table {row['hash_mb']} MB, hits {row['hit_percent']}%, "
              f"counters as published", flush=True)

    date = datetime.date.today().isoformat()
    out = args.out or os.path.join(ROOT, "results", f"stats-table-{socket.gethostname()}-{date}.json")
    with open(out, "w") as f:
        json.dump({"script": "bench/stats_table.py", "date": date, "commit": commit(), "machine": machine(), "perftkit": args.perftkit,
                   "threads": args.threads or os.cpu_count(), "backend": args.backend, "rows": rows}, f, indent=1)
        f.write("\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
