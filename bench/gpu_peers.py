#!/usr/bin/env python3
"""perftkit and the fastest published GPU perft (perft_gpu_2026) side by side on one GPU.

Runs both programs on the same card in one call, rows without a table first (start position
perft 8 and 9, Kiwipete 6 and 7, position 3 perft 9), then with tables (start position perft 9
plain and through a fresh work dir of 1,024 shards, perft 10 and 11, and perft 10 again with
the subtree mode's last interior level as merged positions instead of child slots), then a kernel-time summary of perftkit (ncu, one short run each mode), with the card's
clocks before and after. Every row's count is checked against the published count; a peer that
disagrees is reported, not trusted.

On the device, from the repository root, after `bench/prepare_device_carry.sh --peer PEER` here
(the peer is built by hand from a fetched copy kept outside the tree; neither it nor a recipe
for it is committed):
    bash bench/gpu_peers.sh            (the `run` tool, carry ["third_party"], timeout_s 480)

Output: $OUT/gpu-peers-CARD-DATE.json and .md (else under results/), rewritten after each row so
that a run cut short keeps what it measured. The JSON has device, commit, clocks and rows; a
row has position, depth, table, nodes, perftkit_seconds and peer_seconds (each program's own
timing of that depth: perftkit's JSON `seconds`, the peer's `Perft(NN): ..., time: T seconds`)
and the wall times of both processes. Exit: 0 every row that ran is exact, 1 a wrong perftkit
count or a run that failed, 2 no binary, no peer or no GPU.

--dry-run runs the same script on the CPU backend at shallower depths (the second column of
ROWS), against a stand-in peer that prints the peer's format (bench/gpu_peers_stand_in.py);
bench/gpu_peers_dry_run.sh runs it in CI.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"

# Known counts of every depth a row uses: the Chess Programming Wiki's Perft Results, and for
# position 3 perft 9 Stockfish 15.1's `go perft 9` (results/pipeline-subtree-omp-vm-2026-12-06.md).
PUBLISHED = {
    ("start", 5): 4865609, ("start", 6): 119060324, ("start", 7): 3195901860, ("start", 8): 84998978956,
    ("start", 9): 2439530234167, ("start", 10): 69352859712417, ("start", 11): 2097651003696806,
    ("kiwipete", 4): 4085603, ("kiwipete", 5): 193690690, ("kiwipete", 6): 8031647685,
    ("kiwipete", 7): 374190009323,
    ("position3", 7): 178633661, ("position3", 8): 3009794393, ("position3", 9): 50086749815,
}
FENS = {"start": START, "kiwipete": KIWIPETE, "position3": POSITION3}

# (position, depth on the GPU, depth in the dry run, with the table, the subtree mode's last
# interior level as child slots; False: as merged positions, PERFTKIT_PIPELINE_SLOTS=0, the
# design before 2026-12-06, to compare the two on one card; through a fresh work dir of 1,024
# shards, counted one after another by this process, against the plain run of the row before)
ROWS = [
    ("start", 8, 5, False, True, False), ("start", 9, 6, False, True, False),
    ("kiwipete", 6, 4, False, True, False), ("kiwipete", 7, 5, False, True, False),
    ("position3", 9, 7, False, True, False),
    ("start", 9, 6, True, True, False), ("start", 9, 6, True, True, True),
    ("start", 10, 7, True, True, False), ("start", 10, 7, True, False, False), ("start", 11, 8, True, True, False),
]
REPEAT_UNDER_S = 20  # a perftkit row shorter than this runs twice (median of 2)
PEER_LINE = re.compile(r"Perft\((\d+)\):\s*(\d+),\s*time:\s*([0-9.eE+-]+)\s*seconds")


def now():
    return time.monotonic()


class Budget:
    """Seconds left of the whole run; a step gets at most its cap and what is left."""

    def __init__(self, seconds):
        self.end = now() + seconds

    def step(self, cap):
        left = int(self.end - now()) - 5
        return max(0, min(cap, left))


def run_timed(cmd, timeout, log_path, env=None):
    """(exit code or None on timeout, stdout, wall seconds); stdout and stderr go to log_path."""
    start = now()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        code, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as e:
        code, out, err = None, e.stdout or "", e.stderr or ""
        out = out.decode() if isinstance(out, bytes) else out
        err = err.decode() if isinstance(err, bytes) else err
    wall = now() - start
    with open(log_path, "w", encoding="utf-8") as log:
        log.write(f"$ {' '.join(cmd)}\n# exit {code}, {wall:.3f} s\n{out}\n--- stderr\n{err}")
    return code, out, wall


def perftkit_row(args, budget, logdir, name, fen, depth, table, slots, work_dir=False):
    """perftkit's count, its own seconds and its wall seconds, or an error string. work_dir:
    through a fresh work dir (removed afterwards), whose JSON `seconds` is the whole run's."""
    env = None if slots else dict(os.environ, PERFTKIT_PIPELINE_SLOTS="0")
    cmd = [args.perftkit, "perft", "--fen", fen, "--depth", str(depth), "--backend", args.backend, "--json"]
    if not table:
        cmd += ["--hash", "0"]
    scratch = None
    if work_dir:
        scratch = tempfile.mkdtemp(prefix=f"{name}.", dir=logdir)
        cmd += ["--work-dir", os.path.join(scratch, "run")]
    timeout = budget.step(args.row_cap)
    if timeout == 0:
        return {"error": "skipped (budget)"}
    code, out, wall = run_timed(cmd, timeout, os.path.join(logdir, f"{name}.perftkit.log"), env)
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    if code is None:
        return {"error": f"timeout ({timeout} s)", "wall": wall}
    try:
        report = json.loads(out)
    except json.JSONDecodeError:
        return {"error": f"exit {code}, no JSON", "wall": wall}
    if code != 0:
        return {"error": f"exit {code}", "wall": wall}
    if report.get("backend") != args.backend:
        return {"error": f"ran on {report.get('backend')}, not {args.backend}", "wall": wall}
    return {"nodes": int(report["nodes"]), "seconds": float(report["seconds"]), "wall": wall}


