#!/usr/bin/env python3
"""The frontier pipeline on the OpenMP system against the CPU core at the same instruction-set
level, on hashed start-position perft (issue #64's measure: only the design differs, since the
pipeline's host code is built for x86-64-v2 and PERFTKIT_CPU_KERNEL=x86-64-v2 holds the core
to that level). Each depth runs `perft --depth D --json` with the default table on
`--backend pipeline` and on `--backend cpu`, interleaved, --runs times (and --baseline, another
build's pipeline, in the same rounds). Reported per depth and road: the medians of wall, user
and system seconds and of the peak resident memory, and the pipeline/core ratios of the
medians. Every count is checked against the published one.

--hash 0 times both roads without a table (the pipeline's levels mode against the core's
merged frontier and plain recursion).

Usage: bench/pipeline_vs_core.py [--perftkit build/release/perftkit] [--depths 8] [--runs 3]
                                 [--baseline OTHER_PERFTKIT] [--hash MB] [--out FILE]
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_common  # noqa: E402

PUBLISHED = {5: 4865609, 6: 119060324, 7: 3195901860, 8: 84998978956, 9: 2439530234167, 10: 69352859712417}


def run_once(perftkit, backend, depth, hash_mb=None):
    """(nodes, wall s, user s, system s, peak resident MB, table MB) of one run."""
    env = dict(os.environ, PERFTKIT_CPU_KERNEL="x86-64-v2")
    cmd = [perftkit, "perft", "--depth", str(depth), "--backend", backend, "--json"]
    if hash_mb is not None:
        cmd += ["--hash", str(hash_mb)]
    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {child.returncode}")
    report = json.loads(out)
    return {"nodes": int(report["nodes"]), "wall": wall, "user": usage.ru_utime, "system": usage.ru_stime,
            "peak_mb": usage.ru_maxrss / 1024, "hash_mb": report.get("hash_mb")}


def medians(runs):
    return {key: round(statistics.median(r[key] for r in runs), 3) for key in ("wall", "user", "system", "peak_mb")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perftkit", default=os.path.join(bench_common.ROOT, "build/release/perftkit"))
    parser.add_argument("--depths", default="8")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline", help="another perftkit build whose pipeline runs in the same rounds")
    parser.add_argument("--hash", type=int, help="table MB for every run (0: none); default: perftkit's own")
    parser.add_argument("--out")
    args = parser.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    roads = [("pipeline", args.perftkit, "pipeline"), ("core", args.perftkit, "cpu")]
    if args.baseline:
        roads.append(("baseline_pipeline", args.baseline, "pipeline"))

    record = {"script": "bench/pipeline_vs_core.py", "date": datetime.datetime.now().isoformat(timespec="seconds"),
              **bench_common.commit(), "machine": bench_common.machine(), "cpu_kernel": "x86-64-v2",
              "runs": args.runs, "baseline": args.baseline, "hash_mb": args.hash, "depths": {}}
    wrong = False
    for depth in depths:
        runs = {name: [] for name, _, _ in roads}
        for round_ in range(args.runs):
            order = roads if round_ % 2 == 0 else roads[::-1]
            for name, binary, backend in order:
                r = run_once(binary, backend, depth, args.hash)
                if r["nodes"] != PUBLISHED.get(depth, r["nodes"]):
                    print(f"{name} perft {depth}: {r['nodes']}, published {PUBLISHED[depth]}", file=sys.stderr)
                    wrong = True
                runs[name].append(r)
                print(f"perft {depth} {name:18} wall {r['wall']:7.2f} s  user {r['user']:7.2f} s  "
                      f"system {r['system']:5.2f} s  peak {r['peak_mb']:7.0f} MB  table {r['hash_mb']} MB", flush=True)
        entry = {name: {"medians": medians(rs), "runs": rs} for name, rs in runs.items()}
        core = entry["core"]["medians"]
        for name in runs:
            if name == "core":
                continue
            m = entry[name]["medians"]
            entry[name]["over_core"] = {key: round(m[key] / core[key], 3) for key in ("wall", "user", "peak_mb")}
            print(f"perft {depth} {name}/core (medians): wall {entry[name]['over_core']['wall']}x, "
                  f"user {entry[name]['over_core']['user']}x, peak memory {entry[name]['over_core']['peak_mb']}x")
        record["depths"][str(depth)] = entry

    out = args.out or os.path.join(bench_common.ROOT, "results",
                                   f"pipeline-vs-core-vm-{datetime.date.today().isoformat()}.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    print(f"wrote {out}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
