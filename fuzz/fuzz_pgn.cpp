// PGN on any text: games are cut where a result token ends them, and each is replayed
// move by move (tags, FEN starts, comments, variations, SAN). A replay either plays every
// move or names the one it stopped at; the positions it reports are legal ones.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "notation/fen.hpp"
#include "notation/pgn_game.hpp"
#include "notation/pgn_split.hpp"

namespace {

class CheckingVisitor : public perftkit::PgnVisitor {
 public:
  void start(std::uint32_t, bool) override { started_ = true; }
  void position(const perftkit::Position& pos, int ply, int repetitions) override {
    FUZZ_CHECK(started_);
    FUZZ_CHECK(ply == next_ply_++);
    FUZZ_CHECK(repetitions >= 1);
    FUZZ_CHECK(perftkit::parse_fen(perftkit::to_fen(pos)));
  }
  void tag(std::string_view name, std::string_view) override { FUZZ_CHECK(!name.empty()); }
  void move(std::string_view san, perftkit::Move, std::string_view) override { FUZZ_CHECK(!san.empty()); }
  bool wants_details() const override { return true; }

 private:
  bool started_ = false;
  int next_ply_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (int games = 0; !text.empty() && games < 64; ++games) {
    const perftkit::GameExtent extent = perftkit::find_game_end(text, true);
    FUZZ_CHECK(extent.end <= text.size());
    const std::string_view game = text.substr(0, extent.end == 0 ? text.size() : extent.end);
    CheckingVisitor visitor;
    const perftkit::PgnReplay replay = perftkit::replay_game(game, visitor);
    FUZZ_CHECK(replay.plies >= 0);
    if (!replay.error.empty()) FUZZ_CHECK(replay.error_ply >= 0);
    text.remove_prefix(game.size());
  }
  return 0;
}
