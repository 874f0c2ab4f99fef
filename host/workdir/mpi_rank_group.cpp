// The rank group of an MPI build (workdir/rank_group.hpp): shard ids go from rank 0 to
// whichever rank asks next; results come back with the next request.
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
#include "workdir/rank_group.hpp"

namespace perftkit {
namespace {

constexpr int TAG_REQUEST = 1;  // rank -> 0: the encoded result of its last shard (empty: none yet)
constexpr int TAG_ASSIGN = 2;   // 0 -> rank: the next shard id, or NO_MORE_SHARDS
constexpr long long NO_MORE_SHARDS = -1;

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
void record_sent_result(ShardWorker& worker, const std::string& text, int from) {
  std::string error;
  const std::optional<ShardResult> result = decode_result(text, error);
  try {
    if (!result) throw std::invalid_argument(error);
    worker.record(*result);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perftkit: warning: rank %d sent a result that is not used: %s\n", from, e.what());
  }
}

// Rank 0: answers every request with the next shard until none is left and every other
// rank has been told so; meanwhile its own thread counts shards too.
void coordinate(int ranks, const WorkDir& dir, ShardWorker& worker) {
  ShardQueue queue;
  queue_pending_shards(dir, queue);
  std::thread local([&] { count_locally(worker, queue); });
  int active = ranks - 1;
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
    if (!text.empty()) record_sent_result(worker, text, status.MPI_SOURCE);
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

// MPI for the lifetime of the object; only the main thread calls MPI (MPI_THREAD_FUNNELED).
class MpiRankGroup final : public RankGroup {
 public:
  MpiRankGroup() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
    MPI_Comm_size(local, &local_size_);
    MPI_Comm_free(&local);
  }
  ~MpiRankGroup() override { MPI_Finalize(); }
  MpiRankGroup(const MpiRankGroup&) = delete;
  MpiRankGroup& operator=(const MpiRankGroup&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_size() const override { return local_size_; }

  bool agree_prepared(bool prepared) override {
    int flag = prepared ? 1 : 0;
    MPI_Bcast(&flag, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return flag != 0;
  }

  [[noreturn]] void abort_job(const std::string& why) override {
    std::fprintf(stderr, "perftkit: rank %d: %s\n", rank_, why.c_str());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, EXIT_BAD_INPUT);
    std::terminate();
  }

  void count_shards(const WorkDir& dir, ShardWorker& worker) override {
    if (rank_ == 0) coordinate(size_, dir, worker);
    else serve(worker);
  }

 private:
  int rank_ = 0, size_ = 1, local_size_ = 1;
};

}  // namespace

std::unique_ptr<RankGroup> join_rank_group() { return std::make_unique<MpiRankGroup>(); }

}  // namespace perftkit
