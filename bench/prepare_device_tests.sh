#!/usr/bin/env bash
# Packs the unit tests for a lent GPU machine into third_party/device-tests/ (git-ignored):
# the tests that need a device skip everywhere else, and the device has no GoogleTest, no
# Open MPI and no ../shared. Carried there with `run` (carry ["third_party/device-tests"]) and
# run by bench/device_tests.sh.
#   third_party/device-tests/bin/   perftkit_tests, perftkit, perftkit_bug_engine (stripped)
#   third_party/device-tests/lib/   the shared libraries they need beyond glibc and libstdc++
#   third_party/device-tests/data/  ../shared/data (the suites and positions)
#   third_party/device-tests/paths  where the tests look for them (the build's test_paths.cpp)
#
# usage: bench/prepare_device_tests.sh [BUILD_DIR]   (default build/test: configured with
# CUDA, so its tests were compiled for sm_90; build perftkit_tests, perftkit and the bug engine first)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/test}
CARRY_LIMIT_MB=64
out=third_party/device-tests

for f in "$build/tests/perftkit_tests" "$build/perftkit" "$build/tests/perftkit_bug_engine" "$build/tests/test_paths.cpp"; do
  [[ -f "$f" ]] || { echo "prepare_device_tests: no $f (build the tests in $build first)" >&2; exit 2; }
done
[[ -f "$build/cuda/libperftkit_cuda.a" ]] ||
  { echo "prepare_device_tests: $build has no CUDA backend: its GPU tests would not be built" >&2; exit 2; }

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib"
cp "$build/tests/perftkit_tests" "$build/perftkit" "$build/tests/perftkit_bug_engine" "$out/bin/"
strip "$out"/bin/*
# Libraries that a CUDA image may lack (Open MPI, compression, OpenMP); glibc and the C++
# runtime there are newer than these and serve the binaries as they are.
ldd "$build/tests/perftkit_tests" "$build/perftkit" | awk '$3 ~ /^\// { print $3 }' | sort -u |
  grep -v -E '/(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
  while read -r lib; do cp -L "$lib" "$out/lib/"; done
cp -r "${PERFTKIT_SHARED_DATA:-../shared/data}" "$out/data"
# The absolute paths compiled into the tests: binary, bug engine, shared data, test data.
sed -n 's/^const char\* \([a-z_]*\)() { return "\(.*\)"; }$/\1 \2/p' "$build/tests/test_paths.cpp" > "$out/paths"
[[ $(wc -l < "$out/paths") == 4 ]] || { echo "prepare_device_tests: cannot read $build/tests/test_paths.cpp" >&2; exit 2; }

size_mb=$(du -sm "$out" | cut -f1)
echo "prepare_device_tests: $out holds ${size_mb} MiB"
((size_mb < CARRY_LIMIT_MB)) || { echo "prepare_device_tests: over the ${CARRY_LIMIT_MB} MiB a device run carries" >&2; exit 1; }
