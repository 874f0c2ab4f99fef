"""What every benchmark script records and runs alike: the commit and the machine a figure
belongs to, and Stockfish's perft (the CPU peer always at hand)."""
import os
import platform
import re
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def commit():
    """{"commit": full hash or "unknown", "dirty": tracked files modified}."""
    def git(*args):
        try:
            return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True).stdout.strip()
        except OSError:
            return ""
    return {"commit": git("rev-parse", "HEAD") or "unknown",
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no"))}


def machine():
    """Host, CPU model and flags that matter (BMI2), cores, memory, kernel, load at the call."""
    info = {"host": platform.node(), "kernel": platform.release(), "os": platform.platform(),
            "cpus": os.cpu_count(), "cpu": platform.processor() or "unknown", "bmi2": False,
            "load_average_at_start": os.getloadavg()}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpuinfo = f.read()
        model = re.search(r"model name\s*:\s*(.*)", cpuinfo)
        flags = re.search(r"flags\s*:\s*(.*)", cpuinfo)
        if model:
            info["cpu"] = model.group(1).strip()
        info["bmi2"] = bool(flags) and " bmi2 " in f" {flags.group(1)} "
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    info["memory_kib"] = int(line.split()[1])
    except OSError:
        pass
    return info


def stockfish_perft(stockfish, fen, depth):
    """(nodes, wall seconds) of Stockfish's `go perft depth` from fen ("startpos" for the start)."""
    position = "position startpos" if fen == "startpos" else f"position fen {fen}"
    start = time.perf_counter()
    done = subprocess.run([stockfish], input=f"{position}\ngo perft {depth}\nquit\n", capture_output=True, text=True)
    seconds = time.perf_counter() - start
    nodes = re.search(r"Nodes searched: (\d+)", done.stdout)
    if done.returncode != 0 or not nodes:
        raise RuntimeError(f"{stockfish}: no perft result for {fen} depth {depth} (exit {done.returncode})")
    return int(nodes.group(1)), seconds
