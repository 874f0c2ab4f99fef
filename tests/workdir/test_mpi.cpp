// `mpirun -np 2 perftkit perft --work-dir`: two ranks share the shards of start-position
// perft 7 and rank 0 prints the exact total. Skipped when perftkit was built without MPI.
#include <gtest/gtest.h>

#include <string>

#include "support/cli_runner.hpp"
#include "support/scratch_dir.hpp"
#include "support/test_paths.hpp"

namespace {

using perftkit::testing_support::ScratchDir;

#ifdef PERFTKIT_MPIEXEC
// The launcher's command: Open MPI refuses root (as CI runs) and more ranks than cores
// unless told; MPICH needs neither flag.
std::string launcher() {
  const auto version = perftkit::testing_support::run_shell(std::string(PERFTKIT_MPIEXEC) + " --version");
  const bool open_mpi =
      version.output.find("Open MPI") != std::string::npos || version.output.find("OpenRTE") != std::string::npos;
  return open_mpi ? "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + std::string(PERFTKIT_MPIEXEC) +
                        " --oversubscribe"
                  : std::string(PERFTKIT_MPIEXEC);
}
#endif

TEST(WorkDirMpi, TwoRanksCountStartPositionPerft7) {
#ifndef PERFTKIT_MPIEXEC
  GTEST_SKIP() << "perftkit was built without MPI";
#else
  const ScratchDir dir("mpi");
  const std::string work = dir / "run";
  const auto r =
      perftkit::testing_support::run_shell(launcher() + " -np 2 " + perftkit::test_paths::perftkit_binary() +
                                           " perft --depth 7 --shards 128 --threads 1 --hash 64 --work-dir " + work);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Nodes searched: 3195901860\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("mpi: 2 ranks"), std::string::npos) << r.output;
  // Both ranks counted shards: their names are in the results.
  const auto ranks =
      perftkit::testing_support::run_shell("cat " + work + "/results/*.result | grep -c '^worker .*/rank1$'");
  EXPECT_NE(ranks.output, "0\n") << "rank 1 counted no shard";
  const auto reduced = perftkit::testing_support::run_perftkit("reduce " + work);
  EXPECT_NE(reduced.output.find("Nodes searched: 3195901860\n"), std::string::npos) << reduced.output;
#endif
}

}  // namespace
