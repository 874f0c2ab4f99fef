#!/usr/bin/env bash
# Prepares the git-ignored files a lent GPU machine needs (it has no network and no
# libcli11-dev): CLI11's headers, and the perft suites from ../shared/data/perft when present.
# Run it here, then carry "third_party" with the device run of bench/device_check.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

cli11_src=${CLI11_INCLUDE:-/usr/include}/CLI
if [[ ! -f "$cli11_src/CLI.hpp" ]]; then
  echo "prepare_device_carry: no CLI11 headers at $cli11_src (install libcli11-dev or set CLI11_INCLUDE)" >&2
  exit 2
fi
rm -rf third_party/cli11/include/CLI
mkdir -p third_party/cli11/include
cp -r "$cli11_src" third_party/cli11/include/CLI
echo "prepare_device_carry: CLI11 headers -> third_party/cli11/include/CLI ($(find third_party/cli11/include/CLI -type f | wc -l) files)"

if [[ -d ../shared/data/perft ]]; then
  rm -rf third_party/perft-data
  mkdir -p third_party/perft-data
  cp ../shared/data/perft/* third_party/perft-data/
  echo "prepare_device_carry: perft suites -> third_party/perft-data ($(find third_party/perft-data -type f | wc -l) files)"
else
  echo "prepare_device_carry: ../shared/data/perft absent; device_check.sh will use tests/data"
fi
du -sh third_party
