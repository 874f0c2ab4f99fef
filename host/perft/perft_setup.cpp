#include "perft/perft_setup.hpp"

#include <algorithm>

#include "common/errors.hpp"
#include "common/system_memory.hpp"
#include "notation/san.hpp"
#include "notation/uci.hpp"
#include "perft/hash_sizing.hpp"

namespace perftkit {

namespace {

// Why move `number` of --moves, `text`, cannot be played at pos: a legal move written in SAN
// gets its UCI spelling; text that is no UCI move says so; else it is not legal there.
std::string unplayable_move(const Position& pos, std::size_t number, const std::string& text, bool chess960) {
  const std::string which = "--moves: move " + std::to_string(number) + " '" + text + "'";
  if (looks_like_uci(text)) return which + " is not legal in " + to_fen(pos);
  if (const SanResult san = parse_san(pos, text); san.status == SanStatus::OK)
    return which + " is SAN; --moves takes UCI notation: '" + to_uci(san.move, chess960) + "'";
  return which + " is not a UCI move (from and to squares, and a promotion piece: e2e4, e7e8q) in " + to_fen(pos);
}

}  // namespace

ParsedPosition perft_root(std::string_view fen, const std::vector<std::string>& moves) {
  const FenResult parsed = parse_fen(fen);
  if (!parsed) throw UsageError("invalid FEN: " + parsed.error);
  ParsedPosition root = *parsed;
  if (const auto illegal = play_uci_moves(root.position, split_moves(moves)))
    throw UsageError(unplayable_move(root.position, illegal->number, illegal->text, root.chess960));
  return root;
}

std::size_t hash_table_mb(const PerftRequest& req, std::optional<std::size_t> asked) {
  if (!runs_with_hash_table(req)) return 0;
  // (Sizing expands the first plies: not worth it for no table, nor where nothing is cut.)
  if (asked && (*asked == 0 || hash_table_kind(req) == HashTableKind::PIPELINE)) return *asked;
  const std::size_t needed =
      req.stats ? suggested_stats_hash_bytes(req.root, req.depth) : suggested_hash_bytes(req.root, req.depth);
  if (asked) return std::min(*asked, needed >> 20);
  const std::size_t limit = runs_on_gpu(req) ? default_device_hash_bytes() : default_hash_bytes();
  return std::min(limit, needed) >> 20;
}

}  // namespace perftkit
