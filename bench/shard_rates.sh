#!/usr/bin/env bash
# Inputs of the cluster plan (docs/cluster.md), measured on this machine's CPU:
#  1. the split: distinct positions at plies 4-6 of the start position, the shard files'
#     bytes, and the time and peak memory of writing them (perft --prepare);
#  2. per-shard rates: a few shards of start-position perft 8-11 split at ply 5 into 4096
#     shards, counted by `perftkit work` on one thread, without and with a transposition
#     table, on consecutive shards (one worker) and on every 64th shard (what one of 64
#     workers gets).
# Prints a table and writes JSON lines to results/shard-rates-cpu-DATE.jsonl (or $OUT).
# Node rates count leaves per second of counting: identical positions merged in a shard's
# frontier (and subtrees found in the table) count as often as they occur, as in perft.
# STEPS picks the parts: "split shards" (default, about 5 minutes on one core; SCRATCH, default
# /tmp, needs about 1 GB and the split at ply 6 about 4 GB of memory) and "deep" (perft 11 and
# 12 shards with a 1-2 GB table, about 5 minutes more).
set -euo pipefail
cd "$(dirname "$0")/.."
PERFTKIT=${PERFTKIT:-build/release/perftkit}
SCRATCH=${SCRATCH:-/tmp}/perftkit-shard-rates-$$
OUTFILE=${OUT:-results}/shard-rates-cpu-$(date +%Y-%m-%d).jsonl
mkdir -p "$SCRATCH" "$(dirname "$OUTFILE")"
trap 'rm -rf "$SCRATCH"' EXIT
: >> "$OUTFILE"
STEPS=${STEPS:-split shards}
step() { [[ " $STEPS " == *" $1 "* ]]; }

field() { sed -e "s/.*\"$1\":\([^,}]*\).*/\1/" -e 's/"//g'; }
load() { cut -d' ' -f1 /proc/loadavg; }

echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
if step split; then
echo "# 1. split of the start position (perft --prepare)"
printf '%-6s %12s %8s %14s %10s %12s\n' ply positions shards shard_bytes seconds peak_rss_mb
for ply in 4 5 6; do
  dir="$SCRATCH/split$ply"
  shards=$((ply == 6 ? 100000 : 4096))
  /usr/bin/time -o "$SCRATCH/time" -f '%e %M' "$PERFTKIT" perft --depth 16 --split-depth "$ply" \
    --shards "$shards" --work-dir "$dir" --prepare 2>/dev/null
  timing=$(tail -1 "$SCRATCH/time")
  status=$("$PERFTKIT" status --json "$dir")
  positions=$(echo "$status" | field frontier_positions)
  shards=$(echo "$status" | field shards)
  bytes=$(du -sb "$dir/shards" | cut -f1)
  seconds=${timing% *}
  rss_mb=$(( ${timing#* } / 1024 ))
  printf '%-6s %12s %8s %14s %10s %12s\n' "$ply" "$positions" "$shards" "$bytes" "$seconds" "$rss_mb"
  echo "{\"kind\":\"split\",\"ply\":$ply,\"positions\":$positions,\"shards\":$shards,\"shard_bytes\":$bytes,\"seconds\":$seconds,\"peak_rss_mb\":$rss_mb,\"load\":$(load)}" >> "$OUTFILE"
  rm -rf "$dir"
done
fi

echo "# 2. per-shard rates, one thread, start position split at ply 5 into 4096 shards"
printf '%-6s %-10s %-12s %7s %16s %12s %14s %6s\n' depth hash_mb shards_taken counted nodes seconds nodes_per_s load
measure() {  # depth hash_mb count partition(consecutive|every64th)
  local depth=$1 hash=$2 count=$3 part=$4 dir="$SCRATCH/d$1-h$2-$4"
  "$PERFTKIT" perft --depth "$depth" --split-depth 5 --shards 4096 --work-dir "$dir" --prepare 2>/dev/null
  local which=()
  [[ $part == every64th ]] && which=(--worker 0 --workers 64)
  "$PERFTKIT" work "$dir" --threads 1 --hash "$hash" --max-shards "$count" "${which[@]}" 2>/dev/null
  local status nodes seconds nps
  status=$("$PERFTKIT" status --json "$dir")
  nodes=$(echo "$status" | field nodes)
  seconds=$(echo "$status" | field worker_seconds)
  nps=$(echo "$status" | field worker_nps)
  printf '%-6s %-10s %-12s %7s %16s %12s %14s %6s\n' "$depth" "$hash" "$part" "$count" "$nodes" "$seconds" "$nps" "$(load)"
  echo "{\"kind\":\"shards\",\"depth\":$depth,\"remaining\":$((depth - 5)),\"hash_mb\":$hash,\"partition\":\"$part\",\"shards\":$count,\"nodes\":$nodes,\"seconds\":$seconds,\"nps\":$nps,\"load\":$(load)}" >> "$OUTFILE"
  rm -rf "$dir"
}
if step shards; then
  measure 8 0 16 consecutive
  measure 8 256 16 consecutive
  measure 9 0 8 consecutive
  measure 9 256 8 consecutive
  measure 9 256 8 every64th
  measure 10 256 4 consecutive
  measure 10 256 4 every64th
fi
if step deep; then
  measure 11 1024 2 consecutive
  measure 12 2048 1 consecutive
fi
echo "# written to $OUTFILE"
