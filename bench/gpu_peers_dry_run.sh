#!/usr/bin/env bash
# Dry run of bench/gpu_peers.sh on this machine, as the device machine will see it: a copy of
# the tracked tree with no ../shared beside it, the carried third_party/ only (BINARY in place
# of the CUDA build, bench/gpu_peers_stand_in.py in place of the peer), the CPU backend at
# shallower depths. Passes when the script exits 0 and every row is exact on both sides.
#
# usage: bench/gpu_peers_dry_run.sh BINARY     (e.g. build/test/perftkit; .ci/run runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:?usage: bench/gpu_peers_dry_run.sh PERFTKIT_BINARY}
binary=$(realpath "$binary")

source bench/device_dry_tree.sh
dry_tree --binary "$binary" --peer bench/gpu_peers_stand_in.py

start=$(date +%s)
rc=0
(cd "$work/tree" && OUT="$work/out" PERFTKIT_STAND_IN_BINARY="$work/tree/third_party/device/perftkit" \
  bash bench/gpu_peers.sh --dry-run) || rc=$?
echo "gpu_peers dry run: exit $rc in $(($(date +%s) - start))s; \$OUT holds: $(ls "$work/out" | tr '\n' ' ')"
json=$(ls "$work"/out/gpu-peers-cpu-dry-run-*.json 2> /dev/null | head -1)
[[ -s "$json" ]] || { echo "gpu_peers dry run: no JSON" >&2; exit 1; }
[[ -s "${json%.json}.md" ]] || { echo "gpu_peers dry run: no .md beside the JSON" >&2; exit 1; }
# Every row ran on both sides and is exact: the JSON, not the exit code alone, says so.
python3 - "$json" << 'PY'
import json, sys
report = json.load(open(sys.argv[1]))
rows = report["rows"]
bad = [r for r in rows if r["status"] != "ok" or r.get("nodes") != r["expected"] or r.get("peer_nodes") != r["expected"]
       or not r.get("perftkit_seconds") or r.get("peer_seconds") is None]
for key in ("device", "commit", "rows"):
    if key not in report: sys.exit(f"gpu_peers dry run: the JSON lacks {key}")
if len(rows) != 10 or bad or sum(1 for r in rows if r.get("work_dir")) != 1:
    sys.exit(f"gpu_peers dry run: {len(rows)} rows, not exact or incomplete: {bad}")
print(f"gpu_peers dry run: {len(rows)} rows exact on both sides")
PY
exit "$rc"
