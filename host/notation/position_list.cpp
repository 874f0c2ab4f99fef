#include "notation/position_list.hpp"

#include "common/text_lines.hpp"
#include "notation/fen.hpp"
#include "notation/pgn_game.hpp"
#include "notation/pgn_split.hpp"

namespace perftkit {
namespace {

class CollectPositions final : public PgnVisitor {
 public:
  CollectPositions(PositionList& out, std::string source, bool final_only)
      : out_(out), source_(std::move(source)), final_only_(final_only) {}
  void start(std::uint32_t, bool) override {}
  void position(const Position& pos, int ply, int) override {
    if (final_only_) {
      last_ = {pos, source_ + " ply " + std::to_string(ply)};
      return;
    }
    out_.positions.push_back({pos, source_ + " ply " + std::to_string(ply)});
  }
  void finish() {
    if (final_only_ && !last_.source.empty()) out_.positions.push_back(last_);
  }

 private:
  PositionList& out_;
  std::string source_;
  bool final_only_;
  ListedPosition last_;
};

}  // namespace

bool looks_like_pgn(std::string_view file, std::string_view text) {
  if (file.size() >= 4 && file.substr(file.size() - 4) == ".pgn") return true;
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return false;
  return text[first] == '[' || text.substr(first, 2) == "1.";
}

PositionList positions_of_lines(std::string_view text, std::string_view file) {
  PositionList list;
  TextLines lines(without_byte_order_mark(text));
  for (std::string_view raw; lines.next(raw);) {
    const std::string_view line = trim_blanks(raw);
    const std::uint64_t line_number = lines.number();
    if (line.empty() || line.front() == '#') continue;
    const std::string source = std::string(file) + ":" + std::to_string(line_number);
    const FenResult parsed = line.find(';') != std::string_view::npos ? parse_epd(line) : parse_fen(line);
    if (parsed) list.positions.push_back({parsed->position, source});
    else list.errors.push_back({source, parsed.error});
  }
  return list;
}

PositionList positions_of_pgn(std::string_view text, std::string_view file, bool final_only) {
  PositionList list;
  std::size_t game = 0;
  while (!text.empty()) {
    const GameExtent extent = find_game_end(text, true);
    const std::string_view game_text = text.substr(0, extent.end);
    text.remove_prefix(extent.end == 0 ? text.size() : extent.end);
    if (!extent.has_content) continue;
    const std::string source = std::string(file) + ":game " + std::to_string(++game);
    CollectPositions collect(list, source, final_only);
    const PgnReplay replay = replay_game(game_text, collect);
    if (replay.error.empty()) collect.finish();  // a broken game has no final position
    if (!replay.error.empty())
      list.errors.push_back(
          {source + (replay.error_ply ? " ply " + std::to_string(replay.error_ply) : ""), replay.error});
  }
  return list;
}

}  // namespace perftkit
