#!/usr/bin/env bash
# The one script for a lent GPU machine: checks the GPU's perft counts against known counts
# and the CPU, then its speed, its statistics mode, batch classification, work dirs and (optionally)
# record depths, and prints a table (test, expected, got, seconds, nodes/s, status).
#
# On the device, from the repository root, after bench/prepare_device_carry.sh here:
#   bash bench/device_check.sh          (the `run` tool, carry ["third_party"], timeout_s 420)
# It uses the carried binary third_party/device/perftkit and builds (CMake, Ninja, nvcc) only
# when that binary cannot run there. The checks run most valuable first: perft correctness on
# the GPU, then speed, then statistics, then classification and record depths.
#
# Output: $OUT/device_check.json (else results/device-check-GPU-DATE.json) and
# $OUT/device_check_logs.tar.gz; logs are written outside $OUT (they would crowd out the JSON).
# Exit: 0 every check that ran passed (some may be reported skipped or slow for the budget),
# 1 a wrong count or a check that failed to run, 2 no binary (build failure) or no GPU.
#
# Environment: PERFTKIT_CHECK_BUDGET_S (default 285, build included), PERFTKIT_CHECK_BACKEND
# (cuda; "cpu" dry-runs the script without a GPU), PERFTKIT_CHECK_BINARY (default
# third_party/device/perftkit), PERFTKIT_CHECK_BUILD_DIR (build/device),
# PERFTKIT_CHECK_RECORD=1 adds start position perft 10 and 11 (give a budget of 600 s or more).
set -u -o pipefail
cd "$(dirname "$0")/.." || exit 2

BUDGET=${PERFTKIT_CHECK_BUDGET_S:-285}
BUILD=${PERFTKIT_CHECK_BUILD_DIR:-build/device}
BACKEND=${PERFTKIT_CHECK_BACKEND:-cuda}  # "cpu" dry-runs this script on a machine without a GPU
CARRIED=${PERFTKIT_CHECK_BINARY:-third_party/device/perftkit}
START=$(date +%s.%N)
OUTDIR=${OUT:-results}
mkdir -p "$OUTDIR"
LOGDIR=$(mktemp -d "${TMPDIR:-/tmp}/perftkit-device-check.XXXXXX")/device_check_logs
mkdir -p "$LOGDIR"