def perftkit_median(args, budget, logdir, name, fen, depth, table, slots, work_dir=False):
    """perftkit_row, run a second time when the first took under REPEAT_UNDER_S of wall time:
    seconds is then the median (mean) of the two, and runs lists both."""
    first = perftkit_row(args, budget, logdir, name, fen, depth, table, slots, work_dir)
    if "error" in first or first["wall"] >= REPEAT_UNDER_S:
        return dict(first, runs=[first.get("seconds")])
    second = perftkit_row(args, budget, logdir, name + ".2", fen, depth, table, slots, work_dir)
    if "error" in second:
        return dict(first, runs=[first["seconds"]])
    if second["nodes"] != first["nodes"]:
        return {"error": f"two runs disagree: {first['nodes']} and {second['nodes']}", "wall": first["wall"]}
    runs = [first["seconds"], second["seconds"]]
    return dict(first, seconds=round(sum(runs) / 2, 6), runs=runs)


def peer_group(args, budget, logdir, position, depth, table):
    """One peer run to `depth` (it prints every depth from 1): {depth: (nodes, seconds)}, wall."""
    cmd = [args.peer, FENS[position], str(depth)] + ([] if table else ["-nott"])
    timeout = budget.step(args.row_cap)
    if timeout == 0:
        return {}, "skipped (budget)", 0.0
    name = f"{position}-d{depth}-{'table' if table else 'notable'}"
    code, out, wall = run_timed(cmd, timeout, os.path.join(logdir, f"{name}.peer.log"))
    lines = {int(d): (int(n), float(s)) for d, n, s in PEER_LINE.findall(out)}
    error = None
    if code is None:
        error = f"timeout ({timeout} s)"
    elif code != 0:
        error = f"exit {code}"
    elif depth not in lines:
        error = "no Perft line for the depth"
    return lines, error, wall


def nvidia_smi():
    """The card as nvidia-smi names it, with its clocks now; None without nvidia-smi."""
    if not shutil.which("nvidia-smi"):
        return None
    fields = ["name", "driver_version", "memory.total", "clocks.sm", "clocks.max.sm", "clocks.mem",
              "power.draw", "power.limit", "temperature.gpu"]
    done = subprocess.run(["nvidia-smi", f"--query-gpu={','.join(fields)}", "--format=csv,noheader"],
                          capture_output=True, text=True)
    if done.returncode != 0 or not done.stdout.strip():
        return {"error": done.stderr.strip()[:200]}
    return dict(zip(fields, (v.strip() for v in done.stdout.splitlines()[0].split(","))))


