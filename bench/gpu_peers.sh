#!/usr/bin/env bash
# The one command for a lent GPU: perftkit and perft_gpu_2026 side by side on the same card
# (bench/gpu_peers.py says what it runs and writes). On the device, from the repository root,
# after bench/prepare_device_carry.sh --peer PEER_BINARY here:
#   bash bench/gpu_peers.sh            (the `run` tool, carry ["third_party"], timeout_s 480)
set -u -o pipefail
cd "$(dirname "$0")/.." || exit 2
exec python3 bench/gpu_peers.py "$@"
