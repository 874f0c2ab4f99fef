#!/usr/bin/env python3
"""End-to-end classification speed: `perftkit classify` side by side with python-chess.

Both read the same FEN file (the 30K lichess positions of ../shared/data, repeated to the
size asked for), parse and validate every position, classify it (legal moves, check,
checkers, mate, stalemate, insufficient material per side, dead position, 50/75-move
clocks, outcome) and write a CSV row. perftkit runs on the whole input on every core;
python-chess, one process (one core), on its first --python-rows rows (at ~1e4 rows/s the
whole file would take minutes). The script checks that both give the same answers on the
rows they share, measures peak memory (max RSS) of perftkit on a 1M- and a 4M-row input to
show that it stays flat, and writes everything, with the machine and the commit, to
results/classify_vs_python_chess_<host>.json.

python-chess is installed from PyPI into a virtual environment (--venv) on first use.

Usage: bench/classify_vs_python_chess.py [--perftkit build/release/perftkit] [--rows 3000000]
       [--python-rows 100000] [--runs 5] [--threads N] [--venv /tmp/pc-venv] [--work /tmp/...]
"""
import argparse
import csv
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time

from bench_common import ROOT, commit, machine
LICHESS = os.path.join(ROOT, "..", "shared", "data", "positions", "lichess-30K-games.txt")
PYTHON_CHESS = "chess==1.11.2"
COMPARED = ["valid", "legal_moves", "in_check", "checkers", "checkmate", "stalemate", "insufficient_white",
            "insufficient_black", "dead_by_material", "fifty_move", "seventyfive_move", "outcome", "winner"]


# --- the python-chess side (runs inside the virtual environment) ---

def python_chess_worker(src, dst, rows):
    """Classifies the first `rows` lines of src with python-chess, writing CSV rows to dst."""
    import chess
    termination_names = {
        chess.Termination.CHECKMATE: "checkmate",
        chess.Termination.INSUFFICIENT_MATERIAL: "insufficient_material",
        chess.Termination.STALEMATE: "stalemate",
        chess.Termination.SEVENTYFIVE_MOVES: "seventyfive_moves",
    }
    start = time.perf_counter()
    done = 0
    with open(src) as lines, open(dst, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["source", "fen", "id"] + COMPARED)
        for number, line in enumerate(lines, 1):
            if done == rows:
                break
            fields = line.split()
            fen, game_id = " ".join(fields[:6]), " ".join(fields[6:])
            done += 1
            try:
                board = chess.Board(fen)
                valid = board.is_valid()
            except ValueError:
                valid = False
            if not valid:
                writer.writerow([f"{src}:{number}", fen, game_id, 0] + [""] * (len(COMPARED) - 1))
                continue
            legal = board.legal_moves.count()
            check = board.is_check()
            mate = board.is_checkmate()
            outcome = board.outcome()
            termination = termination_names.get(outcome.termination, "") if outcome else ""
            if not termination and board.halfmove_clock >= 100:
                termination = "fifty_moves"
            winner = "" if not termination else {True: "white", False: "black", None: "draw"}[
                outcome.winner if outcome else None]
            writer.writerow([
                f"{src}:{number}", fen, game_id, 1, legal, int(check), len(board.checkers()), int(mate),
                int(board.is_stalemate()), int(board.has_insufficient_material(chess.WHITE)),
                int(board.has_insufficient_material(chess.BLACK)), int(board.is_insufficient_material()),
                int(board.halfmove_clock >= 100 and not mate), int(board.halfmove_clock >= 150 and not mate),
                termination, winner])
    print(json.dumps({"rows": done, "seconds": time.perf_counter() - start}))


# --- the driver ---

