#!/usr/bin/env bash
# Rebuilds fuzz/corpus/TARGET/ (committed): the seed inputs each fuzz target starts from,
# taken from the shared data (../shared/data: suites and real positions) and tests/data.
#   usage: fuzz/make_corpus.sh [PERFTKIT]   (a perftkit binary, for the work-dir seeds)
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${PERFTKIT_SHARED_DATA:-../shared/data}
PERFTKIT=${1:-build/test/perftkit}
out=fuzz/corpus
rm -rf "$out"
mkdir -p "$out"/{fuzz_fen,fuzz_suite,fuzz_pgn,fuzz_uci_moves,fuzz_classify_lines,fuzz_work_dir_records,fuzz_decompress,fuzz_uci_session,fuzz_movegen_diff}

# Seeds are named by content, so a rerun gives the same files.
seed() {  # seed TARGET < bytes
  local tmp
  tmp=$(mktemp)
  cat > "$tmp"
  mv "$tmp" "$out/$1/$(sha1sum < "$tmp" | cut -c1-16)"
}

# FENs: real positions, the standard and Chess960 suites' roots.
{ head -n 40 "$SHARED/positions/lichess-30K-games.txt" | cut -d' ' -f1-6
  grep -v '^#' "$SHARED/perft/standard.epd" | head -n 20 | cut -d';' -f1
  head -n 10 "$SHARED/perft/fischer.epd" | cut -d';' -f1; } |
  while IFS= read -r fen; do [[ -n "$fen" ]] && printf '%s' "$fen" | seed fuzz_fen; done

# Move generation against the oracle: the FEN seeds, then the edge cases that generators get
# wrong: Chess960 castling next to, onto or shielded by the rook, en passant out of a pin,
# promotions with captures, and a board of queens (more moves than a move buffer holds).
cp "$out"/fuzz_fen/* "$out/fuzz_movegen_diff/"
for fen in "4k3/8/8/8/8/8/8/rRK5 w B - 0 1" "4k3/8/8/8/8/8/8/6KR w H - 0 1" "4k3/8/8/8/8/8/8/5KRr w G - 0 1" \
           "4k3/8/8/8/8/8/8/RK1N3r w A - 0 1" "r3k1r1/8/8/8/8/8/8/1R2K2R b Kga - 0 1" "8/8/8/KPp4r/8/8/8/7k w - c6 0 1" \
           "8/8/3k4/8/2pP4/8/8/3K1B2 b - d3 0 1" "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1" \
           "kbQQQQQQ/bbQ4Q/QQ5Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1"; do
  printf '%s' "$fen" | seed fuzz_movegen_diff
done

# Suites: the first lines of each public suite, in each of its formats.
for suite in standard.epd fischer.epd perft.epd tricky.perft random.perft perft-ferdy-double-checks.epd; do
  head -n 12 "$SHARED/perft/$suite" | seed fuzz_suite
done
seed fuzz_suite < tests/data/small.perft
seed fuzz_suite < tests/data/malformed.epd

# PGN: the test games, whole files and one game each.
for pgn in tests/data/*.pgn; do
  seed fuzz_pgn < "$pgn"
  awk -v RS='' -v ORS='\n\n' 'NR % 2 == 0 { print prev; print } { prev = $0 }' "$pgn" | head -c 4000 | seed fuzz_pgn
done

# UCI moves: a FEN line, then moves (castling both ways, en passant, promotions).
printf 'startpos\ne2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f6e4\n' | seed fuzz_uci_moves
printf 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\ne1c1 a8b8 d5e6 b4c3 e1g1\n' | seed fuzz_uci_moves
printf 'rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1\nd5c6 f2g1q f2e1n\n' | seed fuzz_uci_moves
printf 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\ng1h1 h8g8 e1d3\n' | seed fuzz_uci_moves

# The UCI loop: sessions with every command perftkit answers.
printf 'uci\nisready\nposition startpos moves e2e4 e7e5\ngo perft 2\nd\nquit\n' | seed fuzz_uci_session
printf 'ucinewgame\nposition fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1\ngo perft 1\n' | seed fuzz_uci_session
printf 'setoption name UCI_Chess960 value true\nposition fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\ngo perft 2\n' | seed fuzz_uci_session
printf 'setoption name Threads value 2\nsetoption name Hash value 1\nposition startpos\ngo perft 3\n' | seed fuzz_uci_session
printf 'position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1b1 h1g1\nd\ngo depth 3\nstop\n' | seed fuzz_uci_session

# classify lines: FEN and EPD lines with ids, table headers with a row.
head -n 20 "$SHARED/positions/lichess-30K-games.txt" | while IFS= read -r line; do printf '%s' "$line" | seed fuzz_classify_lines; done
grep -v '^#' "$SHARED/perft/standard.epd" | head -n 5 | while IFS= read -r line; do printf '%s' "$line" | seed fuzz_classify_lines; done
head -n 2 tests/data/puzzles.csv | seed fuzz_classify_lines
head -n 2 tests/data/evals.jsonl | seed fuzz_classify_lines
printf 'id\tfen\n7\t4k3/8/8/8/8/8/8/4K3 w - - 0 1\n' | seed fuzz_classify_lines

# The work dir's files: a small run's manifest, a shard and its result.
work=$(mktemp -d)
"$PERFTKIT" perft --depth 4 --work-dir "$work/wd" --shards 2 --threads 1 >/dev/null 2>&1
seed fuzz_work_dir_records < "$work/wd/manifest"
for f in "$work"/wd/shards/* "$work"/wd/results/*; do [[ -f "$f" ]] && seed fuzz_work_dir_records < "$f"; done
rm -rf "$work"

# Compressed streams: a suite in each format, whole and cut short.
for compress in "zstd -q -c" "gzip -c" "bzip2 -c"; do
  head -n 30 "$SHARED/perft/standard.epd" | $compress | seed fuzz_decompress
  head -n 30 "$SHARED/perft/standard.epd" | $compress | head -c 200 | seed fuzz_decompress
done

for d in "$out"/*; do echo "$(basename "$d"): $(ls "$d" | wc -l) seeds, $(du -sk "$d" | cut -f1) KB"; done
