#!/usr/bin/env bash
# What fresh memory costs on this machine, huge pages against 4 KiB pages: ROUNDS rounds of
# faulting in MB megabytes on 2 threads each way (bench/fresh_memory_pages.cpp), then, given a
# perftkit binary, ROUNDS rounds of `perft -d DEPTH` with its table on huge pages (as shipped)
# and on 4 KiB pages (bench/small_pages_preload.c). Every run waits SETTLE seconds first, so
# that a virtual machine that hands freed memory back to its host (free page reporting) has
# done so: each run then pays for fresh memory, as a first run does. Writes the lines and the
# machine to OUT (default results/fresh-memory-pages-<host>-<date>.txt). Run it with nothing
# else busy.
#   usage: bash bench/fresh_memory_pages.sh [PERFTKIT [DEPTH]]
#   environment: MB (1472: perft 9's default table), ROUNDS (3), SETTLE (12), OUT
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/bench/machine_line.sh"
perftkit=${1:-}
depth=${2:-9}
mb=${MB:-1472} rounds=${ROUNDS:-3} settle=${SETTLE:-12}
out=${OUT:-$root/results/fresh-memory-pages-$(hostname)-$(date +%F).txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -O2 -std=c++20 -pthread -o "$work/fresh_memory_pages" "$root/bench/fresh_memory_pages.cpp"
gcc -O2 -shared -fPIC -o "$work/small_pages.so" "$root/bench/small_pages_preload.c" -ldl
{
  echo "commit $(git -C "$root" rev-parse --short HEAD), $(date -u +%FT%TZ), settle ${settle} s before every run"
  echo "$(cpu_and_cores)," \
       "kernel $(uname -r), THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
  for round in $(seq 1 "$rounds"); do
    for pages in huge small; do
      sleep "$settle"
      "$work/fresh_memory_pages" "$mb" 2 "$pages"
    done
  done
  if [ -n "$perftkit" ]; then
    for round in $(seq 1 "$rounds"); do
      for pages in huge small; do
        preload=()
        [ "$pages" = small ] && preload=(env LD_PRELOAD="$work/small_pages.so")
        sleep "$settle"
        nodes=$(/usr/bin/time -f "%e %U %S" -o "$work/time" "${preload[@]}" "$perftkit" perft -d "$depth" 2> "$work/err" |
                sed -n 's/^Nodes searched: //p') || { cat "$work/err" >&2; exit 1; }
        read -r wall user system < "$work/time"
        echo "perft $depth, table on $pages pages: $nodes nodes, $wall s wall, user $user s, system $system s"
      done
    done
  fi
} | tee "$out"
