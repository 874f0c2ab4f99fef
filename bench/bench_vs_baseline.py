#!/usr/bin/env python3
"""`perftkit bench` of two perftkit binaries side by side: has a change kept the determinism
signature and the speed? The binaries alternate (ABBA order), single-threaded and pinned to
one core, --rounds times; each run is `bench --threads 1 --repeats R --warmup 1` (with
--threads N, N threads pinned to the cores of --cpu, e.g. --threads 2 --cpu 0-1). Reported:
each binary's signatures (they must be the published one), the median of its per-run total
seconds, and new/old ratios of the medians, in total and per position. A JSON record with
the machine and the commit goes to results/ (or --output).

    python3 bench/bench_vs_baseline.py --baseline /tmp/old/perftkit [--perftkit build/release/perftkit]
        [--rounds 4] [--repeats 3] [--threads 1] [--cpu 0] [--output results/bench-vs-baseline-DATE.json]
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

from bench_common import ROOT, commit, machine


def run_bench(binary, repeats, cpu, threads):
    """One `perftkit bench` run: (signature string, total seconds, {position: seconds})."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = ["taskset", "-c", str(cpu), binary, "bench", "--threads", str(threads), "--repeats", str(repeats),
               "--warmup", "1", "--json", out.name]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
        report = json.load(open(out.name))
    backend = report["backends"][0]
    positions = {r["position"]: r["seconds_median"] for r in report["results"]}
    return str(backend["signature"]), backend["seconds"], positions


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--perftkit", default=os.path.join(ROOT, "build", "release", "perftkit"))
    parser.add_argument("--baseline", required=True, help="the perftkit binary to compare against")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1, help="bench threads")
    parser.add_argument("--cpu", default="0", help="the core (or taskset list of cores) both binaries are pinned to")
    parser.add_argument("--output")
    args = parser.parse_args()

    binaries = {"new": os.path.abspath(args.perftkit), "old": os.path.abspath(args.baseline)}
    runs = {name: [] for name in binaries}
    for round_index in range(args.rounds):
        order = ["old", "new"] if round_index % 2 == 0 else ["new", "old"]  # ABBA
        for name in order:
            signature, seconds, positions = run_bench(binaries[name], args.repeats, args.cpu, args.threads)
            runs[name].append({"signature": signature, "seconds": seconds, "positions": positions})
            print(f"round {round_index + 1} {name}: {seconds:7.3f} s  signature {signature}", flush=True)

    summary = {}
    for name, results in runs.items():
        summary[name] = {
            "binary": binaries[name],
            "signatures": sorted({r["signature"] for r in results}),
            "median_seconds": statistics.median(r["seconds"] for r in results),
            "positions": {p: statistics.median(r["positions"][p] for r in results) for p in results[0]["positions"]},
        }
    ratio = summary["new"]["median_seconds"] / summary["old"]["median_seconds"]
    per_position = {p: summary["new"]["positions"][p] / summary["old"]["positions"][p]
                    for p in summary["new"]["positions"]}
    same_signature = summary["new"]["signatures"] == summary["old"]["signatures"] and len(summary["new"]["signatures"]) == 1
    print(f"signature: old {summary['old']['signatures']}, new {summary['new']['signatures']}: "
          f"{'same' if same_signature else 'DIFFERENT'}")
    print(f"median total seconds: old {summary['old']['median_seconds']:.3f}, new {summary['new']['median_seconds']:.3f}; "
          f"new/old {ratio:.3f} ({(ratio - 1) * 100:+.1f}% time)")
    for p, r in per_position.items():
        print(f"  {p:10s} new/old {r:.3f}")

    output = args.output or os.path.join(
        ROOT, "results", f"bench-vs-baseline-{datetime.date.today().isoformat()}.json")
    record = {"commit": commit(), "machine": machine(), "rounds": args.rounds, "repeats": args.repeats,
              "cpu": args.cpu, "threads": args.threads, "same_signature": same_signature, "new_over_old_seconds": ratio,
              "new_over_old_seconds_per_position": per_position, "summary": summary, "runs": runs}
    with open(output, "w") as f:
        json.dump(record, f, indent=1)
    print(f"wrote {output}")
    return 0 if same_signature else 1


if __name__ == "__main__":
    sys.exit(main())
