#!/usr/bin/env bash
# Prepares third_party/ (git-ignored), everything a lent GPU machine needs besides the tree:
# it has no network, no libcli11-dev, no ../shared, and minutes of device time to spend.
#   third_party/device/perftkit    the device binary, built here: Release, CUDA for sm_90,
#                                  no -march=native (it runs on the device host's CPU), the
#                                  CUDA runtime linked statically
#   third_party/perft-data/        the perft suites (../shared/data/perft)
#   third_party/positions/         the classify check's positions (../shared/data/positions)
#   third_party/cli11/include/CLI  CLI11's headers, for a fallback build on the device
#   third_party/peer/perft_gpu     with --peer: the GPU peer for bench/gpu_peers.sh, built by
#                                  hand for sm_90 from a fetched copy outside the tree (its
#                                  code and any recipe that builds it stay out of the project),
#                                  and its commit in third_party/peer/COMMIT when known
# Then run on the device (one command; `run` with carry ["third_party"]):
#   bash bench/gpu_peers.sh         (once a peer is carried), else bash bench/device_check.sh
#
# usage: bench/prepare_device_carry.sh [--binary PATH] [--peer PATH]
#   --binary PATH  carry this perftkit instead of building one (the CI dry runs carry their
#                  own build, with the CPU backend)
#   --peer PATH    carry this peer binary (the CI dry run carries a stand-in script)
# Fails when the folder would exceed the 64 MiB a device run carries.
set -euo pipefail
cd "$(dirname "$0")/.."

binary="" peer=""
while (($#)); do
  case "$1" in
    --binary) binary=$2; shift 2 ;;
    --peer) peer=$2; shift 2 ;;
    *) echo "prepare_device_carry: unknown argument '$1' (usage: [--binary PATH] [--peer PATH])" >&2; exit 2 ;;
  esac
done

CARRY_LIMIT_MB=64
SHARED=${PERFTKIT_SHARED_DATA:-../shared/data}

cli11_src=${CLI11_INCLUDE:-/usr/include}/CLI
if [[ ! -f "$cli11_src/CLI.hpp" ]]; then
  echo "prepare_device_carry: no CLI11 headers at $cli11_src (install libcli11-dev or set CLI11_INCLUDE)" >&2
  exit 2
fi
rm -rf third_party/cli11 third_party/perft-data third_party/positions third_party/device third_party/peer
mkdir -p third_party/cli11/include third_party/device
cp -r "$cli11_src" third_party/cli11/include/CLI

for kind in perft positions; do
  target=third_party/$kind
  [[ $kind == perft ]] && target=third_party/perft-data
  if [[ -d "$SHARED/$kind" ]]; then
    mkdir -p "$target"
    cp "$SHARED/$kind"/* "$target/"
  else
    echo "prepare_device_carry: $SHARED/$kind absent; the checks that need it fall back to tests/data or skip" >&2
  fi
done

if [[ -z "$binary" ]]; then
  build=build/device-carry
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPERFTKIT_BUILD_TESTS=OFF -DPERFTKIT_NATIVE=OFF \
    -DPERFTKIT_ENABLE_MPI=OFF -DPERFTKIT_ENABLE_COMPRESSION=OFF -DCMAKE_CUDA_ARCHITECTURES=90 > /dev/null
  grep -q '^CMAKE_CUDA_COMPILER:[A-Z]*=/' "$build/CMakeCache.txt" ||
    { echo "prepare_device_carry: no nvcc here; a device binary needs the CUDA backend" >&2; exit 2; }
  cmake --build "$build"
  binary=$build/perftkit
fi
[[ -x "$binary" ]] || { echo "prepare_device_carry: no executable at $binary" >&2; exit 2; }
cp "$binary" third_party/device/perftkit
strip third_party/device/perftkit 2> /dev/null || true
"$binary" --version | head -1 > third_party/device/VERSION
git rev-parse HEAD > third_party/device/COMMIT 2> /dev/null || echo none > third_party/device/COMMIT
if [[ -n "$peer" ]]; then
  [[ -x "$peer" ]] || { echo "prepare_device_carry: no executable peer at $peer" >&2; exit 2; }
  mkdir -p third_party/peer
  cp "$peer" third_party/peer/perft_gpu
  git -C "$(dirname "$(realpath "$peer")")" rev-parse HEAD > third_party/peer/COMMIT 2> /dev/null ||
    echo unknown > third_party/peer/COMMIT
fi

size_mb=$(du -sm third_party | cut -f1)
echo "prepare_device_carry: third_party holds ${size_mb} MiB:"
du -sh third_party/* | sed 's/^/  /'
if ((size_mb >= CARRY_LIMIT_MB)); then
  echo "prepare_device_carry: ${size_mb} MiB is over the ${CARRY_LIMIT_MB} MiB a device run carries" >&2
  exit 1
fi
