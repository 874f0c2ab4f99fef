#!/usr/bin/env python3
"""Per-unit build times from a Ninja build folder's .ninja_log, slowest first.

usage: python3 bench/ninja_unit_times.py build/release [--top N] [--markdown]

Each line of .ninja_log (v5) gives start and end in milliseconds since the build began, so the
table shows what each translation unit cost and when it ran: a unit that ends long after
the others is the one a 2-core build waits for. A file rebuilt several times (an incremental
build after a full one) is listed by its last run.
"""
import argparse
import os
import sys


def read_log(build_dir):
    path = os.path.join(build_dir, ".ninja_log")
    with open(path) as f:
        header = f.readline()
        if not header.startswith("# ninja log v"):
            sys.exit(f"{path}: not a ninja log")
        runs = {}
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 4:
                continue
            start, end, _, output = int(fields[0]), int(fields[1]), fields[2], fields[3]
            runs[output] = (start, end)
    return runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("--top", type=int, default=0, help="only the N slowest units")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args()
    runs = read_log(args.build_dir)
    if not runs:
        sys.exit("no build steps in the log")
    rows = sorted(runs.items(), key=lambda kv: kv[1][0] - kv[1][1])
    if args.top:
        rows = rows[: args.top]
    wall = max(end for _, end in runs.values()) - min(start for start, _ in runs.values())
    total = sum(end - start for start, end in runs.values())
    if args.markdown:
        print("| unit | seconds | started at (s) |")
        print("|---|---|---|")
        for output, (start, end) in rows:
            print(f"| `{output}` | {(end - start) / 1000:.1f} | {start / 1000:.1f} |")
    else:
        for output, (start, end) in rows:
            print(f"{(end - start) / 1000:8.1f} s  from {start / 1000:7.1f} s  {output}")
    print(f"\n{len(runs)} steps, {total / 1000:.0f} CPU-seconds, {wall / 1000:.0f} s from first start to last end")


if __name__ == "__main__":
    main()