now() { date +%s.%N; }
elapsed_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
remaining() { awk -v s="$START" -v b="$BUDGET" -v n="$(now)" 'BEGIN { printf "%d", b - (n - s) }'; }
json_escape() { printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' | tr -d '\000-\037'; }
# First value of "key" in compact JSON (numbers and plain strings).
json_field() { grep -o "\"$2\":\"\\?[^,\"}]*" "$1" | head -1 | sed -e "s/^\"$2\":\"\\?//"; }
# The logs, as one archive beside the JSON.
pack_logs() { tar -czf "$OUTDIR/device_check_logs.tar.gz" -C "$(dirname "$LOGDIR")" device_check_logs 2> /dev/null; }

# ---------------------------------------------------------------- binary
echo "== perftkit device check (budget ${BUDGET}s, backend $BACKEND)"
# usable BINARY: runs here, and has the CUDA backend and sees a device when the backend is cuda.
usable() {
  [[ -x "$1" ]] || return 1
  "$1" info --json > "$LOGDIR/info.json" 2> "$LOGDIR/info.err" || return 1
  [[ "$BACKEND" != cuda ]] && return 0
  grep -q '"cuda_built":true' "$LOGDIR/info.json" && ! grep -q '"gpus":\[\]' "$LOGDIR/info.json"
}

BUILD_SECONDS=0
if usable "$CARRIED"; then
  PERFTKIT=$CARRIED
  echo "carried binary $CARRIED: $("$PERFTKIT" --version 2>/dev/null | head -1), built from $(cat "$(dirname "$CARRIED")/COMMIT" 2>/dev/null || echo '?')"
else
  [[ -e "$CARRIED" ]] && { echo "carried binary $CARRIED cannot run here:"; cat "$LOGDIR/info.err" "$LOGDIR/info.json" 2>/dev/null | tail -3; }
  echo "building on this machine"
  if ! command -v nvcc > /dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then export PATH=/usr/local/cuda/bin:$PATH; fi
  [[ -f third_party/cli11/include/CLI/CLI.hpp ]] || [[ -f /usr/include/CLI/CLI.hpp ]] ||
    echo "warning: no CLI11 headers; run bench/prepare_device_carry.sh and carry third_party" >&2
  build_start=$(now)
  if ! timeout 60 cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPERFTKIT_BUILD_TESTS=OFF \
      -DCMAKE_CUDA_ARCHITECTURES=90 > "$LOGDIR/configure.log" 2>&1; then
    tail -30 "$LOGDIR/configure.log"
    echo "device_check: configure failed" >&2
    pack_logs
    exit 2
  fi
  if [[ "$BACKEND" == cuda ]] && { ! grep -q '^CMAKE_CUDA_COMPILER:[A-Z]*=/' "$BUILD/CMakeCache.txt" || [[ ! -d "$BUILD/cuda" ]]; }; then
    echo "device_check: CMake found no CUDA compiler; the CUDA backend would not be built" >&2
    pack_logs
    exit 2
  fi
  build_timeout=$(( $(remaining) - 60 ))
  build_cap=${PERFTKIT_CHECK_BUILD_CAP_S:-240}
  (( build_timeout > build_cap )) && build_timeout=$build_cap
  if (( build_timeout < 30 )) || ! timeout "$build_timeout" cmake --build "$BUILD" -j "$(nproc)" > "$LOGDIR/build.log" 2>&1; then
    grep -v "^ptxas info\|Function properties\|bytes stack frame" "$LOGDIR/build.log" | tail -30
    echo "device_check: build failed or took over ${build_timeout}s" >&2
    pack_logs
    exit 2
  fi
  BUILD_SECONDS=$(elapsed_since "$build_start")
  PERFTKIT="$BUILD/perftkit"
  echo "built in ${BUILD_SECONDS}s: $("$PERFTKIT" --version 2>/dev/null | head -1)"
  if ! usable "$PERFTKIT"; then
    echo "device_check: the binary sees no CUDA device:" >&2
    cat "$LOGDIR/info.err" "$LOGDIR/info.json" >&2
    pack_logs
    exit 2
  fi
fi

# ---------------------------------------------------------------- machine
echo "== GPU"
GPU_NAME=unknown GPU_DRIVER=unknown GPU_MEMORY=unknown
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,memory.used,clocks.max.sm,clocks.max.mem,power.limit,temperature.gpu \
    --format=csv 2>&1 | head -5
  IFS=, read -r GPU_NAME GPU_DRIVER GPU_MEMORY < <(nvidia-smi --query-gpu=name,driver_version,memory.total \
    --format=csv,noheader 2>/dev/null | head -1)
else
  echo "nvidia-smi not found"
fi
# The commit the binary was built from (its --version line); the tree's own git metadata on a
# device is that of the session's start, not of the carried binary.
COMMIT=$("$PERFTKIT" --version 2>/dev/null | sed -n 's/.*(commit \([0-9a-f]*\)).*/\1/p' | head -1)
if [[ -z "$COMMIT" ]]; then
  COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo none)
  [[ -n "$(git status --porcelain 2>/dev/null | grep -v '^??' | head -1)" ]] && COMMIT="$COMMIT+dirty"
fi

# ---------------------------------------------------------------- data
DATA="" POSITIONS=""
for d in third_party/perft-data ../shared/data/perft; do
  [[ -f "$d/standard.epd" ]] && DATA=$d && break
done
for d in third_party/positions ../shared/data/positions; do
  [[ -f "$d/lichess-30K-games.txt" ]] && POSITIONS=$d && break
done
echo "== data: suites ${DATA:-tests/data (no carried suites)}, positions ${POSITIONS:-none}"

# ---------------------------------------------------------------- checks
declare -a ROWS JSON_TESTS
MISMATCH=0 BROKEN=0 SIGNATURE=0

