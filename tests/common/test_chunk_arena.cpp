// ChunkArena: every copy stays where it was put, with its contents, until clear(), across
// many chunks and copies larger than a chunk; after clear() the chunks are reused.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "common/chunk_arena.hpp"

namespace perftkit {
namespace {

std::string random_text(std::mt19937_64& rng, std::size_t max_size) {
  std::string text(rng() % (max_size + 1), '\0');
  for (char& ch : text) ch = char('a' + rng() % 26);
  return text;
}

TEST(ChunkArena, CopiesStayPutAndIntactUntilClear) {
  ChunkArena<char> arena(64);  // 64-byte chunks: many of them, and copies larger than one
  std::mt19937_64 rng(20261203);
  for (int round = 0; round < 3; ++round) {
    std::vector<std::string> originals;
    std::vector<std::string_view> copies;
    for (int i = 0; i < 2000; ++i) {
      originals.push_back(random_text(rng, i % 100 == 0 ? 300 : 40));
      const std::string& text = originals.back();
      copies.emplace_back(arena.copy(text.data(), text.size()), text.size());
    }
    for (std::size_t i = 0; i < copies.size(); ++i) {
      ASSERT_EQ(copies[i], originals[i]) << "round " << round << ", copy " << i;
      ASSERT_NE(static_cast<const void*>(copies[i].data()), static_cast<const void*>(originals[i].data()));
    }
    arena.clear();
  }
}

TEST(ChunkArena, CopiesOfViewsAreContiguousLists) {
  ChunkArena<std::string_view> arena(4 * sizeof(std::string_view));  // four views a chunk
  const std::vector<std::string_view> first = {"a", "bb", "ccc"};
  const std::vector<std::string_view> second = {"d", "e", "f", "g", "h", "i"};  // more than a chunk
  const std::string_view* a = arena.copy(first.data(), first.size());
  const std::string_view* b = arena.copy(second.data(), second.size());
  EXPECT_EQ(std::vector<std::string_view>(a, a + first.size()), first);
  EXPECT_EQ(std::vector<std::string_view>(b, b + second.size()), second);
  arena.clear();
  const std::string_view* c = arena.copy(second.data(), 2);
  EXPECT_EQ(std::vector<std::string_view>(c, c + 2), std::vector<std::string_view>(second.begin(), second.begin() + 2));
}

}  // namespace
}  // namespace perftkit
