#!/usr/bin/env python3
"""A stand-in for perft_gpu_2026 in gpu_peers' dry run (no GPU, no peer binary in CI): takes
the peer's arguments (FEN DEPTH [-nott]) and prints the peer's result lines,
`Perft(NN): COUNT, time: T seconds` for every depth from 1, counted by perftkit's CPU backend
(the binary in $PERFTKIT_STAND_IN_BINARY; -nott: without its table)."""
import json
import os
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        print("usage: gpu_peers_stand_in.py FEN DEPTH [-nott]", file=sys.stderr)
        return 2
    fen, depth, no_table = sys.argv[1], int(sys.argv[2]), "-nott" in sys.argv[3:]
    perftkit = os.environ["PERFTKIT_STAND_IN_BINARY"]
    print("CPU stand-in for perft_gpu_2026")
    for d in range(1, depth + 1):
        cmd = [perftkit, "perft", "--fen", fen, "--depth", str(d), "--backend", "cpu", "--json"]
        report = json.loads(subprocess.run(cmd + (["--hash", "0"] if no_table else []), check=True,
                                           capture_output=True, text=True).stdout)
        print(f"\nPerft({d:02d}): {report['nodes']}, time: {report['seconds']:g} seconds", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
