#!/usr/bin/env bash
# Dry run of the device check on this machine, as the device machine will see it: a copy of
# the tracked tree in a folder with no ../shared beside it, the carried third_party/ only
# (prepared by bench/prepare_device_carry.sh, with BINARY in place of the CUDA build), the
# CPU backend in place of the GPU, the default budget. Passes when the check exits 0 and
# leaves its JSON and log archive.
#
# usage: bench/device_check_dry_run.sh BINARY     (e.g. build/test/perftkit; .ci/run runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:?usage: bench/device_check_dry_run.sh PERFTKIT_BINARY}
binary=$(realpath "$binary")

source bench/device_dry_tree.sh
dry_tree --binary "$binary"
# ($work holds no shared/: the check finds its data in third_party/ or not at all.)

start=$(date +%s)
rc=0
(cd "$work/tree" && OUT="$work/out" PERFTKIT_CHECK_BACKEND=cpu bash bench/device_check.sh) || rc=$?
seconds=$(($(date +%s) - start))

echo "device check dry run: exit $rc in ${seconds}s (budget ${PERFTKIT_CHECK_BUDGET_S:-285}s); \$OUT holds: $(ls "$work/out" | tr '\n' ' ')"
[[ -s "$work/out/device_check.json" ]] || { echo "device check dry run: no device_check.json" >&2; exit 1; }
[[ -s "$work/out/device_check_logs.tar.gz" ]] || { echo "device check dry run: no log archive" >&2; exit 1; }
exit "$rc"
