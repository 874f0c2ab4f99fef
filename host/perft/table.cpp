#include "perft/table.hpp"

#include "pipeline/subtree_table.hpp"

namespace perftkit {

PerftTable::PerftTable(std::size_t bytes, unsigned threads)
    : memory_(subtree_table_layout(bytes).bytes(), threads),
      view_{reinterpret_cast<SubtreeBucket*>(memory_.data()), subtree_table_layout(bytes)} {}

bool PerftTable::probe(const PositionKey& key, int depth, std::uint64_t& count) const {
  return view_.probe(key, depth, count);
}

void PerftTable::store(const PositionKey& key, int depth, std::uint64_t count) { view_.store(key, depth, count); }

}  // namespace perftkit
