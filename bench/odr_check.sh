#!/usr/bin/env bash
# Builds the perftkit CLI of a source tree with g++ link-time optimisation, which compares
# every type's definitions across translation units, and prints its One Definition Rule
# warnings (-Wodr, -Wlto-type-mismatch) with their count. Host code only (no CUDA, no tests).
#   usage: bench/odr_check.sh [SOURCE_DIR] [BUILD_DIR]
set -uo pipefail
source_dir=${1:-$(cd "$(dirname "$0")/.." && pwd)}
build_dir=${2:-$(mktemp -d)}
mkdir -p "$build_dir"
cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ \
  -DCMAKE_CXX_FLAGS="-flto=auto -Wodr -Wlto-type-mismatch" -DCMAKE_EXE_LINKER_FLAGS="-flto=auto -Wodr -Wlto-type-mismatch" \
  -DPERFTKIT_ENABLE_CUDA=OFF -DPERFTKIT_BUILD_TESTS=OFF -DPERFTKIT_CCACHE=OFF > "$build_dir/configure.log" 2>&1 ||
  { cat "$build_dir/configure.log"; exit 2; }
cmake --build "$build_dir" --target perftkit > "$build_dir/build.log" 2>&1 || { tail -30 "$build_dir/build.log"; exit 2; }
grep -E "One Definition Rule|-Wodr|-Wlto-type-mismatch" "$build_dir/build.log"
echo "ODR warnings: $(grep -cE 'violates the C\+\+ One Definition Rule|\[-Wlto-type-mismatch\]' "$build_dir/build.log")"
