#!/usr/bin/env python3
"""Classifying a compressed game database, end to end: `perftkit classify games.pgn.zst`
with every position written as a row and the game columns on, side by side with
`zstdcat | perftkit classify -`, the plain file, pgn-extract (Debian's, the fast C peer,
replaying the same games) and python-chess (on a slice of the games, scaled per core).
`zstd -dc` alone is timed too: the part of the work that is decompression before any PGN is
read. Each case gives its median wall time and its median CPU time (user + system), the
steadier figure on a shared machine.

The corpus is generated here, with no download: random games played with python-chess,
weighted towards captures, checks and promotions, 60-120 plies or to mate, stalemate or a
draw by rule, with lichess-style tags, [%clk] and [%eval] comments, a few remarks, NAGs and
one-move variations. --unique games are generated, then repeated with fresh tags until the
file holds --megabytes of PGN; then `zstd -19`. Peak memory (max RSS) is measured on 100 MB
and on 1 GB of input to show it stays flat. Results, with the machine and the commit, go
to results/classify-stream-<host>.json.

The cases run in turn, round after round (--runs rounds), so that the shared machine's slow
spells fall on all of them; --baseline BIN adds another build on games.pgn.zst to the rounds,
the side-by-side figure for a change.

Usage: bench/classify_stream.py [--perftkit build/release/perftkit] [--megabytes 300]
       [--unique 6000] [--python-games 300] [--runs 3] [--venv /tmp/pc-venv] [--work /tmp/pk-stream]
       [--baseline OTHER_PERFTKIT]
       bench/classify_stream.py --plot results/classify-stream-<host>.json   # the SVG again
The plot (MB/s of PGN per reader, with gnuplot when installed) goes beside the JSON.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time

from bench_common import ROOT, commit, machine
from classify_vs_python_chess import ensure_venv, run_measured

PGN_EXTRACT = shutil.which("pgn-extract") or "/usr/games/pgn-extract"  # Debian installs it in /usr/games
COLUMNS = ["--columns", "game,ply,move,clock,eval", "--tags", "White,Black,WhiteElo,BlackElo,Result,TimeControl"]


# --- the python-chess side (runs inside the virtual environment) ---

def generate_worker(dst, games, seed):
    """Writes `games` random games (movetext only, one per paragraph) to dst."""
    import chess
    rng = random.Random(seed)
    with open(dst, "w") as out:
        for _ in range(games):
            board = chess.Board()
            plies = rng.randint(60, 120)
            parts, clock = [], [180.0, 180.0]
            while board.ply() < plies and not board.is_game_over(claim_draw=False):
                moves = list(board.legal_moves)
                candidates = rng.sample(moves, min(6, len(moves)))
                candidates += [m for m in moves if board.is_capture(m) or m.promotion]
                weights = [1 + 3 * board.is_capture(m) + 8 * bool(m.promotion) + 3 * board.gives_check(m)
                           for m in candidates]
                move = rng.choices(candidates, weights)[0]
                number = board.fullmove_number
                white = board.turn == chess.WHITE
                san = board.san(move)
                board.push(move)
                side = 0 if white else 1
                clock[side] = max(0.0, clock[side] - rng.uniform(0.5, 6.0))
                c = int(clock[side])
                text = f"{number}. {san}" if white else f"{number}... {san}"
                if rng.random() < 0.05:
                    text += rng.choice([" ?!", " $1", " $2", " !?"])
                ev = f"#{rng.choice([-1, 1]) * rng.randint(1, 9)}" if rng.random() < 0.02 else f"{rng.gauss(0, 1.5):.2f}"
                text += f" {{ [%eval {ev}] [%clk {c // 3600}:{c // 60 % 60:02d}:{c % 60:02d}] }}"
                if rng.random() < 0.02:
                    text += " { a remark on this move }"
                parts.append(text)
            outcome = board.outcome(claim_draw=False)
            result = outcome.result() if outcome else rng.choice(["1-0", "0-1", "1/2-1/2"])
            termination = "Normal" if outcome else rng.choice(["Time forfeit", "Normal"])
            out.write(f"{termination}|{result}|{' '.join(parts)} {result}\n")


def python_chess_worker(src, games):
    """Reads the first `games` games of src, classifying every position as perftkit does
    (legal moves, check, checkers, mate, stalemate, insufficient material, clocks, outcome)
    and reading the same columns; prints positions and seconds."""
    import chess
    import chess.pgn
    start = time.perf_counter()
    positions = 0
    with open(src) as f:
        for _ in range(games):
            game = chess.pgn.read_game(f)
            if game is None:
                break
            tags = [game.headers.get(t, "") for t in ("White", "Black", "WhiteElo", "BlackElo", "Result", "TimeControl")]
            board = game.board()
            node = game
            while True:
                legal = board.legal_moves.count()
                facts = (legal, board.is_check(), len(board.checkers()), board.is_checkmate(), board.is_stalemate(),
                         board.has_insufficient_material(chess.WHITE), board.has_insufficient_material(chess.BLACK),
                         board.halfmove_clock >= 100, board.outcome(), tags)
                positions += 1
                if not node.variations:
                    break
                node = node.variations[0]
                _ = (node.move.uci(), node.san(), node.clock(), node.eval())
                board.push(node.move)
            del facts
    print(json.dumps({"positions": positions, "seconds": time.perf_counter() - start}))


# --- the driver ---

def make_corpus(work, python, unique, megabytes):
    """games.pgn of about `megabytes` MB: the unique games repeated with fresh tags."""
    pgn = os.path.join(work, "games.pgn")
    if os.path.exists(pgn) and os.path.getsize(pgn) >= megabytes * 1e6:
        return pgn
    halves = []
    procs = []
    for i in range(2):
        part = os.path.join(work, f"movetext-{i}.txt")
        halves.append(part)
        procs.append(subprocess.Popen([python, __file__, "--generate-worker", part, str(unique // 2), str(i + 1)]))
    for p in procs:
        if p.wait() != 0:
            sys.exit("corpus generation failed")
    games = []
    for part in halves:
        with open(part) as f:
            games += [line.rstrip("\n").split("|", 2) for line in f]
    rng = random.Random(7)
    written, index = 0, 0
    with open(pgn, "w") as out:
        while written < megabytes * 1e6:
            termination, result, movetext = games[index % len(games)]
            index += 1
            w, b = rng.randint(800, 2800), rng.randint(800, 2800)
            site = "".join(rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(8))
            tags = (f'[Event "Rated Blitz game"]\n[Site "https://lichess.org/{site}"]\n[Date "2024.01.{1 + index % 28:02d}"]\n'
                    f'[Round "-"]\n[White "player{rng.randint(1, 99999)}"]\n[Black "player{rng.randint(1, 99999)}"]\n'
                    f'[Result "{result}"]\n[UTCDate "2024.01.{1 + index % 28:02d}"]\n[UTCTime "12:{index % 60:02d}:00"]\n'
                    f'[WhiteElo "{w}"]\n[BlackElo "{b}"]\n[WhiteRatingDiff "+{rng.randint(1, 9)}"]\n'
                    f'[BlackRatingDiff "-{rng.randint(1, 9)}"]\n[ECO "B{rng.randint(0, 99):02d}"]\n'
                    f'[Opening "Sicilian Defense"]\n[TimeControl "180+0"]\n[Termination "{termination}"]\n\n')
            text = tags + movetext + "\n\n"
            out.write(text)
            written += len(text)
    return pgn


def interleaved_runs(cases, runs):
    """{name: (wall seconds, cpu seconds) per run}: the cases run in turn, round after round,
    so that a slow spell of the shared machine falls on all of them alike."""
    results = {name: [] for name in cases}
    for _ in range(runs):
        for name, cmd in cases.items():
            results[name].append(run_measured(cmd, shell=isinstance(cmd, str), stderr=subprocess.DEVNULL)[:2])
    return results


def medians(results):
    walls, cpus = [r[0] for r in results], [r[1] for r in results]
    return {"wall_seconds": walls, "median_seconds": statistics.median(walls), "cpu_seconds": cpus,
            "median_cpu_seconds": statistics.median(cpus)}


def peak_memory(command):
    """(max RSS of the perftkit process in MiB, wall seconds), measured by /usr/bin/time: the
    rusage of a child forked from this Python process would count Python's own pages."""
    start = time.perf_counter()
    proc = subprocess.run(["bash", "-c", command], capture_output=True, text=True)
    wall = time.perf_counter() - start
    kib = [int(line.split("=")[1]) for line in proc.stderr.splitlines() if line.startswith("maxrss_kib=")]
    if proc.returncode not in (0, 1) or not kib:  # 1: the cut last game of a `head -c` input is rejected
        sys.exit(f"failed ({proc.returncode}): {command}\n{proc.stderr[-2000:]}")
    return kib[0] / 1024.0, wall


