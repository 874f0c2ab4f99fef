// join_rank_group() in a build without MPI (workdir/rank_group.hpp): the processes an MPI
// launcher starts are ordinary processes sharing the work dir through claim files.
#include <cstdio>

#include "workdir/rank_group.hpp"

namespace perftkit {

std::unique_ptr<RankGroup> join_rank_group() {
  std::fprintf(stderr, "perftkit: built without MPI: the processes share the work dir through claim files\n");
  return nullptr;
}

}  // namespace perftkit
