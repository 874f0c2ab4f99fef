// zstd is decoded in place (common/zstd_decoder.cpp): blocks go straight into a ring that
// the reader's chunks view. Here the ring wraps many times under chunks still being read,
// grows between frames of different windows, steps over skippable frames, and a stream cut
// inside a stored block or damaged inside a compressed one ends where libzstd's own streaming
// decoder ends. The streams are made, and the expected bytes found, with libzstd itself.
#include <gtest/gtest.h>

#ifdef PERFTKIT_HAVE_ZSTD
#include <zstd.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "common/decompressing_reader.hpp"
#include "support/decompressed_in_memory.hpp"

namespace perftkit {
namespace {

// Text with repeats at every distance: lines drawn from a pool, so that matches reach across
// the whole window.
std::string repetitive_text(std::size_t bytes, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<std::string> pool;
  for (int i = 0; i < 256; ++i) {
    std::string line;
    for (int j = 0; j < 40 + int(random() % 80); ++j) line += char('a' + random() % 26);
    pool.push_back(line + "\n");
  }
  std::string text;
  while (text.size() < bytes) text += pool[random() % pool.size()];
  return text;
}

std::string random_bytes(std::size_t bytes, unsigned seed) {
  std::mt19937 random(seed);
  std::string text(bytes, '\0');
  for (char& ch : text) ch = char(random());
  return text;
}

// One frame; with known_size false, the frame's header gives no content size, so that its
// window is the level's, not the content's.
std::string zstd_frame(const std::string& text, int level, bool known_size) {
  ZSTD_CCtx* context = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1);
  std::string out(ZSTD_compressBound(text.size()) + 64, '\0');
  ZSTD_outBuffer sink{out.data(), out.size(), 0};
  if (known_size) {
    ZSTD_CCtx_setPledgedSrcSize(context, text.size());
    ZSTD_inBuffer source{text.data(), text.size(), 0};
    ZSTD_compressStream2(context, &sink, &source, ZSTD_e_end);
  } else {
    for (std::size_t at = 0; at < text.size(); at += 4096) {  // fed piece by piece
      ZSTD_inBuffer source{text.data() + at, std::min<std::size_t>(4096, text.size() - at), 0};
      while (source.pos < source.size) ZSTD_compressStream2(context, &sink, &source, ZSTD_e_continue);
    }
    ZSTD_inBuffer none{nullptr, 0, 0};
    while (ZSTD_compressStream2(context, &sink, &none, ZSTD_e_end) != 0) {
    }
  }
  ZSTD_freeCCtx(context);
  out.resize(sink.pos);
  return out;
}

// A skippable frame (RFC 8878 3.1.2) holding `content`.
std::string skippable_frame(const std::string& content) {
  std::string frame("\x50\x2A\x4D\x18", 4);
  const auto size = std::uint32_t(content.size());
  for (int i = 0; i < 4; ++i) frame += char(size >> (8 * i) & 0xFF);
  return frame + content;
}

// How much of a stream libzstd's streaming decoder decompresses before it ends or fails. It
// is fed a byte a call, with room for more than a block: a call that fails reports none of
// its output, so each block must be reported by the call that completes it.
std::string zstd_streaming_prefix(const std::string& stream) {
  ZSTD_DStream* d = ZSTD_createDStream();
  std::string out, piece(1 << 20, '\0');
  for (std::size_t at = 0; at < stream.size(); ++at) {
    ZSTD_inBuffer in{stream.data() + at, 1, 0};
    ZSTD_outBuffer o{piece.data(), piece.size(), 0};
    const std::size_t rc = ZSTD_decompressStream(d, &o, &in);
    if (ZSTD_isError(rc)) break;
    out.append(piece.data(), o.pos);
  }
  ZSTD_freeDStream(d);
  return out;
}

// Everything the reader hands out, read in pieces of piece_bytes, and the damage it names.
// (The magic bytes come as the head, as classify's input gives them.)
testing_support::Decompressed read_back(const std::string& stream, DecompressionBuffers buffers,
                                        std::size_t piece_bytes) {
  return testing_support::decompress_in_memory(Compression::ZSTD, stream, 4, buffers, piece_bytes);
}

constexpr DecompressionBuffers SMALL{.chunk_bytes = 4096, .chunks = 3, .input_bytes = 1000};

TEST(ZstdInPlace, TheRingWrapsManyTimesUnderChunksBeingReadAndKeepsEveryByte) {
  // Level 1 without a content size: a 512 KiB window, so a ring under 1 MiB for 6 MB.
  const std::string text = repetitive_text(6 << 20, 1);
  const std::string stream = zstd_frame(text, 1, false);
  ASSERT_LT(stream.size(), text.size() / 2);
  // Small chunks, and chunks that together view twice the window (a slow reader keeps them).
  const DecompressionBuffers large_chunks{.chunk_bytes = 1 << 18, .chunks = 4, .input_bytes = 1 << 16};
  for (const DecompressionBuffers buffers : {SMALL, large_chunks}) {
    for (const std::size_t piece : {std::size_t(7), std::size_t(100000)}) {
      const testing_support::Decompressed back = read_back(stream, buffers, piece);
      EXPECT_FALSE(back.damage) << *back.damage;
      EXPECT_TRUE(back.bytes == text) << "chunks of " << buffers.chunk_bytes << ", pieces of " << piece << ": "
                                      << back.bytes.size() << " of " << text.size();
    }
  }
}

TEST(ZstdInPlace, FramesOfGrowingWindowsAndSkippableFramesBetweenThem) {
  const std::string small = repetitive_text(3000, 2), larger = repetitive_text(3 << 20, 3),
                    last = repetitive_text(200000, 4);
  const std::string stream = zstd_frame(small, 3, true) + skippable_frame("not PGN") + zstd_frame(larger, 5, false) +
                             skippable_frame("") + zstd_frame(last, 19, true);
  for (const DecompressionBuffers buffers : {SMALL, DecompressionBuffers{}}) {
    const testing_support::Decompressed back = read_back(stream, buffers, 4999);
    EXPECT_FALSE(back.damage) << *back.damage;
    EXPECT_TRUE(back.bytes == small + larger + last) << back.bytes.size();
  }
}

TEST(ZstdInPlace, AStoredBlockCutShortGivesTheBytesBeforeTheCut) {
  const std::string text = random_bytes(400000, 5);  // incompressible: stored blocks
  const std::string stream = zstd_frame(text, 3, true);
  ASSERT_GT(stream.size(), text.size());
  std::mt19937 random(6);
  for (int trial = 0; trial < 12; ++trial) {
    const std::size_t cut = 4 + random() % (stream.size() - 4);
    const std::string head = stream.substr(0, cut);
    const std::string expected = zstd_streaming_prefix(head);
    ASSERT_TRUE(text.compare(0, expected.size(), expected) == 0);
    const testing_support::Decompressed back = read_back(head, SMALL, 777);
    ASSERT_TRUE(back.damage) << "cut at " << cut;
    EXPECT_EQ(*back.damage,
              "memory: truncated zstd stream: it ends inside a frame at compressed byte " + std::to_string(cut));
    EXPECT_EQ(back.bytes.size(), expected.size()) << "cut at " << cut;
    EXPECT_TRUE(back.bytes == expected) << "cut at " << cut;
  }
}

TEST(ZstdInPlace, ADamagedBlockEndsTheStreamWhereTheStreamingDecoderEndsIt) {
  const std::string text = repetitive_text(2 << 20, 7);
  const std::string stream = zstd_frame(text, 3, true);
  std::mt19937 random(8);
  for (int trial = 0; trial < 8; ++trial) {
    std::string damaged = stream;
    const std::size_t at = 20 + random() % (stream.size() - 40);
    for (std::size_t i = at; i < at + 8; ++i) damaged[i] = char(damaged[i] ^ 0xA5);
    const std::string expected = zstd_streaming_prefix(damaged);
    const testing_support::Decompressed back = read_back(damaged, SMALL, 4096);
    ASSERT_TRUE(back.damage) << "damage at " << at;
    EXPECT_NE(back.damage->find("memory: corrupt zstd stream ("), std::string::npos) << *back.damage;
    EXPECT_TRUE(back.bytes == expected) << "damage at " << at << ": " << back.bytes.size() << " bytes, libzstd "
                                        << expected.size();
  }
}

}  // namespace
}  // namespace perftkit

#endif  // PERFTKIT_HAVE_ZSTD