# record NAME EXPECTED GOT SECONDS NODES STATUS WALL
record() {
  local nps="-" secs="$4"
  [[ "$4" != "-" ]] && secs=$(awk -v s="$4" 'BEGIN { printf "%.3f", s }')
  [[ "$5" =~ ^[0-9]+$ ]] && [[ "$4" != "-" ]] && nps=$(awk -v n="$5" -v s="$4" 'BEGIN { if (s > 0) printf "%.3g", n / s; else print "-" }')
  ROWS+=("$(printf '%-26s %-18s %-22s %9s %10s  %s' "$1" "$2" "$3" "$secs" "$nps" "$6")")
  JSON_TESTS+=("{\"test\":\"$(json_escape "$1")\",\"expected\":\"$(json_escape "$2")\",\"got\":\"$(json_escape "$3")\",\"seconds\":\"$4\",\"wall_seconds\":$7,\"nodes\":\"$5\",\"nodes_per_second\":\"$nps\",\"status\":\"$6\"}")
  case "$6" in
    # The signature sums counts awk holds exactly (up to 15 digits): bare kings' 33 would swamp it.
    ok) [[ "$5" =~ ^[0-9]{1,15}$ ]] && SIGNATURE=$(awk -v a="$SIGNATURE" -v b="$5" 'BEGIN { printf "%.0f", a + b }') ;;
    MISMATCH) MISMATCH=1 ;;
    # Out of time or budget, or no data here: reported, not a failure.
    slow* | SKIPPED* | TIMEOUT*) ;;
    *) BROKEN=1 ;;
  esac
  printf '%-26s %s\n' "$1" "$6"
}

# step_timeout CAP: seconds this step may run, 0 when the budget is spent.
step_timeout() {
  local left=$(( $(remaining) - 5 ))
  (( left > $1 )) && left=$1
  (( left < 5 )) && left=0
  echo "$left"
}

