#!/usr/bin/env python3
"""`perftkit bench` of two perftkit binaries side by side: has a change kept the determinism
signature and the speed? The binaries alternate (ABBA order), single-threaded and pinned to
one core, --rounds times; each run is `bench --threads 1 --repeats R --warmup 1` (with
--threads N, N threads pinned to the cores of --cpu, e.g. --threads 2 --cpu 0-1). Reported:
each binary's signatures (they must be the published one), the median of its per-run total
seconds, and new/old ratios of the medians, in total and per position. A JSON record with
the machine and the commit goes to results/ (or --output).

--paired A,B runs the two binaries at once instead, one pinned to core A and one to core B,
swapping cores every round, and reports the median of the rounds' new/old ratios. On a
virtual machine whose speed drifts by 10-30% within a minute, runs one after the other
differ by more than a small change does; runs side by side see the same drift, so their
ratio keeps it out (an A/A comparison gives ratios within 1% of 1). Needs two idle cores.

    python3 bench/bench_vs_baseline.py --baseline /tmp/old/perftkit [--perftkit build/release/perftkit]
        [--rounds 4] [--repeats 3] [--threads 1] [--cpu 0 | --paired 0,1]
        [--output results/bench-vs-baseline-DATE.json]
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


def run_benches(jobs, repeats, threads):
    """`perftkit bench` runs started together, one per (binary, cpu) of jobs: for each, its
    (signature string, total seconds, {position: seconds})."""
    with tempfile.TemporaryDirectory() as work:
        started = []
        for index, (binary, cpu) in enumerate(jobs):
            out = os.path.join(work, f"{index}.json")
            cmd = ["taskset", "-c", str(cpu), binary, "bench", "--threads", str(threads), "--repeats", str(repeats),
                   "--warmup", "1", "--json", out]
            started.append((cmd, out, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
        results = []
        for cmd, out, process in started:
            stdout, stderr = process.communicate()
            if process.returncode != 0:
                sys.exit(f"{' '.join(cmd)} failed ({process.returncode}):\n{stdout}{stderr}")
            report = json.load(open(out))
            backend = report["backends"][0]
            positions = {r["position"]: r["seconds_median"] for r in report["results"]}
            results.append((str(backend["signature"]), backend["seconds"], positions))
        return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--perftkit", default=os.path.join(ROOT, "build", "release", "perftkit"))
    parser.add_argument("--baseline", required=True, help="the perftkit binary to compare against")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1, help="bench threads")
    parser.add_argument("--cpu", default="0", help="the core (or taskset list of cores) both binaries are pinned to")
    parser.add_argument("--paired", metavar="A,B", help="run both binaries at once on cores A and B (swapped each round)")
    parser.add_argument("--output")
    args = parser.parse_args()

    binaries = {"new": os.path.abspath(args.perftkit), "old": os.path.abspath(args.baseline)}
    runs = {name: [] for name in binaries}
    cores = args.paired.split(",") if args.paired else None
    if cores and len(cores) != 2:
        sys.exit("--paired takes two cores, e.g. 0,1")
    for round_index in range(args.rounds):
        order = ["old", "new"] if round_index % 2 == 0 else ["new", "old"]  # ABBA
        if cores:  # side by side, the binaries swapping cores every round
            batches = [[(name, core) for name, core in zip(order, cores)]]
        else:  # one after the other, on the same core(s)
            batches = [[(name, args.cpu)] for name in order]
        for batch in batches:
            results = run_benches([(binaries[name], cpu) for name, cpu in batch], args.repeats, args.threads)
            for (name, cpu), (signature, seconds, positions) in zip(batch, results):
                runs[name].append({"signature": signature, "seconds": seconds, "positions": positions, "cpu": cpu})
                print(f"round {round_index + 1} {name} (cpu {cpu}): {seconds:7.3f} s  signature {signature}", flush=True)

    summary = {}
    for name, results in runs.items():
        summary[name] = {
            "binary": binaries[name],
            "signatures": sorted({r["signature"] for r in results}),
            "median_seconds": statistics.median(r["seconds"] for r in results),
            "positions": {p: statistics.median(r["positions"][p] for r in results) for p in results[0]["positions"]},
        }
    if cores:  # the median of the rounds' ratios: each round's pair ran under the same conditions
        pairs = list(zip(runs["new"], runs["old"]))
        ratio = statistics.median(new["seconds"] / old["seconds"] for new, old in pairs)
        per_position = {p: statistics.median(new["positions"][p] / old["positions"][p] for new, old in pairs)
                        for p in summary["new"]["positions"]}
    else:
        ratio = summary["new"]["median_seconds"] / summary["old"]["median_seconds"]
        per_position = {p: summary["new"]["positions"][p] / summary["old"]["positions"][p]
                        for p in summary["new"]["positions"]}
    same_signature = summary["new"]["signatures"] == summary["old"]["signatures"] and len(summary["new"]["signatures"]) == 1
    print(f"signature: old {summary['old']['signatures']}, new {summary['new']['signatures']}: "
          f"{'same' if same_signature else 'DIFFERENT'}")
    print(f"median total seconds: old {summary['old']['median_seconds']:.3f}, new {summary['new']['median_seconds']:.3f}; "
          f"new/old {ratio:.3f} ({(ratio - 1) * 100:+.1f}% time{', median of paired rounds' if cores else ''})")
    for p, r in per_position.items():
        print(f"  {p:10s} new/old {r:.3f}")

    output = args.output or os.path.join(
        ROOT, "results", f"bench-vs-baseline-{datetime.date.today().isoformat()}.json")
    record = {"commit": commit(), "machine": machine(), "rounds": args.rounds, "repeats": args.repeats,
              "cpu": args.paired or args.cpu, "paired": bool(cores), "threads": args.threads, "same_signature": same_signature, "new_over_old_seconds": ratio,
              "new_over_old_seconds_per_position": per_position, "summary": summary, "runs": runs}
    with open(output, "w") as f:
        json.dump(record, f, indent=1)
    print(f"wrote {output}")
    return 0 if same_signature else 1


if __name__ == "__main__":
    sys.exit(main())
