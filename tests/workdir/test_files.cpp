// The durable pieces of a work dir: checksums, sealed records, shard files, results, the
// manifest, the split into shards, and counting a shard through the driver.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "common/checksum64.hpp"
#include "common/durable_file.hpp"
#include "notation/fen.hpp"
#include "perft/driver.hpp"
#include "perftkit/perft.hpp"
#include "support/scratch_dir.hpp"
#include "workdir/sealed_record.hpp"
#include "workdir/shard_file.hpp"
#include "workdir/shard_result.hpp"
#include "workdir/manifest.hpp"
#include "workdir/split.hpp"

namespace perftkit {
namespace {

using testing_support::ScratchDir;

Position start_position() { return parse_fen(START_FEN)->position; }

TEST(Checksum64, IsFnv1a) {
  EXPECT_EQ(checksum64(""), 0xCBF29CE484222325ULL);
  EXPECT_EQ(checksum64("a"), 0xAF63DC4C8601EC8CULL);
  EXPECT_EQ(checksum64("foobar"), 0x85944171F73967E8ULL);
  EXPECT_EQ(checksum64("bar", checksum64("foo")), checksum64("foobar"));
  EXPECT_EQ(to_hex64(0x85944171F73967E8ULL), "85944171f73967e8");
  EXPECT_EQ(parse_hex64("85944171F73967E8"), 0x85944171F73967E8ULL);
  EXPECT_FALSE(parse_hex64("85944171f73967e"));
  EXPECT_FALSE(parse_hex64("85944171f73967eg"));
}

TEST(SealedRecord, RoundTripsAndRejectsEveryDamage) {
  SealedRecord record;
  record.add("fen", "8/8/8/8/8/8/8/K6k w - - 0 1");
  record.add("nodes", "123456789012345678901234567890");
  const std::string text = record.seal();
  std::string error;
  const std::optional<SealedRecord> back = SealedRecord::open(text, error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(*back->find("fen"), "8/8/8/8/8/8/8/K6k w - - 0 1");
  EXPECT_EQ(to_string_u128(*back->find_u128("nodes")), "123456789012345678901234567890");
  EXPECT_EQ(back->checksum(), record.checksum());

  for (std::size_t cut = 0; cut < text.size(); ++cut)
    EXPECT_FALSE(SealedRecord::open(text.substr(0, cut), error)) << "truncated at " << cut;
  for (std::size_t at = 0; at < text.size(); ++at) {
    std::string edited = text;
    edited[at] = edited[at] == '1' ? '2' : '1';
    EXPECT_FALSE(SealedRecord::open(edited, error)) << "byte " << at << " edited";
  }
}

// A record keeps 64 bits of multiplicity: a node reached by more paths is refused, not wrapped.
TEST(ShardFile, AMultiplicityPast64BitsIsRefused) {
  std::vector<FrontierNode> nodes = expand_frontier(start_position(), 1, false);
  nodes[0].multiplicity = u128(1) << 64;
  EXPECT_THROW(encode_shard({7, 0x1234, 5}, nodes), std::overflow_error);
  nodes[0].multiplicity = ~std::uint64_t(0);
  std::string error;
  const auto back = decode_shard(encode_shard({7, 0x1234, 5}, nodes), {7, 0x1234, 5}, error);
  ASSERT_TRUE(back) << error;
  EXPECT_TRUE((*back)[0].multiplicity == ~std::uint64_t(0));
}

TEST(ShardFile, RoundTripsAndRejectsDamage) {
  const std::vector<FrontierNode> nodes = expand_frontier(start_position(), 2, false);
  const ShardIdentity identity{7, 0x1234, 5};
  const std::string bytes = encode_shard(identity, nodes);
  EXPECT_EQ(bytes.size(), 40 + nodes.size() * SHARD_RECORD_BYTES + 8);
  std::string error;
  const auto back = decode_shard(bytes, identity, error);
  ASSERT_TRUE(back) << error;
  ASSERT_EQ(back->size(), nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    EXPECT_EQ((*back)[i].position, nodes[i].position);
    EXPECT_EQ((*back)[i].multiplicity, nodes[i].multiplicity);
  }

  EXPECT_FALSE(decode_shard(bytes.substr(0, bytes.size() - 1), identity, error));
  EXPECT_FALSE(decode_shard(bytes.substr(0, bytes.size() - SHARD_RECORD_BYTES), identity, error));
  std::string flipped = bytes;
  flipped[100] ^= 1;
  EXPECT_FALSE(decode_shard(flipped, identity, error));
  EXPECT_EQ(error, "checksum mismatch");
  EXPECT_FALSE(decode_shard(bytes, {8, 0x1234, 5}, error));
  EXPECT_FALSE(decode_shard(bytes, {7, 0x1235, 5}, error));
  EXPECT_FALSE(decode_shard(bytes, {7, 0x1234, 4}, error));
}

TEST(ShardResult, RoundTripsExactly) {
  ShardResult r;
  r.run_id = 0xFEDCBA9876543210ULL;
  r.shard = 999'999;
  r.shard_checksum = 42;
  r.positions = 93;
  r.nodes = (u128(1) << 100) + 12345;  // beyond 64 bits
  r.seconds = 12.5;
  r.finished = 1.7e9;
  r.worker = "node17:4242/rank3";
  r.backend = "cuda";
  std::string error;
  const auto back = decode_result(encode_result(r), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->run_id, r.run_id);
  EXPECT_EQ(back->shard, r.shard);
  EXPECT_EQ(back->shard_checksum, r.shard_checksum);
  EXPECT_EQ(back->positions, r.positions);
  EXPECT_TRUE(back->nodes == r.nodes);
  EXPECT_DOUBLE_EQ(back->seconds, r.seconds);
  EXPECT_EQ(back->worker, r.worker);
  EXPECT_EQ(back->backend, r.backend);
}

TEST(WorkManifest, RoundTripsAndItsChecksumIsTheRunId) {
  WorkManifest m;
  m.fen = std::string(START_FEN);
  m.depth = 9;
  m.split_plies = 4;
  m.frontier_positions = 30;
  m.frontier_paths = 197281;
  m.shard_positions = {10, 10, 10};
  m.shard_checksums = {1, 2, 0xFFFFFFFFFFFFFFFFULL};
  const std::string text = encode_manifest(m);
  std::string error;
  const auto back = decode_manifest(text, error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->fen, m.fen);
  EXPECT_EQ(back->shard_checksums, m.shard_checksums);
  EXPECT_EQ(manifest_run_id(*back), manifest_run_id(m));
  EXPECT_EQ(to_hex64(manifest_run_id(m)), text.substr(text.size() - 17, 16));

  m.shard_positions = {10, 10, 11};  // no longer adds up to frontier_positions
  EXPECT_FALSE(decode_manifest(encode_manifest(m), error));
}

TEST(WorkSplit, ShardsCoverTheFrontierOnceAndAreDeterministic) {
  SplitRequest request;
  request.root = start_position();
  request.depth = 6;
  request.shards = 60;
  const WorkSplit split = split_into_shards(request);
  EXPECT_EQ(split.split_plies, 3);  // ply 2 has 400 positions, short of 8 per shard
  EXPECT_EQ(split.shard_count(), 60u);
  EXPECT_EQ(split.shard_begin.front(), 0u);
  EXPECT_EQ(split.shard_begin.back(), split.frontier.size());
  EXPECT_TRUE(split.paths == 8902);  // perft(3): every path to the split, once

  const WorkSplit again = split_into_shards(request);
  ASSERT_EQ(again.frontier.size(), split.frontier.size());
  for (std::size_t i = 0; i < split.frontier.size(); ++i)
    EXPECT_EQ(again.frontier[i].position, split.frontier[i].position);

  request.split_plies = 2;
  request.shards = 1000;  // more than the 400 positions at ply 2
  EXPECT_EQ(split_into_shards(request).shard_count(), 400u);
  request.split_plies = 6;
  EXPECT_THROW(split_into_shards(request), std::invalid_argument);
  request.split_plies = 0;
  request.depth = 1;
  EXPECT_THROW(split_into_shards(request), std::invalid_argument);
}

TEST(FrontierCounter, ShardsSumToThePerftOnEveryCpuSetting) {
  SplitRequest request;
  request.root = start_position();
  request.depth = 5;
  request.shards = 7;
  const WorkSplit split = split_into_shards(request);
  for (std::size_t hash : {std::size_t(0), std::size_t(1) << 20}) {
    PerftRequest settings;
    settings.backend = Backend::CPU;
    settings.threads = 2;
    settings.hash_bytes = hash;
    FrontierCounter counter(settings);
    u128 total = 0;
    for (std::size_t s = 0; s < split.shard_count(); ++s) {
      std::vector<FrontierNode> nodes(split.frontier.begin() + std::ptrdiff_t(split.shard_begin[s]),
                                      split.frontier.begin() + std::ptrdiff_t(split.shard_begin[s + 1]));
      total += counter.count(std::move(nodes), request.depth - split.split_plies, false, 1)[0];
    }
    EXPECT_EQ(to_string_u128(total), "4865609") << "hash bytes " << hash;
  }
}

TEST(DurableFile, ReplacesWholeAndCreatesExclusively) {
  const ScratchDir dir("durable");
  const std::string path = dir / "file";
  EXPECT_FALSE(read_file(path));
  write_file_durably(path, "first");
  write_file_durably(path, "second");
  EXPECT_EQ(read_file(path), "second");
  EXPECT_FALSE(create_file_exclusively(path, "third"));
  EXPECT_TRUE(create_file_exclusively(dir / "claim", "mine"));
  EXPECT_EQ(read_file(dir / "claim"), "mine");
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) files += !entry.path().empty();
  EXPECT_EQ(files, 2u);  // no temporary file left behind
  EXPECT_TRUE(is_temporary_file_name(".000017.result.tmp.4242.0"));
  EXPECT_FALSE(is_temporary_file_name("000017.result"));
}

// A worker killed while it claims a shard leaves either the whole claim or none: an empty
// claim names no host, so no one could tell it from a live claim of another machine, and the
// shard would wait out the claim timeout (ten minutes by default).
TEST(DurableFile, AKilledWriterNeverLeavesAnEmptyClaim) {
  const ScratchDir dir("claims");
  const std::string content = "host " + std::string(200, 'h') + "\npid 4242\n";
  for (int round = 0; round < 40; ++round) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      for (int i = 0;; ++i)
        create_file_exclusively(dir / ("r" + std::to_string(round) + "-" + std::to_string(i) + ".claim"), content);
    }
    // The child's first claim, then a little more: on a busy machine the child may not run
    // at all within a fixed sleep, and a round without claims tests nothing.
    const std::string first = dir / ("r" + std::to_string(round) + "-0.claim");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!std::filesystem::exists(first) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    std::this_thread::sleep_for(std::chrono::microseconds(200 + 97 * round));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
  }
  std::size_t claims = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    const std::string name = entry.path().filename().string();
    if (is_temporary_file_name(name)) continue;  // never a claim: readers skip it
    ++claims;
    EXPECT_EQ(read_file(entry.path().string()), content) << name;
  }
  EXPECT_GE(claims, 40u);  // at least every round's first claim
}

}  // namespace
}  // namespace perftkit
