#!/usr/bin/env python3
"""Single-core perft speed of perftkit against the public peer generators, side by side in one
run: the six standard positions at depths of about 1e9 nodes or more, bulk counting, no hash
table (perftkit: --threads 1 --hash 0 --no-merge), every program pinned to one core, the runs
interleaved (program by program within a position, position by position within a round).

The peers are built here from source directories the user passes (nothing is downloaded),
with every compiler available: ellxor/perft (src/unity_build.cc; clang++ and g++, -O3 -flto
-fno-exceptions -fno-rtti -march=native, as its README says) and abulmo/MPerft (mperft.c;
clang and gcc, -O3 -flto -march=native, run with --bulk; a <stdbit.h> shim where the C library
lacks one). Each count is checked against the
published one. The table (median Mn/s per program and position, and perftkit's ratio to each)
goes to results/cpu-peers-<date>.json and .md with the machine and the commit.

The plot (perftkit's nodes/s over the fastest peer's, per position, with the 1.10 target; with
gnuplot when installed) goes beside them as .svg.

`--also NAME=BINARY[@LEVEL]` adds other perftkit builds to the same rounds (a native build beside
the portable one; LEVEL sets PERFTKIT_CPU_KERNEL, to time one level of the CPU kernels). Their
names start with "perftkit-" and they are not peers: the fastest peer is never one of them.

Usage: bench/cpu_peers.py --ellxor DIR --mperft DIR [--perftkit build/release/perftkit]
       [--also perftkit-native=DIR/perftkit] [--also perftkit-v2=build/release/perftkit@x86-64-v2]
       [--runs 3] [--cpu 0] [--positions start,kiwipete,...]
       bench/cpu_peers.py --plot results/cpu-peers-<date>.json   # the SVG again
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench_common import ROOT, commit, machine

# (name, FEN, depth, published nodes): Chess Programming Wiki, perft results.
POSITIONS = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 7, 3195901860),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6, 8031647685),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 8, 3009794393),
    ("position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6, 706045033),
    ("position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 6, 3048196529),
    ("position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 6, 6923051137),
]


def compilers(kind):
    """The compilers of a kind ('c++' or 'c') on this machine, newest clang first, then gcc."""
    found = []
    clang = "clang++" if kind == "c++" else "clang"
    for version in range(19, 13, -1):
        path = shutil.which(f"{clang}-{version}")
        if path:
            found.append((f"clang{version}", path))
            break
    if not found and shutil.which(clang):
        found.append(("clang", shutil.which(clang)))
    gcc = shutil.which("g++" if kind == "c++" else "gcc")
    if gcc:
        found.append(("gcc", gcc))
    return found


# C23's <stdbit.h>, which MPerft includes, is missing from older C libraries (Debian 12's glibc
# 2.36): the four functions it uses, written here on the compiler's builtins, and C23's alignas
# keyword, which older compilers know from <stdalign.h>.
STDBIT_SHIM = """#pragma once
#include <stdalign.h>
#include <stdbool.h>
static inline unsigned int stdc_count_ones_ull(unsigned long long x) { return __builtin_popcountll(x); }
static inline unsigned int stdc_trailing_zeros_ull(unsigned long long x) { return x ? __builtin_ctzll(x) : 64; }
static inline bool stdc_has_single_bit_ull(unsigned long long x) { return x && !(x & (x - 1)); }
static inline unsigned long long stdc_bit_floor_ull(unsigned long long x) { return x ? 1ull << (63 - __builtin_clzll(x)) : 0; }
"""


def stdbit_flags(cc, work):
    """[] when cc finds <stdbit.h>, else the -I of a folder with the shim."""
    probe = subprocess.run([cc, "-std=c2x", "-x", "c", "-fsyntax-only", "-"], input="#include <stdbit.h>\n",
                           capture_output=True, text=True)
    if probe.returncode == 0:
        return []
    shim = os.path.join(work, "stdbit-shim")
    os.makedirs(shim, exist_ok=True)
    with open(os.path.join(shim, "stdbit.h"), "w") as out:
        out.write(STDBIT_SHIM)
    return ["-I", shim]


def build_peers(args, work):
    """(label, command builder) for every peer build that compiles here."""
    peers = []
    if args.ellxor:
        for label, cxx in compilers("c++"):
            exe = os.path.join(work, f"ellxor-{label}")
            flags = ["-std=c++20", "-O3", "-flto", "-fno-exceptions", "-fno-rtti", "-march=native"]
            build = subprocess.run([cxx, *flags, os.path.join(args.ellxor, "src", "unity_build.cc"), "-o", exe],
                                   capture_output=True, text=True)
            if build.returncode != 0:
                print(f"ellxor/perft with {label}: build failed:\n{build.stderr[-2000:]}", file=sys.stderr)
                continue
            peers.append((f"ellxor-{label}", lambda fen, depth, exe=exe: [exe, fen, str(depth)], r"Result:\s+(\d+)"))
    if args.mperft:
        for label, cc in compilers("c"):
            exe = os.path.join(work, f"mperft-{label}")
            flags = ["-std=c2x", "-O3", "-flto", "-DNDEBUG", "-D_GNU_SOURCE=1", "-march=native", *stdbit_flags(cc, work)]
            build = subprocess.run([cc, *flags, os.path.join(args.mperft, "mperft.c"), "-o", exe, "-lm"],
                                   capture_output=True, text=True)
            if build.returncode != 0:
                print(f"MPerft with {label}: build failed:\n{build.stderr[-2000:]}", file=sys.stderr)
                continue
            peers.append((f"mperft-{label}", lambda fen, depth, exe=exe: [exe, "--fen", fen, "--depth", str(depth), "--bulk"],
                          r"perft\s+\d+\s*:\s*(\d+)"))
    return peers


def timed_run(command, cpu, pattern):
    """(seconds of wall time, the node count the program printed), pinned to one core."""
    start = time.perf_counter()
    done = subprocess.run(["taskset", "-c", str(cpu), *command], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{command[0]} failed ({done.returncode}): {done.stderr[-500:]}")
    match = re.search(pattern, done.stdout + done.stderr)
    if not match:
        raise RuntimeError(f"{command[0]}: no node count in its output:\n{done.stdout[-500:]}")
    return seconds, int(match.group(1))


def plot(json_path):
    """<json>.svg: perftkit / fastest peer per position, titled with the machine and commit.
    Needs gnuplot (Debian: gnuplot-nox); skipped with a message without it."""
    if not shutil.which("gnuplot"):
        print("no gnuplot: plot skipped")
        return
    with open(json_path) as f:
        report = json.load(f)
    rows = []
    for name, row in report["table"].items():
        peers = [v for k, v in row["mnps"].items() if not k.startswith("perftkit")]
        if peers:
            rows.append((f"{name} d{row['depth']}", row["mnps"]["perftkit"] / max(peers)))
    svg = os.path.splitext(json_path)[0] + ".svg"
    data = "".join(f'"{name}" {value:.3f}\n' for name, value in rows)
    title = (f"single-core perft, perftkit / fastest peer (target 1.10): {report['machine']['cpu']}, "
             f"commit {report['commit']['commit'][:7]}, median of {report['runs']}")
    script = (f'set terminal svg size 900,420 dynamic\nset output "{svg}"\nset title "{title}" noenhanced\n'
              'set ylabel "nodes/s ratio"\nset style fill solid 0.6\nset boxwidth 0.6\nset yrange [0:*]\n'
              'set xtics noenhanced\nunset key\n'
              "plot '-' using 0:2:xtic(1) with boxes, '' using 0:2:(sprintf(\"%.2f\", $2)) with labels offset 0,1, "
              "1.10 with lines dashtype 2\n"
              f"{data}e\n{data}e\n")
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    print(f"written: {os.path.relpath(svg, ROOT)}")


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--plot":
        plot(sys.argv[2])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ellxor", help="source directory of ellxor/perft")
    parser.add_argument("--mperft", help="source directory of abulmo/MPerft")
    parser.add_argument("--perftkit", default=os.path.join(ROOT, "build", "release", "perftkit"))
    parser.add_argument("--also", action="append", default=[], metavar="NAME=BINARY[@LEVEL]",
                        help="another perftkit build (or kernel level) in the same rounds")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cpu", type=int, default=0)
    parser.add_argument("--positions", default=",".join(p[0] for p in POSITIONS))
    args = parser.parse_args()
    chosen = [p for p in POSITIONS if p[0] in args.positions.split(",")]

    with tempfile.TemporaryDirectory(prefix="cpu-peers-") as work:
        programs = [("perftkit", lambda fen, depth: [args.perftkit, "perft", "--fen", fen, "--depth", str(depth),
                                                     "--threads", "1", "--hash", "0", "--no-merge"],
                     r"Nodes searched:\s*(\d+)")]
        for also in args.also:
            name, _, binary = also.partition("=")
            binary, _, level = binary.partition("@")
            if not name.startswith("perftkit-") or not binary:
                raise SystemExit(f"--also {also}: expected perftkit-NAME=BINARY[@LEVEL]")
            prefix = ["env", f"PERFTKIT_CPU_KERNEL={level}"] if level else []
            programs.append((name, lambda fen, depth, exe=binary, prefix=prefix: [
                *prefix, exe, "perft", "--fen", fen, "--depth", str(depth), "--threads", "1", "--hash", "0",
                "--no-merge"], r"Nodes searched:\s*(\d+)"))
        programs += build_peers(args, work)
        seconds = {(name, pos[0]): [] for name, _, _ in programs for pos in chosen}
        for round_number in range(args.runs):
            for name_of_position, fen, depth, nodes in chosen:
                for name, command, pattern in programs:
                    took, counted = timed_run(command(fen, depth), args.cpu, pattern)
                    if counted != nodes:
                        raise SystemExit(f"{name} counts {counted} for {name_of_position} depth {depth}, not {nodes}")
                    seconds[(name, name_of_position)].append(took)
                    print(f"round {round_number + 1} {name_of_position:9s} {name:14s} {took:7.3f} s "
                          f"{nodes / took / 1e6:7.0f} Mn/s", flush=True)

    table = {}
    for name_of_position, _, depth, nodes in chosen:
        row = {name: nodes / statistics.median(seconds[(name, name_of_position)]) / 1e6 for name, _, _ in programs}
        table[name_of_position] = {"depth": depth, "nodes": nodes, "mnps": row,
                                   "perftkit_ratio": {name: row["perftkit"] / mnps for name, mnps in row.items()
                                                      if name != "perftkit"}}
    report = {"commit": commit(), "machine": machine(), "runs": args.runs, "cpu": args.cpu, "table": table,
              "seconds": {f"{k[0]}/{k[1]}": v for k, v in seconds.items()}}
    stem = os.path.join(ROOT, "results", f"cpu-peers-{time.strftime('%Y-%m-%d')}")
    with open(stem + ".json", "w") as out:
        json.dump(report, out, indent=2)
    names = [name for name, _, _ in programs]
    lines = [f"# Single-core perft, Mn/s (median of {args.runs}, pinned to CPU {args.cpu}, bulk counting, no hash)",
             "", f"Commit {report['commit']['commit'][:7]}, {report['machine']['cpu']}.", "",
             "| position | depth | " + " | ".join(names) + " | perftkit / fastest peer |",
             "|---|---|" + "---|" * (len(names) + 1)]
    for name_of_position, row in table.items():
        fastest = max((v for k, v in row["mnps"].items() if not k.startswith("perftkit")), default=None)
        ratio = f"{row['mnps']['perftkit'] / fastest:.2f}" if fastest else "-"
        lines.append(f"| {name_of_position} | {row['depth']} | " +
                     " | ".join(f"{row['mnps'][n]:.0f}" for n in names) + f" | {ratio} |")
    with open(stem + ".md", "w") as out:
        out.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"written to {os.path.relpath(stem, ROOT)}.json and .md")
    plot(stem + ".json")


if __name__ == "__main__":
    main()
