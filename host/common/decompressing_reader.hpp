// Compressed input, recognised by its magic bytes (never by the file's name) and decompressed
// in a thread of its own, so that the threads that parse and classify never wait on it:
// zstd (28 B5 2F FD), gzip (1F 8B) and bzip2 ("BZh"), single or concatenated frames.
// A damaged stream (corrupt, or cut short) ends after the last byte that decompressed
// cleanly, and damage() then says where, as a compressed byte offset.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/blocking_queue.hpp"
#include "common/frame_decoder.hpp"  // Compression, can_decompress (each library is optional)

namespace perftkit {

// The compression whose magic bytes head starts with (NONE when no format matches).
Compression detect_compression(std::string_view head);

// "none", "gzip", "bzip2", "zstd".
const char* compression_name(Compression kind);

// How the reader buffers: the defaults suit files of any size; tests and fuzzing take small
// ones, to cross chunk boundaries often and to stop a decompression bomb early.
struct DecompressionBuffers {
  std::size_t chunk_bytes = std::size_t(1) << 20;  // decompressed bytes per hand-over
  // In flight between the two threads: enough to ride out the decompressing thread's waits
  // for a core while the workers run (6: games.pgn.zst 1.78 s, median of 8; 16: 1.65 s,
  // with the deeper block pool of classify/stream.cpp).
  std::size_t chunks = 16;
  std::size_t input_bytes = std::size_t(1) << 18;  // compressed bytes per read
};

class DecompressingReader {
 public:
  // Reads compressed bytes with read_raw (0 at the end; throws on a read error): first the
  // bytes of head (already read to detect the format), then the rest. name goes into messages.
  using ReadRaw = std::function<std::size_t(char*, std::size_t)>;
  // Throws std::invalid_argument when a buffer size is 0.
  DecompressingReader(Compression kind, std::string head, ReadRaw read_raw, std::string name,
                      DecompressionBuffers buffers = {});
  ~DecompressingReader();
  DecompressingReader(const DecompressingReader&) = delete;
  DecompressingReader& operator=(const DecompressingReader&) = delete;

  // Up to n decompressed bytes; 0 at the end of the stream, clean or damaged. Rethrows a
  // read error of read_raw.
  std::size_t read(char* p, std::size_t n);

  // After read() returned 0: why the stream ended early, e.g. "truncated zstd stream: it ends
  // inside a frame at compressed byte 1048576"; nullopt when it ended cleanly.
  const std::optional<std::string>& damage() const { return damage_; }

  // Compressed bytes consumed so far (for progress against the file's size).
  std::uint64_t compressed_bytes() const { return compressed_bytes_.load(std::memory_order_relaxed); }

 private:
  // Decompressed bytes for the reader: in memory of the chunk's own (bytes), or a view of a
  // decoder's memory (zstd's ring), which stays intact until the chunk comes back free.
  struct Chunk {
    std::unique_ptr<char[]> bytes;  // buffers_.chunk_bytes, taken on first use
    char* data = nullptr;
    std::size_t size = 0;
  };
  void run();
  void decode();
  // zstd, decoded in place (zstd_decoder.cpp): its blocks are written into a ring of memory
  // that the chunks handed out view.
  void decode_zstd_in_place();
  // The next free chunk, its memory taken if it has none; false when the reader is gone.
  bool take_chunk(Chunk*& chunk);
  // Hands out full chunks to the reader; false when the reader is gone.
  bool emit(Chunk*& chunk);
  // Hands out the n bytes at p, which follow the bytes of the view being filled (view, null
  // when none is) in memory or start a new one, in views of at most buffers_.chunk_bytes;
  // false when the reader is gone.
  bool hand_out_view(Chunk*& view, char* p, std::size_t n);
  // Hands out the view being filled, if it holds any bytes, and waits until the reader has
  // given back every chunk: the memory that they viewed is free. False when the reader is gone.
  bool take_back_every_view(Chunk*& view);
  std::size_t read_compressed(char* p, std::size_t n);

  Compression kind_;
  std::string head_;
  std::size_t head_used_ = 0;
  ReadRaw read_raw_;
  std::string name_;
  DecompressionBuffers buffers_;
  std::vector<std::unique_ptr<Chunk>> chunks_;
  std::unique_ptr<char[]> ring_;  // what the chunks view, when the decoder decodes in place
  BlockingQueue<Chunk*> free_, filled_;
  Chunk* current_ = nullptr;
  std::size_t current_pos_ = 0;
  std::atomic<std::uint64_t> compressed_bytes_ = 0;
  std::optional<std::string> damage_;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace perftkit
