#!/bin/bash
# `perftkit diff` against real engines (README: "Debugging your move generator"):
#  1. Stockfish on every position of standard.epd to depth 4 (all must agree);
#  2. Stockfish on tricky.perft to depth 3 (15.1 crashes on ep-unrelated-check: a clean report);
#  3. Stockfish on 200 random positions, half of them Chess960, to depth 4;
#  4. the time of a depth-6 descent through one bug of the test engine: engine calls per level,
#     engine seconds and perftkit seconds (median of 3).
#
#   bash bench/engine_diff.sh [BUILD_DIR] [DATA_DIR]    # BUILD_DIR: a test build (build/test)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build/test}
DATA=${2:-$ROOT/../shared/data}
PERFTKIT=$BUILD/perftkit
BUG_ENGINE=$BUILD/tests/perftkit_bug_engine
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
for f in "$PERFTKIT" "$BUG_ENGINE" "$STOCKFISH" "$DATA/perft/standard.epd"; do
  [ -e "$f" ] || { echo "missing $f" >&2; exit 2; }
done
echo "perftkit $(git -C "$ROOT" rev-parse --short HEAD), $("$STOCKFISH" quit | head -1), $(nproc) cores"

echo "== 1. Stockfish, standard.epd, depth 4"
s=$(date +%s.%N); "$PERFTKIT" diff --engine "$STOCKFISH" --suite "$DATA/perft/standard.epd" --depth 4 | tail -1; rc=$?
echo "exit ${PIPESTATUS[0]}, $(echo "$(date +%s.%N) - $s" | bc) s"

echo "== 2. Stockfish, tricky.perft, depth 3"
"$PERFTKIT" diff --engine "$STOCKFISH" --suite "$DATA/perft/tricky.perft" --depth 3 | grep -E "engine crashed|positions:"
echo "exit ${PIPESTATUS[0]}"

echo "== 3. Stockfish, 200 random positions (seed 1, Chess960 starts too), depth 4"
s=$(date +%s.%N); "$PERFTKIT" diff --engine "$STOCKFISH" --random 200 --seed 1 --depth 4 --chess960 | tail -1
echo "exit ${PIPESTATUS[0]}, $(echo "$(date +%s.%N) - $s" | bc) s"

echo "== 4. depth-6 descent, test engine --bug ep-exposes-king, position 3 (three runs)"
for i in 1 2 3; do
  s=$(date +%s.%N)
  "$PERFTKIT" diff --engine "$BUG_ENGINE --bug ep-exposes-king uci" --fen "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1" \
    --depth 6 | grep -E "^depth 6|moves from the root|engine calls"
  echo "run $i: $(echo "$(date +%s.%N) - $s" | bc) s"
done
echo "== 5. depth-6 descent, test engine --bug ep-right-kept, start position (three levels)"
s=$(date +%s.%N)
"$PERFTKIT" diff --engine "$BUG_ENGINE --bug ep-right-kept uci" --depth 6 | grep -E "^depth|moves from the root|engine calls"
echo "$(echo "$(date +%s.%N) - $s" | bc) s"