def run_measured(cmd, **kwargs):
    """Runs cmd; returns (wall seconds, user+sys CPU seconds, max RSS in MiB, stdout)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, **kwargs)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, out.decode()


def make_input(path, rows):
    """The lichess positions repeated (the last copy cut short) to exactly `rows` lines."""
    if os.path.exists(path) and sum(1 for _ in open(path, "rb")) == rows:
        return
    with open(LICHESS) as f:
        lines = f.readlines()
    with open(path, "w") as out:
        left = rows
        while left > 0:
            chunk = lines[:left]
            out.writelines(chunk)
            left -= len(chunk)


def ensure_venv(venv):
    python = os.path.join(venv, "bin", "python")
    check = [python, "-c", "import chess, sys; sys.exit(chess.__version__ != '1.11.2')"]
    if os.path.exists(python) and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", PYTHON_CHESS], check=True)
    return python


def available_cores(seconds=1.0):
    """Cores' worth of CPU this process tree gets now: one busy process per core, CPU time over
    wall time (other work on a shared machine shows up as a figure below the core count)."""
    spin = f"import time\nend = time.time() + {seconds}\nwhile time.time() < end: pass"
    start = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(os.cpu_count() or 1)]
    cpu = 0.0
    for p in procs:
        _, _, usage = os.wait4(p.pid, 0)
        cpu += usage.ru_utime + usage.ru_stime
    return cpu / (time.perf_counter() - start)


def compare(perftkit_csv, python_csv, rows):
    """Rows (of the first `rows`) where the two disagree on any compared column."""
    mismatches = []
    with open(perftkit_csv) as a, open(python_csv) as b:
        for i, (x, y) in enumerate(zip(csv.DictReader(a), csv.DictReader(b))):
            if i == rows:
                break
            differing = [c for c in COMPARED if x[c] != y[c]]
            if differing:
                mismatches.append({"row": i + 1, "columns": differing, "fen": x["fen"]})
    return mismatches


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--perftkit", default=os.path.join(ROOT, "build", "release", "perftkit"))
    ap.add_argument("--rows", type=int, default=3_000_000)
    ap.add_argument("--python-rows", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--python-runs", type=int, default=1)
    ap.add_argument("--threads", type=int, default=0, help="perftkit worker threads (default: all cores)")
    ap.add_argument("--venv", default="/tmp/pc-venv")
    ap.add_argument("--work", default="/tmp/perftkit-classify-bench")
    ap.add_argument("--results", default=os.path.join(ROOT, "results"))
    ap.add_argument("--no-memory", action="store_true", help="skip the 1M/4M-row peak memory runs")
    ap.add_argument("--python-chess-worker", nargs=3, metavar=("SRC", "DST", "ROWS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.python_chess_worker:
        src, dst, rows = args.python_chess_worker
        return python_chess_worker(src, dst, int(rows))

    if not os.path.exists(LICHESS):
        sys.exit(f"reference data not found: {LICHESS}")
    if not os.access(args.perftkit, os.X_OK):
        sys.exit(f"perftkit binary not found: {args.perftkit} (build it: cmake --workflow --preset release)")
    os.makedirs(args.work, exist_ok=True)
    python = ensure_venv(args.venv)
    big = os.path.join(args.work, f"lichess_{args.rows}.txt")
    make_input(big, args.rows)
    rows_csv, summary_json = os.path.join(args.work, "perftkit.csv"), os.path.join(args.work, "summary.json")
    threads = args.threads or os.cpu_count()
    cmd = [args.perftkit, "classify", big, "-o", rows_csv, "--summary-json", summary_json, "-t", str(threads)]

    cores_before = available_cores()
    print(f"input: {big} ({args.rows} rows, {os.path.getsize(big) / 1e6:.1f} MB); perftkit threads: {threads}; "
          f"CPU available: {cores_before:.2f} of {os.cpu_count()} cores")
    perftkit_runs = []
    for i in range(args.runs):
        wall, cpu, rss, _ = run_measured(cmd)
        perftkit_runs.append({"seconds": wall, "cpu_seconds": cpu, "max_rss_mib": rss, "rows_per_second": args.rows / wall})
        print(f"  perftkit run {i + 1}: {wall:.3f} s, {args.rows / wall:.4g} rows/s, cpu {cpu:.2f} s, rss {rss:.1f} MiB")
    summary = json.load(open(summary_json))

    python_csv = os.path.join(args.work, "python_chess.csv")
    python_runs = []
    for i in range(args.python_runs):
        wall, cpu, rss, out = run_measured([python, os.path.abspath(__file__), "--python-chess-worker", big, python_csv,
                                            str(args.python_rows)])
        inner = json.loads(out.strip().splitlines()[-1])
        python_runs.append({"seconds": wall, "cpu_seconds": cpu, "max_rss_mib": rss, "rows": inner["rows"],
                            "rows_per_second": inner["rows"] / wall})
        print(f"  python-chess run {i + 1}: {inner['rows']} rows in {wall:.2f} s, {inner['rows'] / wall:.4g} rows/s")
    mismatches = compare(rows_csv, python_csv, args.python_rows)
    print(f"  agreement on the first {args.python_rows} rows: {len(mismatches)} mismatching rows")

    memory = {}
    if not args.no_memory:
        for rows in (1_000_000, 4_000_000):
            path = os.path.join(args.work, f"lichess_{rows}.txt")
            make_input(path, rows)
            wall, _, rss, _ = run_measured([args.perftkit, "classify", path, "-o", "/dev/null", "-t", str(threads)])
            memory[str(rows)] = {"max_rss_mib": rss, "seconds": wall}
            print(f"  perftkit on {rows} rows: max RSS {rss:.1f} MiB ({wall:.2f} s)")

    cores_after = available_cores()
    perftkit_rate = statistics.median(r["rows_per_second"] for r in perftkit_runs)
    python_rate = statistics.median(r["rows_per_second"] for r in python_runs)
    cpu_rate = args.rows / statistics.median(r["cpu_seconds"] for r in perftkit_runs)
    python_cpu_rate = statistics.median(r["rows"] / r["cpu_seconds"] for r in python_runs)
    result = {
        "benchmark": "classify_vs_python_chess",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {**machine(), "cores_available_before": cores_before, "cores_available_after": cores_after},
        **commit(),
        "perftkit_version": subprocess.run([args.perftkit, "--version"], capture_output=True, text=True).stdout.strip(),
        "python_chess": PYTHON_CHESS,
        "input": {"rows": args.rows, "bytes": os.path.getsize(big), "source": "lichess-30K-games.txt, repeated"},
        "perftkit": {"threads": threads, "runs": perftkit_runs, "median_rows_per_second": perftkit_rate,
                     "best_rows_per_second": max(r["rows_per_second"] for r in perftkit_runs),
                     "rows_per_cpu_second": cpu_rate},
        "python_chess_runs": {"rows": args.python_rows, "runs": python_runs, "median_rows_per_second": python_rate,
                              "rows_per_cpu_second": python_cpu_rate},
        # Wall-clock rates (perftkit on every core, python-chess on one), per core, and per CPU
        # second (what the rates would be without other work on the machine, core for core).
        "ratio": perftkit_rate / python_rate,
        "ratio_per_core": perftkit_rate / threads / python_rate,
        "ratio_cpu_time": cpu_rate / python_cpu_rate,
        "agreement": {"rows_compared": args.python_rows, "mismatching_rows": len(mismatches),
                      "first_mismatches": mismatches[:10]},
        "memory": memory,
        # A determinism signature: the counts behind the speed, so that a change in speed
        # cannot hide a change in the answers.
        "signature": {k: summary[k] for k in ("rows", "valid", "in_check", "checkmate", "stalemate",
                                              "insufficient_side_to_move", "insufficient_side_not_to_move")},
    }
    os.makedirs(args.results, exist_ok=True)
    out_path = os.path.join(args.results, f"classify_vs_python_chess_{platform.node() or 'host'}.json")
    with open(out_path, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print(f"perftkit {perftkit_rate:.4g} rows/s (median of {args.runs}; {cpu_rate:.4g} rows per CPU second), "
          f"python-chess {python_rate:.4g} rows/s (one core; {python_cpu_rate:.4g} per CPU second): "
          f"{result['ratio']:.0f}x, {result['ratio_per_core']:.0f}x per core, "
          f"{result['ratio_cpu_time']:.0f}x per CPU second; CPU available {cores_before:.2f} / {cores_after:.2f} cores")
    print(f"results: {out_path}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