def kernel_summary(args, budget, logdir):
    """ncu's per-kernel time summary of one short run per mode, as text, or why there is none."""
    if args.dry_run:
        return "not in a dry run"
    if not shutil.which("ncu"):
        return "ncu is not on the PATH"
    parts = []
    for label, extra in (("start position perft 7, no table", ["--depth", "7", "--hash", "0"]),
                         ("start position perft 8, table", ["--depth", "8"])):
        timeout = budget.step(args.profile_cap)
        if timeout == 0:
            parts.append(f"## {label}\nskipped (budget)")
            continue
        cmd = ["ncu", "--clock-control", "none", "--metrics", "gpu__time_duration.sum", "--print-summary",
               "per-kernel", "--launch-count", "400", args.perftkit, "perft", "--backend", args.backend] + extra
        code, out, _ = run_timed(cmd, timeout, os.path.join(logdir, f"ncu-{extra[1]}.log"))
        keep = [line for line in out.splitlines() if not line.startswith("==PROF==")]
        parts.append(f"## {label} (ncu exit {code})\n" + "\n".join(keep[-120:]))
    return "\n\n".join(parts)


def card_slug(smi, dry_run):
    if dry_run:
        return "cpu-dry-run"
    if not smi or "name" not in smi:
        return "unknown-gpu"
    name = smi["name"].lower().replace("nvidia", "")
    return re.sub(r"[^a-z0-9]+", "-", name).strip("-") or "unknown-gpu"


def perftkit_commit(perftkit):
    done = subprocess.run([perftkit, "--version"], capture_output=True, text=True)
    found = re.search(r"commit ([0-9a-f]+)", done.stdout)
    return found.group(1) if found else "unknown"


