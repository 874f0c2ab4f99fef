// Compressed classify input (common/decompressing_reader, classify/input): zstd, gzip and
// bzip2 recognised by their magic bytes, from files and from standard input, give exactly
// the rows of the plain file; a stream cut short gives exactly the rows of the games that
// were complete before the cut, an error naming the compressed byte offset, and exit 1. The
// test compresses with the libraries themselves, and finds how much of a cut stream can be
// decompressed with them too, so nothing here trusts the code under test.
#include <gtest/gtest.h>

#ifdef PERFTKIT_HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef PERFTKIT_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef PERFTKIT_HAVE_BZIP2
#include <bzlib.h>
#endif

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "common/decompressing_reader.hpp"
#include "support/decompressed_in_memory.hpp"
#include "support/scratch_dir.hpp"
#include "support/text_lines.hpp"

namespace perftkit {
namespace {

using testing_support::CommandResult;
using testing_support::run_shell;
using testing_support::ScratchDir;

TEST(Compression, DetectedByMagicBytesNotByName) {
  EXPECT_EQ(detect_compression(std::string_view("\x28\xB5\x2F\xFD\x00", 5)), Compression::ZSTD);
  EXPECT_EQ(detect_compression(std::string_view("\x1F\x8B\x08", 3)), Compression::GZIP);
  EXPECT_EQ(detect_compression("BZh91AY&SY"), Compression::BZIP2);
  EXPECT_EQ(detect_compression("BZhx"), Compression::NONE);
  EXPECT_EQ(detect_compression("[Event \"x\"]"), Compression::NONE);
  EXPECT_EQ(detect_compression(""), Compression::NONE);
}

// Four legal games (one mate, one promotion), with a clock comment and a NAG.
const char* const GAMES[] = {
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 1/2-1/2",
    "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 8. cxd5 exd5 1-0",
    "1. e4 { [%clk 0:03:00] } e5 2. Bc4 Nc6 3. Qh5 Nf6?? $4 4. Qxf7# 1-0",
    "1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Nbd7 5. bxa8=Q e6 0-1",
};

struct Corpus {
  std::string text;
  std::vector<std::size_t> game_ends;  // offset just past each game's result marker
};

Corpus make_corpus(int games) {
  Corpus corpus;
  for (int i = 0; i < games; ++i) {
    corpus.text += "[Event \"game " + std::to_string(i + 1) + "\"]\n\n" + GAMES[i % 4];
    corpus.game_ends.push_back(corpus.text.size());
    corpus.text += "\n\n";
  }
  return corpus;
}

void write_file(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

std::string compress(Compression kind, const std::string& text) {
  std::string out;
  switch (kind) {
#ifdef PERFTKIT_HAVE_ZSTD
    case Compression::ZSTD: {
      // Two frames, as zstd writes for concatenated files: both must be read.
      const std::size_t half = text.size() / 2;
      for (const std::string& part : {text.substr(0, half), text.substr(half)}) {
        std::string frame(ZSTD_compressBound(part.size()), '\0');
        frame.resize(ZSTD_compress(frame.data(), frame.size(), part.data(), part.size(), 3));
        out += frame;
      }
      return out;
    }
#endif
#ifdef PERFTKIT_HAVE_ZLIB
    case Compression::GZIP: {
      z_stream s{};
      deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);  // the gzip wrapper
      out.resize(deflateBound(&s, uLong(text.size())) + 64);
      s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
      s.avail_in = unsigned(text.size());
      s.next_out = reinterpret_cast<Bytef*>(out.data());
      s.avail_out = unsigned(out.size());
      deflate(&s, Z_FINISH);
      out.resize(s.total_out);
      deflateEnd(&s);
      return out;
    }
#endif
#ifdef PERFTKIT_HAVE_BZIP2
    case Compression::BZIP2: {
      unsigned size = unsigned(text.size() + text.size() / 100 + 600);
      out.resize(size);
      BZ2_bzBuffToBuffCompress(out.data(), &size, const_cast<char*>(text.data()), unsigned(text.size()), 9, 0, 0);
      out.resize(size);
      return out;
    }
#endif
    default: return text;
  }
}

// How many bytes of a zstd stream cut short the library itself can decompress.
std::size_t zstd_decompressible_prefix(const std::string& cut) {
#ifdef PERFTKIT_HAVE_ZSTD
  ZSTD_DStream* d = ZSTD_createDStream();
  std::string out(1 << 16, '\0');
  std::size_t total = 0;
  ZSTD_inBuffer in{cut.data(), cut.size(), 0};
  for (;;) {
    ZSTD_outBuffer o{out.data(), out.size(), 0};
    const std::size_t rc = ZSTD_decompressStream(d, &o, &in);
    total += o.pos;
    if (ZSTD_isError(rc) || (o.pos == 0 && in.pos == in.size)) break;
  }
  ZSTD_freeDStream(d);
  return total;
#else
  (void)cut;
  return 0;
#endif
}

using testing_support::lines_of;

std::string classify_in(const ScratchDir& dir, const std::string& args) {
  return "cd '" + dir.path() + "' && " + perftkit::test_paths::perftkit_binary() + " classify " + args;
}

class CompressedInput : public ::testing::TestWithParam<Compression> {};

TEST_P(CompressedInput, GivesTheRowsOfThePlainFileFromFilesAndStdin) {
  const Compression kind = GetParam();
  if (!can_decompress(kind)) GTEST_SKIP() << compression_name(kind) << " not built in";
  ScratchDir dir(std::string("compressed-") + compression_name(kind));
  const Corpus corpus = make_corpus(200);
  write_file(dir / "games.pgn", corpus.text);
  write_file(dir / "games.pgn.x", compress(kind, corpus.text));
  const CommandResult plain = run_shell(classify_in(dir, "--input pgn - < games.pgn"));
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  ASSERT_EQ(lines_of(plain.output).size(), 1 + 50u * (17 + 17 + 8 + 11)) << plain.output.substr(0, 2000);
  // From standard input (the magic bytes decide, whatever the name)...
  const CommandResult piped = run_shell(classify_in(dir, "--input pgn - < games.pgn.x"));
  EXPECT_EQ(piped.exit_code, 0);
  EXPECT_TRUE(piped.output == plain.output) << piped.output.substr(0, 2000);
  // ...and from a file, where only the source column names the file.
  const CommandResult file = run_shell(classify_in(dir, "--input pgn games.pgn.x | sed 's/^games.pgn.x:/stdin:/'"));
  EXPECT_EQ(file.exit_code, 0);
  EXPECT_TRUE(file.output == plain.output) << file.output.substr(0, 2000);
}

// Everything the reader hands out, read in pieces of piece_bytes; the stream is whole.
std::string read_all(Compression kind, const std::string& stream, DecompressionBuffers buffers,
                     std::size_t piece_bytes) {
  const testing_support::Decompressed out =
      testing_support::decompress_in_memory(kind, stream, 0, buffers, piece_bytes);
  EXPECT_FALSE(out.damage) << *out.damage;
  return out.bytes;
}

// Chunk and input boundaries fall mid-record, mid-frame and mid-block with tiny buffers:
// the bytes must come out the same, in order, whatever the sizes.
TEST_P(CompressedInput, AnyBufferSizesGiveTheSameBytes) {
  const Compression kind = GetParam();
  if (!can_decompress(kind)) GTEST_SKIP() << compression_name(kind) << " not built in";
  const std::string text = make_corpus(100).text;
  const std::string stream = compress(kind, text);
  ASSERT_LT(stream.size(), text.size());
  EXPECT_TRUE(read_all(kind, stream, {}, 1 << 16) == text);
  for (const DecompressionBuffers tiny :
       {DecompressionBuffers{.chunk_bytes = 1, .chunks = 1, .input_bytes = 1},
        DecompressionBuffers{.chunk_bytes = 977, .chunks = 2, .input_bytes = 13},
        DecompressionBuffers{.chunk_bytes = 4096, .chunks = 3, .input_bytes = 4096}}) {
    SCOPED_TRACE("chunk " + std::to_string(tiny.chunk_bytes) + ", input " + std::to_string(tiny.input_bytes));
    EXPECT_TRUE(read_all(kind, stream, tiny, 7) == text);
  }
}

TEST(CompressedInput, EmptyBuffersAreRefused) {
  const auto no_input = [](char*, std::size_t) { return std::size_t(0); };
  EXPECT_THROW(DecompressingReader(Compression::NONE, "", no_input, "x", {.chunk_bytes = 0}), std::invalid_argument);
  EXPECT_THROW(DecompressingReader(Compression::NONE, "", no_input, "x", {.chunks = 0}), std::invalid_argument);
  EXPECT_THROW(DecompressingReader(Compression::NONE, "", no_input, "x", {.input_bytes = 0}), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(EveryFormat, CompressedInput,
                         ::testing::Values(Compression::ZSTD, Compression::GZIP, Compression::BZIP2),
                         [](const auto& param_info) { return std::string(compression_name(param_info.param)); });

TEST(CompressedInput, ACutZstdStreamGivesTheCompleteGamesBeforeTheCut) {
  if (!can_decompress(Compression::ZSTD)) GTEST_SKIP() << "zstd not built in";
  ScratchDir dir("compressed-cut");
  const Corpus corpus = make_corpus(4000);  // about 700 KB: several zstd blocks
  const std::string packed = compress(Compression::ZSTD, corpus.text);
  write_file(dir / "games.pgn", corpus.text);
  const std::vector<std::string> all_rows = lines_of(run_shell(classify_in(dir, "games.pgn")).output);
  ASSERT_GT(all_rows.size(), 40000u);
  std::mt19937 random(2026);
  for (int trial = 0; trial < 10; ++trial) {
    const std::size_t cut = 1 + random() % (packed.size() - 1);
    const std::string head = packed.substr(0, cut);
    write_file(dir / "games.pgn", head);  // the same name, so the source column matches
    const CommandResult result = run_shell(classify_in(dir, "games.pgn 2>err.txt"));
    std::ifstream err_file(dir / "err.txt");
    const std::string err((std::istreambuf_iterator<char>(err_file)), {});
    EXPECT_EQ(result.exit_code, 1) << "cut at " << cut << "\n" << err;
    EXPECT_NE(err.find("games.pgn: truncated zstd stream"), std::string::npos) << err;
    EXPECT_NE(err.find("at compressed byte " + std::to_string(cut)), std::string::npos) << err;
    // The games whose text, up to the result marker, the library can decompress.
    const std::size_t prefix = zstd_decompressible_prefix(head);
    std::size_t complete_games = 0;
    while (complete_games < corpus.game_ends.size() && corpus.game_ends[complete_games] <= prefix) ++complete_games;
    std::size_t expected_rows = 0;
    for (std::size_t g = 0; g < complete_games; ++g) expected_rows += std::vector<std::size_t>{17, 17, 8, 11}[g % 4];
    const std::vector<std::string> rows = lines_of(result.output);
    ASSERT_EQ(rows.size(), 1 + expected_rows) << "cut at " << cut << ", " << complete_games << " complete games";
    EXPECT_TRUE(std::equal(rows.begin(), rows.end(), all_rows.begin())) << "cut at " << cut;
  }
}

// Damage is found where the format can see it: at once for garbage after a stream, at the
// frame's checksum for bytes flipped inside deflate data. Either way the run ends with the
// error and exit 1, and the rows before the damage are the input's lines in order.
TEST(CompressedInput, ACorruptStreamIsReportedAndTheLinesBeforeItKept) {
  if (!can_decompress(Compression::GZIP)) GTEST_SKIP() << "gzip not built in";
  ScratchDir dir("compressed-corrupt");
  std::string lines;
  for (int i = 0; i < 20000; ++i) lines += "8/8/8/8/8/8/8/K6k w - - 0 " + std::to_string(i + 1) + "\n";
  const std::string packed = compress(Compression::GZIP, lines);
  std::string flipped = packed;
  for (std::size_t i = packed.size() / 2; i < packed.size() / 2 + 16; ++i) flipped[i] = char(flipped[i] ^ 0x5A);
  const std::string trailing = packed + "garbage after the stream";
  for (const auto& [bytes, expected_error] :
       {std::pair{flipped, std::string("corrupt gzip stream")},
        std::pair{trailing, std::string("corrupt gzip stream (incorrect header check) at compressed byte ")}}) {
    write_file(dir / "positions.fen.gz", bytes);
    const CommandResult result = run_shell(classify_in(dir, "positions.fen.gz 2>err.txt; echo exit $?"));
    std::ifstream err_file(dir / "err.txt");
    const std::string err((std::istreambuf_iterator<char>(err_file)), {});
    const std::size_t at = err.find("positions.fen.gz: " + expected_error);
    ASSERT_NE(at, std::string::npos) << err;
    if (bytes == trailing) {  // the decoder stops within the bad member's first bytes
      const std::size_t offset = std::stoul(err.substr(at + 18 + expected_error.size()));
      EXPECT_GE(offset, packed.size());
      EXPECT_LE(offset, packed.size() + 10);
    }
    std::vector<std::string> rows = lines_of(result.output);
    ASSERT_GE(rows.size(), 2u);
    EXPECT_EQ(rows.back(), "exit 1");
    rows.pop_back();
    std::size_t intact = 0;
    while (intact + 1 < rows.size() &&
           rows[intact + 1].find(",8/8/8/8/8/8/8/K6k w - - 0 " + std::to_string(intact + 1) + ",") != std::string::npos)
      ++intact;
    EXPECT_GT(intact, 0u);
    if (bytes == trailing) {
      EXPECT_EQ(intact, 20000u);
    }
  }
}

}  // namespace
}  // namespace perftkit
