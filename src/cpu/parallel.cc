#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>

#include <oneapi/tbb/info.h>

#include "cpu/parallel.h"

namespace gs::cpu {
namespace {

// One arena per requested thread count, made on first use and kept: creating an arena per
// call would cost more than a small operator.
tbb::task_arena* ArenaForThreadCount(int threads) {
  constexpr int kMaxCached = 256;
  static std::mutex mutex;
  static std::unique_ptr<tbb::task_arena> arenas[kMaxCached + 1];
  if (threads > kMaxCached) threads = kMaxCached;
  std::lock_guard<std::mutex> lock(mutex);
  auto& arena = arenas[threads];
  if (!arena) arena = std::make_unique<tbb::task_arena>(threads);
  return arena.get();
}

// oneTBB's one-time start-up (its NUMA topology) is not retried when an allocation fails in
// it: every later call that reaches it spins forever. So the start-up runs once, here, under
// this guard; if it failed, the call reports OutOfMemory and every later call runs on its
// caller's thread instead of hanging.
bool TbbStarted() {
  enum : int { kNotYet, kStarted, kFailed };
  static std::atomic<int> state{kNotYet};
  static std::mutex mutex;
  const int seen = state.load(std::memory_order_acquire);
  if (seen != kNotYet) return seen == kStarted;
  std::lock_guard<std::mutex> lock(mutex);
  if (state.load(std::memory_order_relaxed) == kNotYet) {
    try {
      (void)tbb::info::default_concurrency();
      (void)tbb::this_task_arena::max_concurrency();
      state.store(kStarted, std::memory_order_release);
    } catch (...) {
      state.store(kFailed, std::memory_order_release);
      throw;
    }
  }
  return state.load(std::memory_order_relaxed) == kStarted;
}

}  // namespace

Parallel::Parallel(const CpuExecuteOptions& options) {
  if (options.ThreadCount == 1 || !TbbStarted()) {
    concurrency_ = 1;
  } else if (options.Arena != nullptr) {
    arena_ = options.Arena;
    concurrency_ = arena_->max_concurrency();
  } else if (options.ThreadCount > 1) {
    // More threads than cores never helps a memory-bound kernel (and oneTBB warns about it).
    concurrency_ = std::min(options.ThreadCount, tbb::info::default_concurrency());
    arena_ = concurrency_ > 1 ? ArenaForThreadCount(concurrency_) : nullptr;
  } else {
    concurrency_ = tbb::this_task_arena::max_concurrency();
  }
}

}  // namespace gs::cpu
