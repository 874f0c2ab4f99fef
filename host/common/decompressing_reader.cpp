#include "common/decompressing_reader.hpp"

#include <cstring>
#include <stdexcept>

namespace perftkit {
namespace {

std::string at_byte(std::uint64_t offset) { return " at compressed byte " + std::to_string(offset); }

}  // namespace

Compression detect_compression(std::string_view head) {
  if (head.size() >= 4 && head.substr(0, 4) == std::string_view("\x28\xB5\x2F\xFD", 4)) return Compression::ZSTD;
  if (head.size() >= 2 && head.substr(0, 2) == std::string_view("\x1F\x8B", 2)) return Compression::GZIP;
  if (head.size() >= 4 && head.substr(0, 3) == "BZh" && head[3] >= '1' && head[3] <= '9') return Compression::BZIP2;
  return Compression::NONE;
}

const char* compression_name(Compression kind) {
  switch (kind) {
    case Compression::GZIP: return "gzip";
    case Compression::BZIP2: return "bzip2";
    case Compression::ZSTD: return "zstd";
    default: return "none";
  }
}

DecompressingReader::DecompressingReader(Compression kind, std::string head, ReadRaw read_raw, std::string name,
                                         DecompressionBuffers buffers)
    : kind_(kind), head_(std::move(head)), read_raw_(std::move(read_raw)), name_(std::move(name)), buffers_(buffers) {
  if (buffers_.chunk_bytes == 0 || buffers_.chunks == 0 || buffers_.input_bytes == 0)
    throw std::invalid_argument("decompression buffers must not be empty");
  if (!can_decompress(kind_))
    throw std::runtime_error(name_ + " is " + compression_name(kind_) +
                             "-compressed, and this perftkit was built without " + compression_name(kind_));
  // A chunk's memory is taken when the decoder first fills it (take_chunk), and not zeroed:
  // a small stream costs one chunk, not all of them.
  for (std::size_t i = 0; i < buffers_.chunks; ++i) {
    chunks_.push_back(std::make_unique<Chunk>());
    free_.push(chunks_.back().get());
  }
  thread_ = std::thread([this] { run(); });
}

DecompressingReader::~DecompressingReader() {
  free_.abort();
  filled_.abort();
  thread_.join();
}

void DecompressingReader::run() {
  try {
    decode();
  } catch (...) {
    error_ = std::current_exception();
  }
  filled_.close();
}

std::size_t DecompressingReader::read_compressed(char* p, std::size_t n) {
  std::size_t got = 0;
  if (head_used_ < head_.size()) {
    got = std::min(n, head_.size() - head_used_);
    std::memcpy(p, head_.data() + head_used_, got);
    head_used_ += got;
  } else {
    got = read_raw_(p, n);
  }
  return got;
}

bool DecompressingReader::take_chunk(Chunk*& chunk) {
  const std::optional<Chunk*> next = free_.pop();
  if (!next) return false;
  chunk = *next;
  if (!chunk->bytes) chunk->bytes = std::make_unique_for_overwrite<char[]>(buffers_.chunk_bytes);
  chunk->data = chunk->bytes.get();
  chunk->size = 0;
  return true;
}

bool DecompressingReader::hand_out_view(Chunk*& view, char* p, std::size_t n) {
  while (n > 0) {
    if (view && view->data + view->size != p) {  // (not contiguous: the decoder's memory wrapped)
      filled_.push(view);
      view = nullptr;
    }
    if (!view) {
      const std::optional<Chunk*> next = free_.pop();
      if (!next) return false;
      view = *next;
      view->data = p;
      view->size = 0;
    }
    const std::size_t take = std::min(n, buffers_.chunk_bytes - view->size);
    view->size += take;
    p += take;
    n -= take;
    if (view->size == buffers_.chunk_bytes) {
      filled_.push(view);
      view = nullptr;
    }
  }
  return true;
}

bool DecompressingReader::take_back_every_view(Chunk*& view) {
  if (view && view->size > 0) filled_.push(view);
  else if (view) free_.push(view);
  view = nullptr;
  std::vector<Chunk*> taken;
  for (std::size_t i = 0; i < chunks_.size(); ++i) {
    const std::optional<Chunk*> next = free_.pop();
    if (!next) return false;
    taken.push_back(*next);
  }
  for (Chunk* chunk : taken) free_.push(chunk);
  return true;
}

bool DecompressingReader::emit(Chunk*& chunk) {
  filled_.push(chunk);
  return take_chunk(chunk);
}

// One loop for every library (frame_decoder.hpp): feed compressed bytes, collect
// decompressed ones, and tell a frame cut short from one that ended.
void DecompressingReader::decode() {
#ifdef PERFTKIT_HAVE_ZSTD
  if (kind_ == Compression::ZSTD) return decode_zstd_in_place();
#endif
  Chunk* out = nullptr;
  if (!take_chunk(out)) return;
  const std::unique_ptr<FrameDecoder> decoder = make_frame_decoder(kind_);
  if (!decoder) throw std::runtime_error(std::string("no decoder for ") + compression_name(kind_));
  const std::unique_ptr<char[]> in = std::make_unique_for_overwrite<char[]>(buffers_.input_bytes);
  std::size_t in_size = 0, in_pos = 0;
  std::uint64_t consumed_before = 0;  // compressed bytes before in[0]
  bool input_done = false;
  bool inside_frame = false;  // bytes of an unfinished frame have been fed
  std::string failure;
  for (;;) {
    if (in_pos == in_size && !input_done) {
      consumed_before += in_size;
      in_size = read_compressed(in.get(), buffers_.input_bytes);
      in_pos = 0;
      compressed_bytes_.store(consumed_before + in_size, std::memory_order_relaxed);
      if (in_size == 0) input_done = true;
    }
    if (in_pos == in_size && input_done) {
      if (inside_frame)
        failure = std::string("truncated ") + compression_name(kind_) + " stream: it ends inside a frame" +
                  at_byte(consumed_before);
      break;
    }
    const DecodeStep step = decoder->step(in.get() + in_pos, in_size - in_pos, out->bytes.get() + out->size,
                                          buffers_.chunk_bytes - out->size);
    if (step.used > 0) inside_frame = true;
    in_pos += step.used;
    out->size += step.produced;
    if (!step.error.empty()) {
      failure = std::string("corrupt ") + compression_name(kind_) + " stream (" + step.error + ")" +
                at_byte(consumed_before + in_pos);
      break;
    }
    if (step.frame_end) inside_frame = false;
    if (out->size == buffers_.chunk_bytes && !emit(out)) return;
    if (step.used == 0 && step.produced == 0 && !step.frame_end && in_pos < in_size &&
        out->size < buffers_.chunk_bytes) {
      failure = std::string("corrupt ") + compression_name(kind_) + " stream (no progress)" +
                at_byte(consumed_before + in_pos);
      break;
    }
  }
  if (!failure.empty()) damage_ = name_ + ": " + failure;
  if (out->size > 0) filled_.push(out);
}

std::size_t DecompressingReader::read(char* p, std::size_t n) {
  std::size_t given = 0;
  while (given < n) {
    if (!current_ || current_pos_ == current_->size) {
      if (current_) free_.push(current_);
      current_ = nullptr;
      if (given > 0) break;  // hand over what there is rather than wait
      const std::optional<Chunk*> next = filled_.pop();
      if (!next) {
        if (error_) std::rethrow_exception(error_);
        return 0;
      }
      current_ = *next;
      current_pos_ = 0;
      continue;
    }
    const std::size_t take = std::min(n - given, current_->size - current_pos_);
    std::memcpy(p + given, current_->data + current_pos_, take);
    current_pos_ += take;
    given += take;
  }
  return given;
}

}  // namespace perftkit
