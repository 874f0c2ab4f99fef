// The CUDA backend against the CPU core. GPU cases skip themselves without a device; the
// rest (device queries, argument checks, the kernel body run on the host) run everywhere.
#ifdef PERFTKIT_HAVE_CUDA

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_backend.hpp"
#include "fen.hpp"
#include "frontier.hpp"
#include "perft_functor.hpp"
#include "perftkit/perft.hpp"

namespace perftkit {
namespace {

#define PERFTKIT_REQUIRE_DEVICE() \
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device"

struct StandardPosition {
  const char* name;
  const char* fen;
  std::uint64_t nodes[3];  // published perft 1..3
};

// The six positions of the Chess Programming Wiki's perft page.
const StandardPosition STANDARD[] = {
    {"Start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {20, 400, 8902}},
    {"Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", {48, 2039, 97862}},
    {"Position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", {14, 191, 2812}},
    {"Position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", {6, 264, 9467}},
    {"Position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", {44, 1486, 62379}},
    {"Position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", {46, 2079, 89890}},
};

Position position_from_fen(const char* fen) {
  const FenResult parsed = parse_fen(fen);
  if (!parsed) throw std::invalid_argument(std::string("bad test FEN: ") + parsed.error);
  return parsed->position;
}

std::vector<Position> standard_positions() {
  std::vector<Position> positions;
  for (const StandardPosition& s : STANDARD) positions.push_back(position_from_fen(s.fen));
  return positions;
}

TEST(CudaBackend, DeviceCountNeverThrows) {
  int count = -1;
  EXPECT_NO_THROW(count = cuda::device_count());
  EXPECT_GE(count, 0);
  EXPECT_EQ(count, cuda::device_count());  // a failed query leaves no sticky error behind
}

TEST(CudaBackend, DevicesListsEveryDevice) {
  std::vector<cuda::DeviceInfo> list;
  ASSERT_NO_THROW(list = cuda::devices());
  ASSERT_EQ(static_cast<int>(list.size()), cuda::device_count());
  for (std::size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(list[i].index, static_cast<int>(i));
    EXPECT_FALSE(list[i].name.empty());
    EXPECT_GT(list[i].sm_count, 0);
    EXPECT_GT(list[i].total_memory, 0u);
    EXPECT_LE(list[i].free_memory, list[i].total_memory);
    EXPECT_GE(list[i].cc_major, 1);
  }
}

TEST(CudaBackend, RejectsDepthOutsideTheDeviceRange) {
  const std::vector<Position> one = {position_from_fen(STANDARD[0].fen)};
  EXPECT_THROW(cuda::perft_positions(one, -1), std::invalid_argument);
  EXPECT_THROW(cuda::perft_positions(one, cuda::MAX_DEVICE_PERFT_DEPTH + 1), std::invalid_argument);
}

TEST(CudaBackend, WithoutDeviceThrowsInsteadOfCounting) {
  if (cuda::device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_THROW(cuda::perft_positions(standard_positions(), 2), std::runtime_error);
}

// The kernel body is an ordinary host+device callable: run it here over an index range.
TEST(CudaBackend, PerftFunctorOnTheHostMatchesTheCore) {
  const std::vector<Position> positions = standard_positions();
  for (int depth = 0; depth <= cuda::MAX_DEVICE_PERFT_DEPTH; ++depth) {
    std::vector<std::uint64_t> nodes(positions.size(), ~std::uint64_t(0));
    const cuda::PerftFunctor body{positions.data(), nodes.data(), depth};
    for (std::uint64_t i = 0; i < positions.size(); ++i) body(i);
    for (std::size_t i = 0; i < positions.size(); ++i) {
      const std::uint64_t expected = depth == 0 ? 1 : STANDARD[i].nodes[depth - 1];
      EXPECT_EQ(nodes[i], expected) << STANDARD[i].name << " depth " << depth;
    }
  }
}

struct DeviceCase {
  std::size_t position;  // index into STANDARD
  int depth;
};

std::vector<DeviceCase> device_cases() {
  std::vector<DeviceCase> cases;
  for (std::size_t p = 0; p < std::size(STANDARD); ++p)
    for (int depth = 1; depth <= 3; ++depth) cases.push_back({p, depth});
  return cases;
}

class CudaStandardPositions : public ::testing::TestWithParam<DeviceCase> {};

TEST_P(CudaStandardPositions, MatchesCpuCore) {
  PERFTKIT_REQUIRE_DEVICE();
  const DeviceCase c = GetParam();
  const StandardPosition& s = STANDARD[c.position];
  const Position pos = position_from_fen(s.fen);
  const std::vector<std::uint64_t> nodes = cuda::perft_positions({pos}, c.depth);
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0], perft(pos, c.depth));
  EXPECT_EQ(nodes[0], s.nodes[c.depth - 1]);
}

std::string device_case_name(const ::testing::TestParamInfo<DeviceCase>& param_info) {
  const DeviceCase& c = param_info.param;
  return std::string(STANDARD[c.position].name) + "_D" + std::to_string(c.depth) + "_cuda";
}

INSTANTIATE_TEST_SUITE_P(Cuda, CudaStandardPositions, ::testing::ValuesIn(device_cases()), device_case_name);

TEST(CudaBackend, AllStandardPositionsInOneLaunch) {
  PERFTKIT_REQUIRE_DEVICE();
  const std::vector<Position> positions = standard_positions();
  for (int depth = 0; depth <= cuda::MAX_DEVICE_PERFT_DEPTH; ++depth) {
    const std::vector<std::uint64_t> nodes = cuda::perft_positions(positions, depth);
    ASSERT_EQ(nodes.size(), positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i)
      EXPECT_EQ(nodes[i], perft(positions[i], depth)) << STANDARD[i].name << " depth " << depth;
  }
}

TEST(CudaBackend, EmptyInputGivesEmptyResult) {
  PERFTKIT_REQUIRE_DEVICE();
  EXPECT_TRUE(cuda::perft_positions({}, 3).empty());
}

// Start position, 3 plies on the host, 3 on the device: perft 6.
TEST(CudaBackend, StartFrontierSumsToPerft6) {
  PERFTKIT_REQUIRE_DEVICE();
  const std::vector<FrontierNode> frontier = expand_frontier(position_from_fen(STANDARD[0].fen), 3, false);
  std::vector<Position> positions;
  for (const FrontierNode& node : frontier) positions.push_back(node.position);
  const std::vector<std::uint64_t> nodes = cuda::perft_positions(positions, 3);
  ASSERT_EQ(nodes.size(), positions.size());
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < frontier.size(); ++i) total += nodes[i] * frontier[i].multiplicity;
  EXPECT_EQ(total, 119060324u);
  for (std::size_t i = 0; i < positions.size(); i += 97) EXPECT_EQ(nodes[i], perft(positions[i], 3)) << "node " << i;
}

// Tiny batches (including a ragged last one) must give exactly the one-batch result.
TEST(CudaBackend, SmallBatchesGiveTheSameCounts) {
  PERFTKIT_REQUIRE_DEVICE();
  const std::vector<FrontierNode> frontier = expand_frontier(position_from_fen(STANDARD[1].fen), 2, false, false);
  std::vector<Position> positions;
  for (const FrontierNode& node : frontier) positions.push_back(node.position);
  ASSERT_EQ(positions.size(), 2039u);
  const std::vector<std::uint64_t> whole = cuda::perft_positions(positions, 2);
  const std::vector<std::uint64_t> batched = cuda::perft_positions(positions, 2, 7);
  EXPECT_EQ(whole, batched);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    EXPECT_EQ(whole[i], perft(positions[i], 2)) << "node " << i;
    total += whole[i];
  }
  EXPECT_EQ(total, 4085603u);  // Kiwipete perft 4
}

}  // namespace
}  // namespace perftkit

#endif  // PERFTKIT_HAVE_CUDA
