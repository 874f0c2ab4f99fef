// The processes of one work-dir run started together by an MPI launcher (mpirun, srun): a
// worker of the work-dir driver (workdir/run.cpp), which shares the run's shards among the
// ranks. Rank 0 hands shard ids out one at a time to whichever rank asks next and writes
// every result it is sent; every rank (rank 0 too, on a thread of its own) counts shards with
// its GPUs or its cores. A rank that dies takes only its shard in flight with it: the results
// already written stay, and the same command again counts the rest.
//
// One implementation a build: mpi_rank_group.cpp with MPI (the only unit that includes
// mpi.h), no_rank_group.cpp without (cmake/mpi.cmake).
#pragma once

#include <memory>
#include <string>

#include "workdir/shard_worker.hpp"
#include "workdir/work_dir.hpp"

namespace perftkit {

class RankGroup {
 public:
  virtual ~RankGroup() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;        // ranks in the job
  virtual int local_size() const = 0;  // ranks on this machine (they share its cores)

  // Every rank calls it: rank 0 passes whether it prepared the run, the others learn it.
  virtual bool agree_prepared(bool prepared) = 0;

  // Ends the whole job with a message: a rank that cannot take part would leave the others
  // waiting for it.
  [[noreturn]] virtual void abort_job(const std::string& why) = 0;

  // Counts every shard of dir without a valid result, over all ranks, and returns when none
  // is left. Rank 0 writes every result; a corrupt one is reported and counted again.
  virtual void count_shards(const WorkDir& dir, ShardWorker& worker) = 0;
};

// Joins the job this process was started in by an MPI launcher: MPI is initialised now and
// finalised with the group. Without MPI in the build, says on stderr that the processes will
// share the work dir through claim files instead, and returns nullptr.
std::unique_ptr<RankGroup> join_rank_group();

}  // namespace perftkit
