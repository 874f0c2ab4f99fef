#!/usr/bin/env python3
"""Plots nodes/s per position and backend from `perftkit bench --json` files with gnuplot.

    bench/plot_results.py results/bench-cpu-2025-11-30.json [more.json ...] [-o results/bench.svg]

`bench/hashed_perft.py` files plot too: time-to-result nodes/s (nodes over the median
seconds) per depth, for the measured build and its --baseline; so do `bench/pipeline_vs_core.py`
files, per depth and road; and `bench/stats_table.py` files, per position and depth.

Each JSON file contributes its backends (a backend named twice keeps the later file's
numbers). The title names the machine, the commit and the date of the first file. Needs
python3 (standard library only) and gnuplot (Debian: apt-get install gnuplot-nox); the
output is SVG, or PNG when the name ends in .png.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile


def load(paths):
    runs = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            runs.append(json.load(f))
    return runs


def rows_of(run):
    """(position, backend, nodes/s) of a bench file, of a hashed_perft file (per depth:
    this build and its baseline, time to result), or of a pipeline_vs_core file (per depth:
    each road, nodes over the median wall seconds)."""
    if run.get("script") == "bench/stats_table.py":  # (with --work-dir, the work dir's runs beside)
        rows = []
        for row in run["rows"]:
            nodes = int(row["runs"][0]["stats"]["nodes"])
            rows.append((row["case"], "--stats, statistics table", nodes / row["median_wall_seconds"]))
            if "median_work_dir_wall_seconds" in row:
                rows.append((row["case"], "--stats --work-dir", nodes / row["median_work_dir_wall_seconds"]))
        return rows
    if run.get("script") == "bench/pipeline_vs_core.py":
        suffix = " no table" if run.get("hash_mb") == 0 else ""
        return [("perft %s%s" % (depth, suffix), road, entry["runs"][0]["nodes"] / entry["medians"]["wall"])
                for depth, roads in run["depths"].items() for road, entry in roads.items()]
    if run.get("benchmark") != "hashed_perft":
        return [(row["position"], row["backend"], row["nodes_per_second"]) for row in run["results"]]
    label = "commit %s" % run.get("commit", "unknown")[:7]
    rows = []
    for row in run["results"]:
        position = "perft %d" % row["depth"]
        rows.append((position, label, row["expected"] / row["median_seconds"]))
        if "baseline" in row:
            rows.append((position, "baseline", row["expected"] / row["baseline"]["median_seconds"]))
    return rows


def table(runs):
    """Positions in workload order, backends in file order, nodes/s per (position, backend)."""
    positions, backends, nps = [], [], {}
    for run in runs:
        for position, backend, value in rows_of(run):
            if position not in positions:
                positions.append(position)
            if backend not in backends:
                backends.append(backend)
            nps[(position, backend)] = value
    return positions, backends, nps


def title(runs):
    first = runs[0]
    machine = first.get("machine", {})
    parts = [machine.get("cpu", "unknown CPU")]
    parts += [gpu["name"] for gpu in machine.get("gpus", [])]
    commit = first.get("commit", "unknown")
    commit = commit.get("commit", "unknown") if isinstance(commit, dict) else commit
    when = "commit %s, %s" % (commit[:7], first.get("date", "")[:10])
    if first.get("script") == "bench/stats_table.py":
        return "perft --stats with the default statistics table, time to result: %s; %s" % (", ".join(parts), when)
    if first.get("script") == "bench/pipeline_vs_core.py":
        return "the pipeline on OpenMP against the CPU core at x86-64-v2, time to result: %s; %s" % (
            ", ".join(parts), when)
    if first.get("benchmark") == "hashed_perft":
        return "hashed perft, time to result (default table, merging on): %s; %s" % (", ".join(parts), when)
    offset = first.get("depth_offset", 0)
    return "perftkit bench (merging off, depth offset %s): %s; %s" % (offset, ", ".join(parts), when)


def gnuplot_script(data_path, out_path, backends, positions, nps, heading):
    values = [v for v in nps.values() if v > 0]
    log_scale = bool(values) and max(values) / min(values) > 20
    terminal = "pngcairo size 1100,560" if out_path.endswith(".png") else "svg size 1100,560 dynamic"
    lines = [
        "set terminal %s font 'sans,11'" % terminal,
        "set output '%s'" % out_path.replace("'", "''"),
        "set title '%s' noenhanced" % heading.replace("'", "''"),
        "set ylabel 'nodes per second (median)'",
        "set style data histograms",
        "set style histogram clustered gap 1",
        "set style fill solid 0.85 border -1",
        "set boxwidth 0.9",
        "set grid ytics",
        "set key top left noenhanced",
        "set xtics noenhanced",
        "set yrange [%s:*]" % ("*" if log_scale else "0"),
        "set format y '%.1e'",
    ]
    if log_scale:
        lines.append("set logscale y")
    lines.append("plot " + ", ".join(
        "'%s' using %d:xtic(1) title columnheader(%d)" % (data_path, i + 2, i + 2) for i in range(len(backends))))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="+", help="perftkit bench --json output")
    parser.add_argument("-o", "--output", help="SVG or PNG to write (default: the first JSON with .svg)")
    args = parser.parse_args()
    if not shutil.which("gnuplot"):
        sys.exit("plot_results: gnuplot not found (apt-get install gnuplot-nox)")
    runs = load(args.json)
    positions, backends, nps = table(runs)
    if not positions:
        sys.exit("plot_results: no results in " + ", ".join(args.json))
    out_path = args.output or os.path.splitext(args.json[0])[0] + ".svg"
    with tempfile.TemporaryDirectory() as tmp:
        data_path = os.path.join(tmp, "nps.dat")
        with open(data_path, "w", encoding="utf-8") as f:
            f.write("position " + " ".join('"%s"' % b for b in backends) + "\n")
            for p in positions:
                f.write('"%s" ' % p + " ".join("%g" % nps.get((p, b), 0) for b in backends) + "\n")
        script = gnuplot_script(data_path, out_path, backends, positions, nps, title(runs))
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    print("plot_results: wrote " + out_path)


if __name__ == "__main__":
    main()
