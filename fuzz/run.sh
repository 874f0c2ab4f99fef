#!/usr/bin/env bash
# Runs every libFuzzer target of build/fuzz (cmake --workflow... see fuzz/README.md) for a
# bounded time from its committed seeds (fuzz/corpus/TARGET), and prints one line per target:
# executions, executions per second, corpus size, result. Exits 1 if any target found a crash,
# a leak, a timeout or a sanitizer report; the input is saved under the artifacts folder.
# With --runs N a target also stops after N executions (whichever comes first).
#   usage: fuzz/run.sh [--seconds N] [--runs N] [--build DIR] [--artifacts DIR] [TARGET...]
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=20
runs_limit=-1
build=build/fuzz
artifacts=build/fuzz/artifacts
targets=()
while (($#)); do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --runs) runs_limit=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --artifacts) artifacts=$2; shift 2 ;;
    -*) echo "fuzz/run.sh: unknown option '$1'" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if ((${#targets[@]} == 0)); then
  for dir in fuzz/corpus/*/; do targets+=("$(basename "$dir")"); done
fi
mkdir -p "$artifacts"

failed=0
printf '%-24s %12s %10s %8s  %s\n' target executions exec/s corpus result
for target in "${targets[@]}"; do
  binary="$build/fuzz/$target"
  if [[ ! -x "$binary" ]]; then
    echo "fuzz/run.sh: no $binary (build it: cmake --preset fuzz && cmake --build --preset fuzz)" >&2
    exit 2
  fi
  work=$(mktemp -d)  # new inputs go here, not into the committed seeds
  log="$artifacts/$target.log"
  "$binary" -max_total_time="$seconds" -runs="$runs_limit" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$target-" "$work" "fuzz/corpus/$target" > "$log" 2>&1
  rc=$?
  runs=$(grep -oE 'stat::number_of_executed_units: +[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')
  rate=$(grep -oE 'stat::average_exec_per_sec: +[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')
  corpus=$(ls "$work" | wc -l)
  if ((rc == 0)); then result=ok; else result="FAILED (exit $rc; see $log)"; failed=1; fi
  printf '%-24s %12s %10s %8s  %s\n' "$target" "${runs:-?}" "${rate:-?}" "$corpus" "$result"
  ((rc == 0)) || grep -m 5 -E 'ERROR|fuzz check failed|runtime error|SUMMARY' "$log" >&2
  rm -rf "$work"
done
exit $failed
