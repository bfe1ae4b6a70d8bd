#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#if !defined(GS_PARALLEL_WITHOUT_TBB)
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/task_arena.h>
#endif

#include "cpu/parallel.h"

namespace gs::cpu {
namespace {

#if !defined(GS_PARALLEL_STD_THREADS)
// One arena per requested thread count, made on first use and kept: creating an arena per
// call would cost more than a small operator. Once made, it is found without the lock.
tbb::task_arena* ArenaForThreadCount(int threads) {
  constexpr int kMaxCached = 256;
  static std::mutex mutex;
  static std::unique_ptr<tbb::task_arena> arenas[kMaxCached + 1];  // owned; made under mutex
  static std::atomic<tbb::task_arena*> made[kMaxCached + 1];
  if (threads > kMaxCached) threads = kMaxCached;
  if (tbb::task_arena* arena = made[threads].load(std::memory_order_acquire)) return arena;
  std::lock_guard<std::mutex> lock(mutex);
  auto& arena = arenas[threads];
  if (!arena) arena = std::make_unique<tbb::task_arena>(threads);
  made[threads].store(arena.get(), std::memory_order_release);
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
#endif

// The machine's hardware threads, as oneTBB counts them (or as std::thread does when the
// engine runs on std::threads); asked once, since asking costs more than a small operator's
// binding checks.
int DefaultConcurrency() {
#if defined(GS_PARALLEL_STD_THREADS)
  static const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
#else
  static const int threads = tbb::info::default_concurrency();
#endif
  return threads;
}

}  // namespace

#if defined(GS_PARALLEL_STD_THREADS)
void Parallel::ForOnThreads(uint64_t count, uint64_t grain,
                            const std::function<void(uint64_t, uint64_t)>& body) const {
  const uint64_t ranges = (count + grain - 1) / grain;
  std::atomic<uint64_t> next{0};
  std::mutex mutex;
  std::exception_ptr failure;
  const auto work = [&] {
    for (uint64_t r; (r = next.fetch_add(1)) < ranges;) {
      try {
        body(r * grain, std::min(count, (r + 1) * grain));
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!failure) failure = std::current_exception();
      }
    }
  };
  std::vector<std::thread> helpers;
  const uint64_t helperCount = std::min<uint64_t>(ranges, static_cast<uint64_t>(concurrency_)) - 1;
  try {
    helpers.reserve(helperCount);
    for (uint64_t t = 0; t < helperCount; ++t) helpers.emplace_back(work);
  } catch (...) {
    // A helper that cannot be had (no memory, no thread) leaves its ranges to the threads that
    // started: failing here, after an earlier phase wrote, would break a scatter's all or nothing.
  }
  work();
  for (auto& helper : helpers) helper.join();
  if (failure) std::rethrow_exception(failure);
}
#endif

Parallel::Parallel(const CpuExecuteOptions& options) {
#if defined(GS_PARALLEL_STD_THREADS)
  const bool started = true;  // no oneTBB start-up to guard
#else
  const bool started = options.ThreadCount == 1 || TbbStarted();
#endif
  if (options.ThreadCount == 1 || !started) {
    concurrency_ = 1;
  } else if (options.Arena != nullptr) {
#if defined(GS_PARALLEL_WITHOUT_TBB)
    concurrency_ = DefaultConcurrency();  // built without oneTBB: the arena cannot be asked
#else
    arena_ = options.Arena;
    concurrency_ = arena_->max_concurrency();
#endif
  } else if (options.ThreadCount > 1) {
    // More threads than cores never helps a memory-bound kernel (and oneTBB warns about it).
    concurrency_ = std::min(options.ThreadCount, DefaultConcurrency());
#if !defined(GS_PARALLEL_STD_THREADS)
    arena_ = concurrency_ > 1 ? ArenaForThreadCount(concurrency_) : nullptr;
#endif
  } else {
#if defined(GS_PARALLEL_STD_THREADS)
    concurrency_ = DefaultConcurrency();
#else
    concurrency_ = tbb::this_task_arena::max_concurrency();
#endif
  }
}

}  // namespace gs::cpu
