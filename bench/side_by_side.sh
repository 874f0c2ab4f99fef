#!/usr/bin/env bash
# Two perftkit binaries run at once, each pinned to its own core, on the same arguments, for
# ROUNDS rounds; the cores swap every round, so a faster core favours neither. Both runs of a
# round share the machine's hour and its memory traffic, which on a shared, noisy VM makes the
# ratio new/old of their wall times far steadier than runs one after the other. Prints a line
# per round (wall, user and system seconds of each, the ratio and both node counts) and the
# median ratio. Needs two cores.
#   usage: bash bench/side_by_side.sh OLD NEW ROUNDS ARGS...
#   e.g.   bash bench/side_by_side.sh /tmp/old build/release/perftkit 8 perft -d 8 -t 1
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 OLD NEW ROUNDS ARGS..." >&2
  exit 2
fi
old=$1 new=$2 rounds=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ratios=()
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) = 1 ]; then old_cpu=0 new_cpu=1; else old_cpu=1 new_cpu=0; fi
  /usr/bin/time -f "%e %U %S" -o "$work/old.time" taskset -c $old_cpu "$old" "$@" > "$work/old.out" 2>&1 &
  old_pid=$!
  /usr/bin/time -f "%e %U %S" -o "$work/new.time" taskset -c $new_cpu "$new" "$@" > "$work/new.out" 2>&1 &
  new_pid=$!
  wait $old_pid $new_pid
  read -r old_wall old_user old_system < "$work/old.time"
  read -r new_wall new_user new_system < "$work/new.time"
  ratio=$(awk -v n="$new_wall" -v o="$old_wall" 'BEGIN { printf "%.3f", n / o }')
  ratios+=("$ratio")
  echo "round $round: old (cpu $old_cpu) wall $old_wall user $old_user system $old_system;" \
       "new (cpu $new_cpu) wall $new_wall user $new_user system $new_system; new/old $ratio;" \
       "$(grep -h 'Nodes searched' "$work/old.out" "$work/new.out" | tr '\n' ' ')"
done
printf '%s\n' "${ratios[@]}" | sort -n |
  awk '{ r[NR] = $1 } END { m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2;
                            printf "median new/old %.3f of %d rounds (%s .. %s)\n", m, NR, r[1], r[NR] }'
