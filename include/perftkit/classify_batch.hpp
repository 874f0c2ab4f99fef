// Classification of many positions at once: classify() of each, where the AVX-512 counter is
// compiled in (count_moves_avx512.hpp) with the legal moves and checking pieces of eight
// positions with one side to move counted together. The sides to move may be mixed (a
// game's positions alternate): each side's positions wait for a batch of their own.
#pragma once

#include <cstddef>
#include <cstdint>

#include "perftkit/classify.hpp"
#include "perftkit/count_moves_avx512.hpp"

namespace perftkit {
PERFTKIT_ISA_BEGIN

#if PERFTKIT_HAS_AVX512_COUNT
namespace detail {

// Up to eight positions of one side to move, waiting to be counted together; each lane
// remembers which of the caller's positions it holds.
template <Color Us>
struct SideToMoveBatch {
  avx512::PositionBlock block;
  std::size_t index[8];
  int size = 0;

  // out[index] of every waiting position, from its two counts and the rules of classify().
  void classify_waiting(const Position* positions, const std::uint8_t* repetitions, Classification* out) {
    if (size == 0) return;
    std::uint64_t moves[8], checkers[8];
    avx512::count_moves_and_checkers<Us>(block, 0, size, moves, checkers);
    for (int lane = 0; lane < size; ++lane) {
      const std::size_t i = index[lane];
      out[i] = classification_from_counts<Us>(positions[i], repetitions ? repetitions[i] : 0, int(moves[lane]),
                                              int(checkers[lane]));
    }
    size = 0;
  }
  void add(const Position* positions, const std::uint8_t* repetitions, std::size_t i, Classification* out) {
    block.set(size, positions[i]);
    index[size++] = i;
    if (size == 8) classify_waiting(positions, repetitions, out);
  }
};

}  // namespace detail
#endif

// out[i] = classify(positions[i], repetitions[i]) for i < n; repetitions may be null (no
// histories: every position counts 0).
inline void classify_batch(const Position* positions, const std::uint8_t* repetitions, std::size_t n,
                           Classification* out) {
#if PERFTKIT_HAS_AVX512_COUNT
  detail::SideToMoveBatch<WHITE> white;
  detail::SideToMoveBatch<BLACK> black;
  for (std::size_t i = 0; i < n; ++i) {
    if (positions[i].side_to_move == WHITE) white.add(positions, repetitions, i, out);
    else black.add(positions, repetitions, i, out);
  }
  white.classify_waiting(positions, repetitions, out);
  black.classify_waiting(positions, repetitions, out);
#else
  for (std::size_t i = 0; i < n; ++i) out[i] = classify(positions[i], repetitions ? repetitions[i] : 0);
#endif
}

PERFTKIT_ISA_END
}  // namespace perftkit