def write_results(path_base, report):
    with open(path_base + ".json", "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    lines = [f"# perftkit and perft_gpu_2026 side by side on {report['device']}", "",
             f"- date: {report['date']}; perftkit commit {report['commit']}; peer {report['peer']}",
             f"- backend: {report['backend']}{' (dry run: shallower depths, a stand-in peer)' if report['dry_run'] else ''}",
             f"- clocks before: {report['clocks_before']}", f"- clocks after: {report['clocks_after']}",
             "- seconds are each program's own timing of that depth; peer/perftkit above 1 means perftkit is faster", "",
             "| position | depth | table | nodes | perftkit s | peer s | peer/perftkit | status |",
             "|---|---|---|---|---|---|---|---|"]
    for r in report["rows"]:
        ratio = f"{r['peer_seconds'] / r['perftkit_seconds']:.2f}" if r.get("peer_seconds") and r.get(
            "perftkit_seconds") else "-"
        table = ("yes" if r["last_level"] == "slots" else "yes, positions") if r["table"] else "no"
        if r.get("work_dir"):
            table += ", work dir"
        lines.append(f"| {r['position']} | {r['depth']} | {table} | {r.get('nodes', '-')} | "
                     f"{r.get('perftkit_seconds', '-')} | {r.get('peer_seconds', '-')} | {ratio} | {r['status']} |")
    lines += ["", "## Kernel times (perftkit)", "", "```", report["kernel_summary"], "```", ""]
    with open(path_base + ".md", "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perftkit", default=os.path.join(ROOT, "third_party/device/perftkit"))
    parser.add_argument("--peer", default=os.path.join(ROOT, "third_party/peer/perft_gpu"),
                        help="the peer's binary (built outside the tree)")
    parser.add_argument("--budget", type=int, default=int(os.environ.get("PERFTKIT_PEERS_BUDGET_S", 450)),
                        help="seconds for the whole run (default 450)")
    parser.add_argument("--row-cap", type=int, default=300, help="seconds one program may run for one row")
    parser.add_argument("--profile-cap", type=int, default=45, help="seconds for each ncu run")
    parser.add_argument("--dry-run", action="store_true", help="CPU backend, shallower depths, any peer")
    parser.add_argument("--out", default=os.environ.get("OUT") or os.path.join(ROOT, "results"))
    args = parser.parse_args()
    args.backend = "cpu" if args.dry_run else "cuda"

    for what, path in (("perftkit", args.perftkit), ("peer", args.peer)):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            print(f"gpu_peers: no {what} binary at {path}", file=sys.stderr)
            return 2
    smi = None if args.dry_run else nvidia_smi()
    if not args.dry_run and (not smi or "name" not in smi):
        print(f"gpu_peers: no GPU seen by nvidia-smi ({smi})", file=sys.stderr)
        return 2

    budget = Budget(args.budget)
    os.makedirs(args.out, exist_ok=True)
    logdir = os.path.join(os.environ.get("TMPDIR", "/tmp"), "perftkit-gpu-peers-logs")
    os.makedirs(logdir, exist_ok=True)
    date = datetime.date.today().isoformat()
    base = os.path.join(args.out, f"gpu-peers-{card_slug(smi, args.dry_run)}-{date}")
    peer_commit_file = os.path.join(os.path.dirname(args.peer), "COMMIT")
    if args.dry_run:
        peer = f"a CPU stand-in ({os.path.basename(args.peer)})"
    else:
        peer = "perft_gpu_2026 " + (open(peer_commit_file).read().strip()[:12] if os.path.isfile(peer_commit_file)
                                    else "(commit unknown)")
    report = {"device": smi["name"] if smi else "CPU (dry run)", "date": date, "commit": perftkit_commit(args.perftkit),
              "peer": peer, "backend": args.backend, "dry_run": args.dry_run, "clocks_before": smi,
              "clocks_after": None, "kernel_summary": "not run yet", "rows": []}
    print(f"== gpu_peers on {report['device']}, perftkit {report['commit']}, {peer}, budget {args.budget} s")

    failed = False
    peer_runs = {}  # (position, table) -> ({depth: (nodes, seconds)}, error, wall)
    for position, gpu_depth, dry_depth, table, slots, work_dir in ROWS:
        depth = dry_depth if args.dry_run else gpu_depth
        group_depth = max(d if not args.dry_run else dd for p, d, dd, t, *_ in ROWS if p == position and t == table)
        row = {"position": position, "fen": FENS[position], "depth": depth, "table": table,
               "last_level": "slots" if slots else "positions", "work_dir": work_dir,
               "expected": PUBLISHED[(position, depth)]}
        name = (f"{position}-d{depth}-{'table' if table else 'notable'}{'' if slots else '-positions'}"
                f"{'-workdir' if work_dir else ''}")
        mine = perftkit_median(args, budget, logdir, name, FENS[position], depth, table, slots, work_dir)
        if "wall" in mine:
            row["perftkit_wall_seconds"] = round(mine["wall"], 3)
        if (position, table) not in peer_runs:
            peer_runs[(position, table)] = peer_group(args, budget, logdir, position, group_depth, table)
        lines, peer_error, peer_wall = peer_runs[(position, table)]
        row["peer_wall_seconds_to_depth_%d" % group_depth] = round(peer_wall, 3)
        status = []
        if "error" in mine:
            status.append("perftkit " + mine["error"])
            failed = failed or not mine["error"].startswith(("skipped", "timeout"))
        else:
            row["nodes"] = mine["nodes"]
            row["perftkit_seconds"] = mine["seconds"]
            row["perftkit_seconds_runs"] = mine["runs"]
            if mine["nodes"] != row["expected"]:
                status.append("perftkit MISMATCH")
                failed = True
        if depth in lines:
            row["peer_nodes"], row["peer_seconds"] = lines[depth]
            if row["peer_nodes"] != row["expected"]:
                status.append("peer MISMATCH")
        else:
            status.append("peer " + (peer_error or "no line for the depth"))
        row["status"] = "; ".join(status) or "ok"
        report["rows"].append(row)
        ratio = (f"{row['peer_seconds'] / row['perftkit_seconds']:.2f}"
                 if row.get("peer_seconds") and row.get("perftkit_seconds") else "-")
        print(f"{name:24} perftkit {row.get('perftkit_seconds', '-'):>10} s  peer {row.get('peer_seconds', '-'):>10} s"
              f"  peer/perftkit {ratio:>5}  {row['status']}", flush=True)
        write_results(base, report)

    report["kernel_summary"] = kernel_summary(args, budget, logdir)
    report["clocks_after"] = None if args.dry_run else nvidia_smi()
    write_results(base, report)
    print(f"== wrote {base}.json and .md; logs in {logdir}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
