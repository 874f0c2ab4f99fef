#!/usr/bin/env bash
# Builds bench/prefetch_fresh_memory.cpp and runs it on 1 and 4 GB mappings, fresh and
# touched, with and without prefetches, and touched and prefetched with each batch in one
# 4 KiB page, writing the lines and the machine to OUT
# (default results/prefetch-fresh-memory-<host>-<date>.txt). Run it with nothing else busy.
#   usage: bash bench/prefetch_fresh_memory.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/bench/machine_line.sh"
out=${1:-$root/results/prefetch-fresh-memory-$(hostname)-$(date +%F).txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -O2 -std=c++20 -o "$work/prefetch_fresh_memory" "$root/bench/prefetch_fresh_memory.cpp"
{
  echo "commit $(git -C "$root" rev-parse --short HEAD), $(date -u +%FT%TZ)"
  echo "$(cpu_and_cores)," \
       "hypervisor: $(lscpu | sed -n 's/^Hypervisor vendor: *//p' | grep . || echo none)," \
       "THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
  for mb in 1024 4096; do
    for touched in 0 1; do
      for prefetch in 1 0; do
        /usr/bin/time -f "  (wall %e s, user %U s, system %S s)" "$work/prefetch_fresh_memory" $mb $touched $prefetch 2>&1
      done
    done
    # The same batches with every batch's lines in one page: page walks or memory parallelism?
    /usr/bin/time -f "  (wall %e s, user %U s, system %S s)" "$work/prefetch_fresh_memory" $mb 1 1 page 2>&1
  done
} | tee "$out"
