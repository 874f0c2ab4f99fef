#!/bin/bash
# Fresh-clone build timings (results/build-times.md): cold and warm ccache, release, cpu and
# CI, one step at a time. Run it with nothing else compiling.
#
#   bash bench/build_times.sh [REPO] [WORK_DIR]   # summary in WORK_DIR/summary.txt
export PATH=/usr/local/cuda/bin:$PATH
REPO=$(cd "${1:-$(dirname "$0")/..}" && pwd)
C=${2:-/tmp/perftkit-build-times}; rm -rf "$C"; mkdir -p "$C"
log() { echo "$(date +%T) $*" >> $C/summary.txt; }
log "commit $(git -C $REPO rev-parse --short HEAD)"
# 1. cold cache, nvcc present: cmake --workflow --preset release
git clone -q $REPO $C/a && cd $C/a
export CCACHE_DIR=$C/cache-release; mkdir -p $CCACHE_DIR
s=$(date +%s.%N); cmake --workflow --preset release > $C/release-cold.log 2>&1; rc=$?; e=$(date +%s.%N)
log "release cold: rc=$rc $(echo "$e - $s" | bc) s"
python3 bench/ninja_unit_times.py build/release > $C/release-cold-units.txt 2>&1
ccache -s > $C/ccache-release-cold.txt 2>&1
# 2. cold cache, the cpu workflow's build (configure untimed apart)
export CCACHE_DIR=$C/cache-cpu; mkdir -p $CCACHE_DIR
cmake --preset cpu > $C/cpu-config.log 2>&1
s=$(date +%s.%N); cmake --build --preset cpu > $C/cpu-cold.log 2>&1; rc=$?; e=$(date +%s.%N)
log "cpu build cold: rc=$rc $(echo "$e - $s" | bc) s"
python3 bench/ninja_unit_times.py build/cpu > $C/cpu-cold-units.txt 2>&1
ctest --preset cpu > $C/cpu-test.log 2>&1; log "cpu tests: rc=$? $(grep -E 'tests passed' $C/cpu-test.log)"
# 3. warm cache: a second clone of the same commit, then one host .cpp changed
export CCACHE_DIR=$C/cache-release
git clone -q $REPO $C/b && cd $C/b
s=$(date +%s.%N); cmake --workflow --preset release > $C/release-warm.log 2>&1; rc=$?; e=$(date +%s.%N)
log "release warm (second clone): rc=$rc $(echo "$e - $s" | bc) s"
ccache -s > $C/ccache-release-warm.txt 2>&1
echo "namespace perftkit { [[maybe_unused]] static int edited_for_timing = 1; }" >> host/perft/driver.cpp
s=$(date +%s.%N); cmake --build --preset release > $C/release-touch.log 2>&1; rc=$?; e=$(date +%s.%N)
log "release rebuild after editing host/perft/driver.cpp: rc=$rc $(echo "$e - $s" | bc) s"
touch host/notation/fen.cpp
s=$(date +%s.%N); cmake --build --preset release > $C/release-touch2.log 2>&1; rc=$?; e=$(date +%s.%N)
log "release rebuild after touching host/notation/fen.cpp: rc=$rc $(echo "$e - $s" | bc) s"
# 4. bash .ci/run on a cold cache, then 5. on a warm one (a second clone of the same commit)
export CCACHE_DIR=$C/cache-ci; mkdir -p $CCACHE_DIR
git clone -q $REPO $C/c && cd $C/c
s=$(date +%s.%N); bash .ci/run > $C/ci-cold.log 2>&1; rc=$?; e=$(date +%s.%N)
log "ci cold: rc=$rc $(echo "$e - $s" | bc) s; $(grep -E 'tests passed' $C/ci-cold.log)"
git clone -q $REPO $C/d && cd $C/d
s=$(date +%s.%N); bash .ci/run > $C/ci-warm.log 2>&1; rc=$?; e=$(date +%s.%N)
log "ci warm: rc=$rc $(echo "$e - $s" | bc) s; $(grep -E 'tests passed' $C/ci-warm.log)"
log done
