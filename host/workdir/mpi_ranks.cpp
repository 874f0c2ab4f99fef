#include "workdir/mpi_ranks.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "common/errors.hpp"
#include "workdir/shard_worker.hpp"
#include "workdir/setup.hpp"

namespace perftkit {
namespace {

constexpr int TAG_REQUEST = 1;  // rank -> 0: the encoded result of its last shard (empty: none yet)
constexpr int TAG_ASSIGN = 2;   // 0 -> rank: the next shard id, or NO_MORE_SHARDS
constexpr long long NO_MORE_SHARDS = -1;

// MPI for the lifetime of the object; only the main thread calls MPI (MPI_THREAD_FUNNELED).
class MpiSession {
 public:
  MpiSession() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
    MPI_Comm_size(local, &local_size_);
    MPI_Comm_free(&local);
  }
  ~MpiSession() { MPI_Finalize(); }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_size() const { return local_size_; }  // ranks on this machine

 private:
  int rank_ = 0, size_ = 1, local_size_ = 1;
};

// Ends the whole job: a rank that cannot take part would leave the others waiting.
[[noreturn]] void abort_job(const MpiSession& mpi, const std::string& why) {
  std::fprintf(stderr, "perftkit: rank %d: %s\n", mpi.rank(), why.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, EXIT_BAD_INPUT);
  std::terminate();
}

// The shards rank 0 still has to hand out, lowest id first; its own worker thread takes
// from it too.
class ShardQueue {
 public:
  void push(std::uint32_t id) { ids_.push_back(id); }
  std::optional<std::uint32_t> next() {
    std::lock_guard lock(mutex_);
    if (ids_.empty()) return std::nullopt;
    const std::uint32_t id = ids_.front();
    ids_.pop_front();
    return id;
  }

 private:
  std::mutex mutex_;
  std::deque<std::uint32_t> ids_;
};

// Queues the shards without a valid result; a corrupt one is reported and counted again.
void queue_pending_shards(const WorkDir& dir, ShardQueue& queue) {
  for (std::uint32_t id = 0; id < dir.shard_count(); ++id) {
    const ResultCheck check = dir.check_result(id);
    if (check.state == ResultState::VALID) continue;
    if (check.state == ResultState::CORRUPT)
      std::fprintf(stderr, "perftkit: warning: shard %u: its result is not usable (%s); counting it again\n",
                   static_cast<unsigned>(id), check.problem.c_str());
    queue.push(id);
  }
}

// Counts shards from the queue on rank 0's own thread, writing each result.
void count_locally(ShardWorker& worker, ShardQueue& queue) {
  while (const std::optional<std::uint32_t> id = queue.next()) {
    try {
      worker.count_and_record(*id);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "perftkit: error: shard %u: %s\n", static_cast<unsigned>(*id), e.what());
    }
  }
}

// Writes a result a rank sent, after checking it is one of this run's shards.
void record_sent_result(const WorkDir& dir, const std::string& text, int from) {
  std::string error;
  const std::optional<ShardResult> result = decode_result(text, error);
  try {
    if (!result) throw std::invalid_argument(error);
    dir.write_result(*result);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perftkit: warning: rank %d sent a result that is not used: %s\n", from, e.what());
  }
}

// Rank 0: answers every request with the next shard until none is left and every other
// rank has been told so; meanwhile its own thread counts shards too.
void coordinate(const MpiSession& mpi, const WorkDir& dir, ShardWorker& worker) {
  ShardQueue queue;
  queue_pending_shards(dir, queue);
  std::thread local([&] { count_locally(worker, queue); });
  int active = mpi.size() - 1;
  while (active > 0) {
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, TAG_REQUEST, MPI_COMM_WORLD, &arrived, &status);
    if (!arrived) {  // poll gently: this rank's cores are counting
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    int length = 0;
    MPI_Get_count(&status, MPI_CHAR, &length);
    std::string text(std::size_t(length), '\0');
    MPI_Recv(text.data(), length, MPI_CHAR, status.MPI_SOURCE, TAG_REQUEST, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!text.empty()) record_sent_result(dir, text, status.MPI_SOURCE);
    const std::optional<std::uint32_t> id = queue.next();
    const long long assignment = id ? static_cast<long long>(*id) : NO_MORE_SHARDS;
    MPI_Send(&assignment, 1, MPI_LONG_LONG, status.MPI_SOURCE, TAG_ASSIGN, MPI_COMM_WORLD);
    if (!id) --active;
  }
  local.join();
}

// Ranks 1..N-1: ask for a shard (sending the last result), count it, until told to stop.
void serve(ShardWorker& worker) {
  std::string last_result;
  for (;;) {
    MPI_Send(last_result.data(), int(last_result.size()), MPI_CHAR, 0, TAG_REQUEST, MPI_COMM_WORLD);
    long long assignment = NO_MORE_SHARDS;
    MPI_Recv(&assignment, 1, MPI_LONG_LONG, 0, TAG_ASSIGN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (assignment == NO_MORE_SHARDS) return;
    last_result.clear();
    try {
      last_result = encode_result(worker.count(std::uint32_t(assignment)));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "perftkit: error: shard %lld: %s\n", assignment, e.what());
    }
  }
}

}  // namespace

int perft_in_work_dir_mpi(const WorkDirPerft& request) {
  MpiSession mpi;
  const auto start = std::chrono::steady_clock::now();

  // Rank 0 alone writes the shards; the others open the run once it is there.
  int prepared = 1;
  std::exception_ptr failure;
  std::optional<WorkDir> dir;
  if (mpi.rank() == 0) {
    try {
      dir.emplace(prepare_work_dir(request.path, request.split, stderr));
    } catch (...) {
      failure = std::current_exception();
      prepared = 0;
    }
  }
  MPI_Bcast(&prepared, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (failure) std::rethrow_exception(failure);
  if (!prepared) return EXIT_BAD_INPUT;  // rank 0 says why
  if (mpi.rank() != 0) {
    try {
      dir.emplace(WorkDir::open(request.path));
    } catch (const std::exception& e) {
      abort_job(mpi, std::string(e.what()) + " (is the work dir on a filesystem every rank shares?)");
    }
  }

  const PerftRequest settings = settings_for_process(request, dir->manifest(), unsigned(mpi.local_size()));
  std::optional<ShardWorker> worker;
  try {
    worker.emplace(*dir, settings, default_worker_name() + "/rank" + std::to_string(mpi.rank()),
                   request.progress ? stderr : nullptr);
  } catch (const std::exception& e) {
    abort_job(mpi, e.what());
  }
  if (mpi.rank() != 0) {
    serve(*worker);
    return EXIT_OK;
  }
  describe_work_dir(*dir, scan_work_dir(*dir, request.claim_timeout_seconds).done);
  describe_table(request, settings);
  std::fprintf(stderr, "mpi: %d ranks (%d on this machine), %u thread%s each\n", mpi.size(), mpi.local_size(),
               settings.threads, settings.threads == 1 ? "" : "s");
  coordinate(mpi, *dir, *worker);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report_work_dir_total(request, *dir, seconds, worker->backend_name(), settings.threads, unsigned(mpi.size()));
}

}  // namespace perftkit
