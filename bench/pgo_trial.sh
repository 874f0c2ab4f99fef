#!/usr/bin/env bash
# Would profile-guided optimisation (g++ -fprofile-use) speed up the CPU kernels? Builds the
# AVX-512 kernel unit (host/perft/cpu_kernels_avx512.cpp, the one this machine runs) twice
# from the release build's own compile command: once instrumented, which then counts a
# training set of hashed and bulk perfts on the six standard positions, once optimised with
# that profile. Links both into copies of the release binary and runs them side by side
# (bench/side_by_side.sh) against the release binary as built: start position hashed perft 8
# and Kiwipete bulk perft 6, one core each. Writes the lines to OUT. Needs the release build
# (ninja) up to date and nothing else busy.
#   usage: bash bench/pgo_trial.sh [BUILD_DIR [ROUNDS]]
#   environment: OUT (default results/pgo-trial-<host>-<date>.txt)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/bench/machine_line.sh"
build=$(cd "${1:-$root/build/release}" && pwd)
rounds=${2:-6}
out=${OUT:-$root/results/pgo-trial-$(hostname)-$(date +%F).txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unit=host/CMakeFiles/perftkit_host.dir/perft/cpu_kernels_avx512.cpp.o
archive=host/libperftkit_host.a

commands=$(ninja -C "$build" -t commands perftkit)
compile=$(grep -F -- "-o $unit -c" <<< "$commands" | sed 's/^.*ccache //')
link=$(grep -F -- "-o perftkit " <<< "$commands" | sed 's/^: && //; s/ && :$//')
if [ -z "$compile" ] || [ -z "$link" ]; then
  echo "$0: no compile or link command for $unit in $build (a PERFTKIT_NATIVE or non-x86 build?)" >&2
  exit 1
fi
# The unit built to $work/kernels.o (one object path for both builds: the profile is found
# by it), without the dependency file, and linked into $work/$1 with the flags in $2.
build_variant() {
  local name=$1 flags=$2 command=${compile/ -o $unit / -o $work\/kernels.o }
  command=${command/-MD -MT $unit -MF $unit.d/}
  (cd "$build" && eval "$command $flags")
  mkdir -p "$work/$name.d"
  cp "$build/$archive" "$work/$name.a"
  cp "$work/kernels.o" "$work/$name.d/cpu_kernels_avx512.cpp.o"
  (cd "$work/$name.d" && ar r "$work/$name.a" cpu_kernels_avx512.cpp.o)
  local link_flags=
  [ "$name" = instrumented ] && link_flags=-fprofile-generate
  local linking=${link/ $archive / $work\/$name.a }
  linking=${linking/-o perftkit /-o $work\/$name $link_flags }
  (cd "$build" && eval "$linking")
}

kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
position3="8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
position4="r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
position5="rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
position6="r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P3/P1NP1N2/1PP1QPP1/R4RK1 w - - 0 10"

build_variant instrumented "-fprofile-generate=$work/profile -fprofile-update=atomic"
train() { "$work/instrumented" perft -t 2 "$@" > /dev/null; }
train -d 8
train -d 6 --hash 0
train --fen "$kiwipete" -d 5 --hash 0
train --fen "$kiwipete" -d 6
train --fen "$position3" -d 7 --hash 0
train --fen "$position4" -d 5 --hash 0
train --fen "$position5" -d 5 --hash 0
train --fen "$position6" -d 5 --hash 0
build_variant optimised "-fprofile-use=$work/profile -fprofile-partial-training -Wno-missing-profile"

{
  echo "commit $(git -C "$root" rev-parse --short HEAD), $(date -u +%FT%TZ), $(${compile%% *} --version | head -1)"
  cpu_and_cores
  echo "old: the release binary; new: its AVX-512 kernel unit rebuilt with -fprofile-use"
  echo "== start position, hashed perft 8, one core"
  bash "$root/bench/side_by_side.sh" "$build/perftkit" "$work/optimised" "$rounds" perft -d 8 -t 1
  echo "== Kiwipete, bulk perft 6, one core"
  bash "$root/bench/side_by_side.sh" "$build/perftkit" "$work/optimised" "$rounds" perft --fen "$kiwipete" -d 6 --hash 0 -t 1
} | tee "$out"
