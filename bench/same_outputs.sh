#!/usr/bin/env bash
# Runs the same commands with two perftkit binaries on the shared data and compares their
# standard output byte for byte: perft --divide on the standard positions, verify on every
# shared suite (to a node budget), classify of the shared positions (CSV and JSON Lines) and
# of the shared test vector, and suites written from the shared positions. For refactors that must not change behaviour (issues #26, #27).
# Timing lines differ from run to run, so verify runs with --json and its "seconds" fields
# are blanked. Exits 0 when every output is identical, 1 otherwise.
#   usage: bench/same_outputs.sh OLD_PERFTKIT NEW_PERFTKIT [SHARED_DATA_DIR]
set -uo pipefail
old=$1
new=$2
data=${3:-$(cd "$(dirname "$0")/../.." && pwd)/shared/data}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fens=(
  "startpos"
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
  "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
  "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
  "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
)
commands=()
for i in "${!fens[@]}"; do commands+=("perft --depth 4 --divide --threads 1 --fen '${fens[$i]}'"); done
for suite in "$data"/perft/*; do
  commands+=("verify --json --threads 1 --max-nodes 200000 '$suite'")
done
commands+=(
  "classify --threads 1 '$data/positions/lichess-30K-games.txt'"
  "classify --threads 1 --format jsonl '$data/positions/lichess-30K-games.txt'"
  "classify --threads 1 '$data/positions/test-vector.txt'"
  "suite --depth 2 --threads 1 -o - --input fen '$data/perft/fischer.epd'"
  "suite --depth 1 --threads 1 -o - --input fen '$data/perft/perft.epd'"
  "classify --threads 1 -o /dev/null --summary-json - '$data/positions/lichess-30K-games.txt'"
)

blank_timings() { sed -E 's/"(seconds|elapsed_s|nodes_per_second|nps|rows_per_second)": *[0-9.e+-]+/"\1": T/g'; }

failed=0
for i in "${!commands[@]}"; do
  command=${commands[$i]}
  (eval "\"$old\" $command" 2>/dev/null; echo "exit $?") | blank_timings > "$work/old.$i"
  (eval "\"$new\" $command" 2>/dev/null; echo "exit $?") | blank_timings > "$work/new.$i"
  if cmp -s "$work/old.$i" "$work/new.$i"; then
    printf 'same     %10d bytes  perftkit %s\n' "$(wc -c < "$work/new.$i")" "$command"
  else
    printf 'DIFFERS  %10d bytes  perftkit %s\n' "$(wc -c < "$work/new.$i")" "$command"
    diff "$work/old.$i" "$work/new.$i" | head -6
    failed=1
  fi
done
exit $failed