# perft_check NAME FEN DEPTH EXPECTED CAP [REPORTED_BACKEND [OPTION...]]: `perft --json` on the
# backend, with the options; the count must be EXPECTED and the backend the JSON names
# REPORTED_BACKEND (default: the one asked for).
perft_check() {
  local name=$1 fen=$2 depth=$3 expected=$4 cap=$5 reported=${6:-$BACKEND} t log="$LOGDIR/$1.json"
  shift $(( $# < 6 ? $# : 6 ))
  t=$(step_timeout "$cap")
  if (( t == 0 )); then record "$name" "$expected" "-" "-" "-" "SKIPPED(budget)" 0; return; fi
  local s rc
  s=$(now)
  timeout "$t" "$PERFTKIT" perft --fen "$fen" --depth "$depth" --backend "$BACKEND" "$@" --json > "$log" 2> "$LOGDIR/$name.err"
  rc=$?
  local wall nodes seconds backend
  wall=$(elapsed_since "$s")
  nodes=$(json_field "$log" nodes) seconds=$(json_field "$log" seconds) backend=$(json_field "$log" backend)
  if (( rc == 124 )); then record "$name" "$expected" "-" "-" "-" "TIMEOUT(${t}s)" "$wall"
  elif (( rc != 0 )) || [[ -z "$nodes" ]]; then
    record "$name" "$expected" "exit $rc" "-" "-" "ERROR" "$wall"; tail -3 "$LOGDIR/$name.err" >&2
  elif [[ "$backend" != "$reported" ]]; then record "$name" "$expected" "$nodes ($backend)" "$seconds" "$nodes" "ERROR(backend)" "$wall"
  elif [[ "$nodes" == "$expected" ]]; then record "$name" "$expected" "$nodes" "$seconds" "$nodes" ok "$wall"
  else record "$name" "$expected" "$nodes" "$seconds" "$nodes" MISMATCH "$wall"
  fi
}

# workdir_check NAME FEN DEPTH EXPECTED CAP [REPORTED_BACKEND]: the same count through a fresh
# work dir (split into shards, each counted and recorded, then summed), as a cluster runs it.
workdir_check() {
  local dir
  dir="$(dirname "$LOGDIR")/work-$1"
  rm -rf "$dir"
  perft_check "$1" "$2" "$3" "$4" "$5" "${6:-$BACKEND}" --work-dir "$dir"
  rm -rf "$dir"
}

# hash_check NAME FEN DEPTH MB CAP: `perft --hash MB --cross-check` on the backend (the
# pipeline's transposition-table mode, two key sets) against the CPU backend's count.
hash_check() {
  local name=$1 fen=$2 depth=$3 mb=$4 t log="$LOGDIR/$1.json" ref="$LOGDIR/$1.cpu.json"
  t=$(step_timeout "$5")
  if (( t == 0 )); then record "$name" "cpu count" "-" "-" "-" "SKIPPED(budget)" 0; return; fi
  local s rc wall nodes seconds backend expected
  s=$(now)
  timeout "$t" "$PERFTKIT" perft --fen "$fen" --depth "$depth" --hash "$mb" --cross-check --backend "$BACKEND" --json \
    > "$log" 2> "$LOGDIR/$name.err"
  rc=$?
  wall=$(elapsed_since "$s")
  nodes=$(json_field "$log" nodes) seconds=$(json_field "$log" seconds) backend=$(json_field "$log" backend)
  if (( rc == 124 )); then record "$name" "cpu count" "-" "-" "-" "TIMEOUT(${t}s)" "$wall"; return; fi
  if (( rc == 1 )); then record "$name" "seeds agree" "cross-check failed" "$seconds" "$nodes" MISMATCH "$wall"; return; fi
  if (( rc != 0 )) || [[ -z "$nodes" ]]; then
    record "$name" "cpu count" "exit $rc" "-" "-" "ERROR" "$wall"; tail -3 "$LOGDIR/$name.err" >&2; return
  fi
  if [[ "$backend" != "$BACKEND" ]]; then record "$name" "cpu count" "$nodes ($backend)" "$seconds" "$nodes" "ERROR(backend)" "$wall"; return; fi
  t=$(step_timeout "$5")
  if (( t == 0 )) || ! timeout "$t" "$PERFTKIT" perft --fen "$fen" --depth "$depth" --backend cpu --json > "$ref" 2>/dev/null; then
    record "$name" "cpu count" "$nodes (no cpu reference)" "$seconds" "$nodes" "slow(cpu reference)" "$wall"; return
  fi
  expected=$(json_field "$ref" nodes)
  if [[ "$nodes" == "$expected" ]]; then record "$name" "$expected" "$nodes" "$seconds" "$nodes" ok "$wall"
  else record "$name" "$expected" "$nodes" "$seconds" "$nodes" MISMATCH "$wall"
  fi
}

# stats_check NAME FEN DEPTH CAP: `perft --stats` on the backend against the CPU backend,
# every counter (the "stats" objects of both JSON outputs compared whole).
stats_check() {
  local name=$1 fen=$2 depth=$3 t log="$LOGDIR/$1.json" ref="$LOGDIR/$1.cpu.json"
  t=$(step_timeout "$4")
  if (( t == 0 )); then record "$name" "cpu stats" "-" "-" "-" "SKIPPED(budget)" 0; return; fi
  local s rc wall nodes seconds
  s=$(now)
  timeout "$t" "$PERFTKIT" perft --fen "$fen" --depth "$depth" --stats --backend "$BACKEND" --json > "$log" 2> "$LOGDIR/$name.err"
  rc=$?
  wall=$(elapsed_since "$s")
  nodes=$(json_field "$log" nodes) seconds=$(json_field "$log" seconds)
  if (( rc == 124 )); then record "$name" "cpu stats" "-" "-" "-" "TIMEOUT(${t}s)" "$wall"; return; fi
  if (( rc != 0 )) || [[ -z "$nodes" ]]; then
    record "$name" "cpu stats" "exit $rc" "-" "-" "ERROR" "$wall"; tail -3 "$LOGDIR/$name.err" >&2; return
  fi
  t=$(step_timeout "$4")
  if (( t == 0 )) || ! timeout "$t" "$PERFTKIT" perft --fen "$fen" --depth "$depth" --stats --backend cpu --json > "$ref" 2>/dev/null; then
    record "$name" "cpu stats" "$nodes (no cpu reference)" "$seconds" "$nodes" "slow(cpu reference)" "$wall"; return
  fi
  if [[ "$(grep -o '"stats":{[^}]*}' "$log")" == "$(grep -o '"stats":{[^}]*}' "$ref")" ]]; then
    record "$name" "cpu stats" "all counters equal" "$seconds" "$nodes" ok "$wall"
  else record "$name" "cpu stats" "counters differ" "$seconds" "$nodes" MISMATCH "$wall"
  fi
}

# classify_check NAME FILE CAP: `classify --backend BACKEND` against `--backend cpu` on FILE,
# the rows compared byte for byte; the row rate of the backend's run is reported.
classify_check() {
  local name=$1 file=$2 t out="$LOGDIR/$1.csv" ref="$LOGDIR/$1.cpu.csv"
  if [[ ! -f "$file" ]]; then record "$name" "cpu rows" "-" "-" "-" "SKIPPED(no data)" 0; return; fi
  t=$(step_timeout "$3")
  if (( t == 0 )); then record "$name" "cpu rows" "-" "-" "-" "SKIPPED(budget)" 0; return; fi
  local s rc wall rows
  s=$(now)
  timeout "$t" "$PERFTKIT" classify --backend "$BACKEND" "$file" -o "$out" 2> "$LOGDIR/$name.err"
  rc=$?
  wall=$(elapsed_since "$s")
  rows=$(( $(wc -l < "$out") - 1 ))
  if (( rc == 124 )); then record "$name" "cpu rows" "-" "-" "-" "TIMEOUT(${t}s)" "$wall"; return; fi
  if (( rc != 0 )); then record "$name" "cpu rows" "exit $rc" "-" "-" "ERROR" "$wall"; tail -3 "$LOGDIR/$name.err" >&2; return; fi
  "$PERFTKIT" classify --backend cpu "$file" -o "$ref" 2>/dev/null
  if cmp -s "$out" "$ref"; then record "$name" "cpu rows" "$rows rows equal" "$wall" "$rows" ok "$wall"
  else record "$name" "cpu rows" "rows differ" "$wall" "$rows" MISMATCH "$wall"
  fi
}

# verify_check NAME MAX_DEPTH EXPECT_FAIL CAP FILE...  (MAX_DEPTH "-" = every listed depth)
verify_check() {
  local name=$1 max=$2 expect_fail=$3 cap=$4 t log="$LOGDIR/$1.json"
  shift 4
  t=$(step_timeout "$cap")
  if (( t == 0 )); then record "$name" "0 failed" "-" "-" "-" "SKIPPED(budget)" 0; return; fi
  local -a depth_arg=()
  [[ "$max" != "-" ]] && depth_arg=(--max-depth "$max")
  local s rc
  s=$(now)
  timeout "$t" "$PERFTKIT" verify "$@" "${depth_arg[@]}" --backend "$BACKEND" --json -q > "$log" 2> "$LOGDIR/$name.err"
  rc=$?
  local wall passed failed nodes seconds expected got
  wall=$(elapsed_since "$s")
  passed=$(json_field "$log" passed) failed=$(json_field "$log" failed)
  nodes=$(json_field "$log" nodes) seconds=$(json_field "$log" seconds)
  got="${passed:-?} passed, ${failed:-?} failed"
  if (( expect_fail )); then expected=">0 failed, exit 1"; else expected="0 failed"; fi
  if (( rc == 124 )); then record "$name" "$expected" "-" "-" "-" "TIMEOUT(${t}s)" "$wall"
  elif [[ -z "$failed" ]] || (( rc != 0 && rc != 1 )); then
    record "$name" "$expected" "exit $rc" "-" "-" "ERROR" "$wall"; tail -3 "$LOGDIR/$name.err" >&2
  elif (( expect_fail )); then
    # Negative control: a suite with wrong counts must be caught on the GPU path too.
    if (( rc == 1 && failed > 0 )); then record "$name" "$expected" "$got" "$seconds" "$nodes" ok "$wall"
    else record "$name" "$expected" "$got, exit $rc" "$seconds" "$nodes" "ERROR(not caught)" "$wall"; fi
  elif (( rc == 0 && failed == 0 && passed > 0 )); then record "$name" "$expected" "$got" "$seconds" "$nodes" ok "$wall"
  else record "$name" "$expected" "$got" "$seconds" "$nodes" MISMATCH "$wall"
  fi
}

# bench_check NAME CAP OPTIONAL ARGS...: `perftkit bench ARGS --json`, one table row per
# backend (its signature against the expected one). An OPTIONAL step that times out is
# reported as slow, not as a failure.
bench_check() {
  local name=$1 cap=$2 optional=$3 t log="$LOGDIR/$1.json"
  shift 3
  t=$(step_timeout "$cap")
  if (( t == 0 )); then
    if (( optional )); then record "$name" "signature" "-" "-" "-" "slow(no budget left)" 0
    else record "$name" "signature" "-" "-" "-" "SKIPPED(budget)" 0; fi
    return
  fi
  local s rc wall expected
  s=$(now)
  timeout "$t" "$PERFTKIT" bench "$@" --json "$log" > "$LOGDIR/$name.txt" 2> "$LOGDIR/$name.err"
  rc=$?
  wall=$(elapsed_since "$s")
  if (( rc == 124 )); then
    if (( optional )); then record "$name" "signature" "-" "-" "-" "slow(timeout ${t}s)" "$wall"
    else record "$name" "signature" "-" "-" "-" "TIMEOUT(${t}s)" "$wall"; fi
    return
  fi
  expected=$(json_field "$log" expected_signature)
  if (( rc != 0 && rc != 1 )) || [[ -z "$expected" ]]; then
    record "$name" "signature" "exit $rc" "-" "-" "ERROR" "$wall"; tail -3 "$LOGDIR/$name.err" >&2; return
  fi
  BENCH_JSON+=("$(tr -d '\n' < "$log")")
  tail -12 "$LOGDIR/$name.txt" | grep -v '^$'
  # One row per backend: "backend":"B","cases":N,"signature":S,"ok":X,"seconds":T,...
  local entry backend signature ok seconds
  while IFS= read -r entry; do
    backend=$(sed -e 's/.*"backend":"\([^"]*\)".*/\1/' <<< "$entry")
    signature=$(sed -e 's/.*"signature":\([0-9]*\).*/\1/' <<< "$entry")
    ok=$(sed -e 's/.*"ok":\([a-z]*\).*/\1/' <<< "$entry")
    seconds=$(sed -e 's/.*"seconds":\([-0-9.e+]*\).*/\1/' <<< "$entry")
    if [[ "$ok" == true ]]; then record "${name}_$backend" "$expected" "$signature" "$seconds" "$signature" ok "$wall"
    else record "${name}_$backend" "$expected" "$signature" "$seconds" "$signature" MISMATCH "$wall"; fi
  done < <(grep -o '{"backend":"[^"]*","cases":[0-9]*,"signature":[0-9]*,"ok":[a-z]*,"seconds":[-0-9.e+]*' "$log")
}

START_FEN="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

if [[ "$BACKEND" == cuda ]]; then PIPE=pipeline-cuda GPU_BACKENDS=cuda,pipeline-cuda
else PIPE=pipeline-omp GPU_BACKENDS=pipeline-omp; fi
declare -a BENCH_JSON
suites=()
if [[ -n "$DATA" ]]; then
  for f in standard.epd perft.epd perft-ferdy-double-checks.epd tricky.perft fischer.epd; do suites+=(--suite "$DATA/$f"); done
else
  for f in tests/data/small.epd tests/data/small.perft; do [[ -f "$f" ]] && suites+=(--suite "$f"); done
fi

# 1. Correctness: counts on the GPU against known counts, the pipeline with the CUDA policy
#    (pipeline-omp in a dry run) against the CPU backend on the suites, a negative control.
echo "== correctness (backend $BACKEND against known counts and the CPU)"
perft_check start_d5 "$START_FEN" 5 4865609 30
perft_check kiwipete_d5 "$KIWIPETE" 5 193690690 30
if (( ${#suites[@]} )); then
  bench_check pipeline_suites 75 0 "${suites[@]}" --max-nodes 10000000 --backend "cpu,$PIPE" --repeats 1 --warmup 0
else
  record pipeline_suites "0 failed" "-" "-" "-" "SKIPPED(no data)" 0
fi
[[ -f tests/data/wrong.epd ]] && verify_check negative_control - 1 20 tests/data/wrong.epd
if [[ -n "$DATA" ]]; then
  verify_check standard_d6 6 0 60 "$DATA/standard.epd"
  verify_check tricky_full - 0 30 "$DATA/tricky.perft"
  verify_check ferdy_full - 0 30 "$DATA/perft-ferdy-double-checks.epd"
else
  small=()
  for f in tests/data/small.epd tests/data/small.perft; do [[ -f "$f" ]] && small+=("$f"); done
  if (( ${#small[@]} )); then verify_check tests_data_small - 0 60 "${small[@]}"
  else record tests_data_small "0 failed" "-" "-" "-" "SKIPPED(no data)" 0; fi
fi

# 2. Speed: deeper counts, the transposition-table mode, the bench.
echo "== speed"
perft_check start_d7 "$START_FEN" 7 3195901860 90
perft_check kiwipete_d6 "$KIWIPETE" 6 8031647685 90
hash_check hash_kiwipete_d6 "$KIWIPETE" 6 1024 60
bench_check bench_d0 45 0 --backend "cpu,$GPU_BACKENDS" --repeats 3 --warmup 1

# 3. Statistics against the CPU, every counter.
echo "== statistics"
stats_check stats_kiwipete_d5 "$KIWIPETE" 5 40
stats_check stats_clock95_d6 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 95 40" 6 40

# 4. Classification, the rest of the suites, a deeper bench, record depths.
echo "== classification, whole suites, record depths"
classify_check classify_lichess "${POSITIONS:-none}/lichess-30K-games.txt" 30
if [[ -n "$DATA" ]]; then
  verify_check perft_epd_full - 0 60 "$DATA/perft.epd"
  verify_check fischer_d5 5 0 90 "$DATA/fischer.epd"
  verify_check random_d4 4 0 90 "$DATA/random.perft"
fi
# Work dirs: start position perft 7 in shards (its time against start_d7's is what a cluster
# pays per shard), and bare kings at depth 40, whose shards outgrow the pipeline's 64-bit
# words and are counted on the CPU core (on 6862047 each shard tried the GPU first: 133 of
# 1,024 in 50 s on an H200).
workdir_check workdir_start_d7 "$START_FEN" 7 3195901860 60
workdir_check workdir_bare_kings_d40 "k7/8/8/8/8/8/8/K7 w - - 0 1" 40 145786360861107587312989827530171 30 cpu
# The bench scaled for a GPU (ten times the work): for the device only.
if [[ "$BACKEND" == cuda ]]; then bench_check bench_d1 90 1 --backend "$GPU_BACKENDS" --depth-offset 1 --repeats 3 --warmup 1
else record bench_d1 "signature" "-" "-" "-" "SKIPPED(GPU workload)" 0; fi
if [[ "${PERFTKIT_CHECK_RECORD:-0}" == 1 ]]; then
  perft_check record_start_d10 "$START_FEN" 10 69352859712417 150
  perft_check record_start_d11 "$START_FEN" 11 2097651003696806 300
fi

# ---------------------------------------------------------------- report
TOTAL_SECONDS=$(elapsed_since "$START")
echo
printf '%-26s %-18s %-22s %9s %10s  %s\n' test expected got seconds nodes/s status
for row in "${ROWS[@]}"; do echo "$row"; done
echo "signature (nodes of passing checks): $SIGNATURE; build ${BUILD_SECONDS}s, total ${TOTAL_SECONDS}s"

if [[ -n "${OUT:-}" ]]; then JSON_FILE="$OUT/device_check.json"
else
  slug=$(printf '%s' "$GPU_NAME" | tr -cs 'A-Za-z0-9' '-' | sed 's/^-*//; s/-*$//')
  JSON_FILE="results/device-check-${slug:-gpu}-$(date -u +%Y%m%dT%H%M%SZ).json"
fi
{
  printf '{"tool":"bench/device_check.sh","date":"%s","commit":"%s",' "$(date -u +%FT%TZ)" "$(json_escape "$COMMIT")"
  printf '"gpu":"%s","driver":"%s","gpu_memory":"%s",' "$(json_escape "${GPU_NAME# }")" \
    "$(json_escape "${GPU_DRIVER# }")" "$(json_escape "${GPU_MEMORY# }")"
  printf '"binary":"%s","cpu":"%s","build_seconds":%s,"total_seconds":%s,"budget_seconds":%s,"signature":%s,' \
    "$(json_escape "$PERFTKIT")" "$(json_escape "$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //')")" \
    "$BUILD_SECONDS" "$TOTAL_SECONDS" "$BUDGET" "$SIGNATURE"
  printf '"backend":"%s","passed":%s,"tests":[' "$(json_escape "$BACKEND")" "$( (( MISMATCH || BROKEN )) && echo false || echo true)"
  (IFS=,; printf '%s' "${JSON_TESTS[*]}")
  printf '],"bench":['
  (IFS=,; printf '%s' "${BENCH_JSON[*]}")
  printf ']}\n'
} > "$JSON_FILE"
pack_logs
echo "wrote $JSON_FILE and $OUTDIR/device_check_logs.tar.gz"

skipped=$(printf '%s\n' "${ROWS[@]}" | grep -c 'SKIPPED\|slow\|TIMEOUT')
if (( MISMATCH )); then echo "device_check: MISMATCH" >&2; exit 1; fi
if (( BROKEN )); then echo "device_check: a check failed to run (ERROR rows)" >&2; exit 1; fi
echo "device_check: every check that ran passed ($skipped skipped or cut short)"
