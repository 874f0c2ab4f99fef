#!/usr/bin/env bash
# On a lent GPU machine, from the repository root, after bench/prepare_device_tests.sh here:
#   bash bench/device_tests.sh        (the `run` tool, carry ["third_party/device-tests"])
# Puts the carried binaries and data where the tests look for them (the paths compiled into
# them, linked to this copy of the tree), then runs the tests that need a GPU and, with the
# time left, every other test but MPI's. Prints GoogleTest's summaries.
# Environment: PERFTKIT_DEVICE_TESTS_GPU_S (default 100; 0 skips the GPU tests),
# PERFTKIT_DEVICE_TESTS_REST_S (default 120; 0 runs only the GPU tests),
# PERFTKIT_DEVICE_TESTS_REST_FILTER (a GoogleTest filter for the others, e.g.
# 'PipelineWideCounts.*:CliErrors.*'; default every test but the GPU's and MPI's),
# PERFTKIT_DEVICE_TESTS_DRY=1 (run where no GPU is visible).
# Exit: 0 every test passed, 1 a test failed or ran out of time, 2 nothing to run or no GPU.
set -u -o pipefail
cd "$(dirname "$0")/.." || exit 2
carried=third_party/device-tests
[[ -f $carried/paths ]] || { echo "device_tests: no $carried (run bench/prepare_device_tests.sh, carry it)" >&2; exit 2; }
path() { awk -v k="$1" '$1 == k { print $2 }' "$carried/paths"; }

# The tree the tests were built from: its tests/data must be this copy's.
source_root=$(dirname "$(dirname "$(path test_data_dir)")")
if [[ "$(cd "$source_root" 2> /dev/null && pwd -P)" != "$(pwd -P)" ]]; then
  [[ -e "$source_root" ]] && { echo "device_tests: $source_root exists and is not this tree" >&2; exit 2; }
  mkdir -p "$(dirname "$source_root")" && ln -s "$(pwd -P)" "$source_root"
fi
shared=$(path shared_data_dir)
if [[ ! -e "$shared" ]]; then mkdir -p "$(dirname "$shared")" && ln -s "$(pwd -P)/$carried/data" "$shared"; fi
for name in perftkit_binary:perftkit bug_engine_binary:perftkit_bug_engine; do
  target=$(path "${name%%:*}")
  mkdir -p "$(dirname "$target")" && cp "$carried/bin/${name#*:}" "$target"
done
export LD_LIBRARY_PATH="$(pwd -P)/$carried/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

info=$("$(path perftkit_binary)" info 2>&1)
sed -n '1p;/^Pipeline/,$p' <<< "$info"
if ! grep -q '^GPU 0' <<< "$info" && [[ "${PERFTKIT_DEVICE_TESTS_DRY:-0}" != 1 ]]; then
  echo "device_tests: no GPU is visible, so the GPU tests would only skip (PERFTKIT_DEVICE_TESTS_DRY=1 runs them anyway)" >&2
  exit 2
fi
GPU_FILTER='*Cuda*:*Gpu*:*GPU*:InfoCommand.*:PipelineDeviceDouble.*'
summary() { grep -E '^\[  (PASSED|FAILED|SKIPPED) \]|tests? from .* ran|Failure$|^\.\./' ; }
gpu_rc=0
if (( ${PERFTKIT_DEVICE_TESTS_GPU_S:-100} > 0 )); then
  echo "== tests that need a GPU"
  timeout "${PERFTKIT_DEVICE_TESTS_GPU_S:-100}" "$carried/bin/perftkit_tests" --gtest_filter="$GPU_FILTER" 2>&1 | summary
  gpu_rc=${PIPESTATUS[0]}
fi
rest_rc=0
if (( ${PERFTKIT_DEVICE_TESTS_REST_S:-120} > 0 )); then
  rest_filter=${PERFTKIT_DEVICE_TESTS_REST_FILTER:--$GPU_FILTER:*Mpi*}
  echo "== other tests ($rest_filter)"
  timeout "${PERFTKIT_DEVICE_TESTS_REST_S:-120}" "$carried/bin/perftkit_tests" --gtest_filter="$rest_filter" > "$carried/rest.log" 2>&1
  rest_rc=$?
  # A chosen filter runs few tests: each one's time is shown.
  if [[ -n "${PERFTKIT_DEVICE_TESTS_REST_FILTER:-}" ]]; then grep -E '^\[       OK \]|^\[  FAILED  \]' "$carried/rest.log"; fi
  summary < "$carried/rest.log"
  if [[ -n "${OUT:-}" && -d "${OUT:-}" ]]; then cp "$carried/rest.log" "$OUT/device_tests_rest.log"; fi
fi
echo "device_tests: GPU tests exit $gpu_rc, the others exit $rest_rc"
(( gpu_rc == 0 && rest_rc == 0 ))
