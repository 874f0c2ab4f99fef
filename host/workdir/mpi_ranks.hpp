// `perftkit perft --work-dir DIR` under an MPI launcher (mpirun, srun): the ranks share the
// run's shards. Rank 0 prepares or resumes the run, hands shard ids out one at a time to
// whichever rank asks next, writes every result it is sent, and prints the total; every rank
// (rank 0 too, on a thread of its own) counts shards with its GPUs or its cores. A rank that
// dies takes only its shard in flight with it: the results already written stay, and the
// same command again counts the rest. Host-safe: no MPI header here.
#pragma once

#include "workdir/run.hpp"

namespace perftkit {

// Runs request over MPI_COMM_WORLD (initialising and finalising MPI); returns this rank's
// exit code. Rank 0 throws what perft_in_work_dir throws when the run cannot be prepared.
int perft_in_work_dir_mpi(const WorkDirPerft& request);

}  // namespace perftkit