def plot(json_path):
    """results/classify-stream-<host>.svg: MB/s of PGN per reader, titled with the machine and
    the commit. Needs gnuplot (Debian: gnuplot-nox); skipped with a message without it."""
    if not shutil.which("gnuplot"):
        print("no gnuplot: plot skipped")
        return
    with open(json_path) as f:
        report = json.load(f)
    baseline = report.get("baseline", {}).get("version", "").rstrip(")").split(" ")[-1][:7]  # its commit
    rows = [(f"baseline {baseline} games.pgn.zst" if name == "baseline games.pgn.zst" else name, run["pgn_mb_per_second"])
            for name, run in report["runs"].items() if isinstance(run, dict)]
    mb = report["corpus"]["pgn_bytes"] / 1e6
    pc = report["python_chess_one_core"]
    rows.append(("python-chess, 1 core", pc["positions_per_second"] * mb / report["rows"]))
    svg = os.path.splitext(json_path)[0] + ".svg"
    data = "".join(f'"{name}" {value:.2f}\n' for name, value in rows)
    title = (f"perftkit classify, {mb:.0f} MB of PGN, game columns on: {report['machine']['cpu']}, "
             f"{report['machine']['cpus']} cores, commit {report['commit']['commit'][:7]}")
    script = (f'set terminal svg size 900,420 dynamic\nset output "{svg}"\nset title "{title}" noenhanced\n'
              'set ylabel "MB/s of PGN"\nset style fill solid 0.6\nset boxwidth 0.6\nset yrange [0:*]\n'
              'set xtics noenhanced\nunset key\n'
              "plot '-' using 0:2:xtic(1) with boxes, '' using 0:2:(sprintf(\"%.1f\", $2)) with labels offset 0,1\n"
              f"{data}e\n{data}e\n")
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    print(f"written: {os.path.relpath(svg, ROOT)}")


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--plot":
        plot(sys.argv[2])
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--generate-worker":
        generate_worker(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--python-worker":
        python_chess_worker(sys.argv[2], int(sys.argv[3]))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--perftkit", default=os.path.join(ROOT, "build", "release", "perftkit"))
    ap.add_argument("--megabytes", type=int, default=300)
    ap.add_argument("--unique", type=int, default=6000)
    ap.add_argument("--python-games", type=int, default=300)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--venv", default="/tmp/pc-venv")
    ap.add_argument("--work", default="/tmp/pk-stream")
    ap.add_argument("--baseline", help="another perftkit binary, timed on games.pgn.zst in the same rounds")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    python = ensure_venv(args.venv)
    perftkit = os.path.abspath(args.perftkit)
    report = {"commit": commit(), "machine": machine(), "columns": COLUMNS}

    start = time.perf_counter()
    pgn = make_corpus(args.work, python, args.unique, args.megabytes)
    report["corpus"] = {"pgn_bytes": os.path.getsize(pgn), "unique_games": args.unique,
                        "seconds_to_generate": time.perf_counter() - start}
    zst = pgn + ".zst"
    if not os.path.exists(zst):
        start = time.perf_counter()
        subprocess.run(["zstd", "-19", "-T0", "-q", "-f", pgn, "-o", zst], check=True)
        report["corpus"]["seconds_to_compress"] = time.perf_counter() - start
    report["corpus"]["zst_bytes"] = os.path.getsize(zst)
    mb = os.path.getsize(pgn) / 1e6

    rows = int(subprocess.run(f"{perftkit} classify --no-header {pgn} | wc -l", shell=True, capture_output=True,
                              text=True).stdout)
    report["rows"] = rows
    cases = {
        "perftkit games.pgn.zst": [perftkit, "classify", zst, *COLUMNS, "-o", "/dev/null"],
        "zstdcat | perftkit -": f"zstdcat {zst} | {perftkit} classify --input pgn - {' '.join(COLUMNS)} -o /dev/null",
        "perftkit games.pgn": [perftkit, "classify", pgn, *COLUMNS, "-o", "/dev/null"],
        "pgn-extract games.pgn": [PGN_EXTRACT, "-s", "-o", "/dev/null", pgn],
        # Not a reader: zstd's own decompression of the same file, one core, as the share of the
        # work (and of the 2 cores) that decompression alone takes before any PGN is read.
        "zstd -dc (decompression alone)": f"zstd -dc {zst} > /dev/null",
    }
    if args.baseline:
        # The same command on another build, in the same rounds: the side-by-side figure.
        baseline = os.path.abspath(args.baseline)
        version = subprocess.run([baseline, "--version"], capture_output=True, text=True).stdout.strip()
        report["baseline"] = {"binary": baseline, "version": version}
        cases = {"perftkit games.pgn.zst": cases["perftkit games.pgn.zst"],
                 "baseline games.pgn.zst": [baseline, "classify", zst, *COLUMNS, "-o", "/dev/null"],
                 **{name: cmd for name, cmd in cases.items() if name != "perftkit games.pgn.zst"}}
    report["runs"] = {}
    if not os.path.exists(PGN_EXTRACT):
        report["runs"]["pgn-extract games.pgn"] = "pgn-extract is not installed (apt-get install pgn-extract)"
        del cases["pgn-extract games.pgn"]
    measured = interleaved_runs(cases, args.runs)
    for name in cases:
        r = medians(measured[name])
        r["pgn_mb_per_second"] = mb / r["median_seconds"]
        r["rows_per_second"] = rows / r["median_seconds"]
        report["runs"][name] = r
        print(f"{name:30s} {r['median_seconds']:7.2f} s  {r['pgn_mb_per_second']:7.1f} MB/s of PGN  "
              f"{r['rows_per_second'] / 1e6:6.2f} M rows/s  cpu {r['median_cpu_seconds']:6.2f} s", flush=True)
    if args.baseline:
        ours, theirs = (report["runs"][name]["median_seconds"]
                        for name in ("perftkit games.pgn.zst", "baseline games.pgn.zst"))
        report["baseline"]["time_over_perftkit"] = theirs / ours
        print(f"the baseline takes {theirs / ours:.2f}x perftkit's time (median wall, same rounds)", flush=True)

    out = subprocess.run([python, __file__, "--python-worker", pgn, str(args.python_games)], capture_output=True,
                         text=True, check=True).stdout
    pc = json.loads(out)
    pc["positions_per_second"] = pc["positions"] / pc["seconds"]
    report["python_chess_one_core"] = pc
    cores = os.cpu_count()
    ours = report["runs"]["perftkit games.pgn.zst"]["rows_per_second"]
    report["perftkit_per_core_over_python_chess"] = ours / cores / pc["positions_per_second"]
    print(f"python-chess (one core)    {pc['positions_per_second']:.0f} positions/s; "
          f"perftkit per core is {report['perftkit_per_core_over_python_chess']:.0f}x", flush=True)

    memory = {}
    for label, size in (("100 MB", 100), ("1 GB", 1000)):
        repeat = max(1, -(-size * 1_000_000 // os.path.getsize(pgn)))
        cmd = (f"for i in $(seq {repeat}); do cat {pgn}; done | head -c {size}000000 | "
               f"/usr/bin/time -f maxrss_kib=%M {perftkit} classify --input pgn - {' '.join(COLUMNS)} -o /dev/null")
        rss, wall = peak_memory(cmd)
        memory[label] = {"max_rss_mib": rss, "seconds": wall}
        print(f"memory at {label:6s}: max RSS {rss:.0f} MiB ({wall:.1f} s)", flush=True)
    report["memory"] = memory

    host = report["machine"]["host"]
    path = os.path.join(ROOT, "results", f"classify-stream-{host}.json")
    with open(path, "w") as f:
        json.dump(report, f, indent=2)
    print(f"written: {os.path.relpath(path, ROOT)}")
    plot(path)


if __name__ == "__main__":
    main()
