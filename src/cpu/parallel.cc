#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <new>
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
namespace {

// A call's share of work offered to the helpers: it lives on the calling thread's stack until
// no helper is inside it.
struct Job {
  void (*work)(void* context) = nullptr;  // pulls ranges until none is left
  void* context = nullptr;
  uint64_t wanted = 0;   // helpers it may still take
  std::atomic<uint64_t> running{0};  // helpers inside work (changed under the mutex)
  Job* next = nullptr;   // the next offered job (an intrusive list: offering allocates nothing)
  std::condition_variable left;  // a helper left work
};

// Helper threads kept for the process, started as calls first want them: starting threads for
// each parallel phase cost more than the phases of a call of a few MiB
// (perf/results/2026-12-05-windows-under-wine.md). Made in static storage, so that getting it
// cannot fail, and never destroyed: a helper waits on the condition variable until the
// process ends it.
class Helpers {
 public:
  static Helpers& Get() {
    alignas(Helpers) static unsigned char storage[sizeof(Helpers)];
    static Helpers* const helpers = new (storage) Helpers();
    return *helpers;
  }

  // Runs work() on the calling thread and on up to `count` helpers, returning when every
  // helper that took a share has left it. Nothing here allocates once the helpers are started;
  // a helper that cannot be started leaves its share to the others (failing after an earlier
  // phase wrote would break a scatter's all or nothing).
  template <typename Work>
  void Run(const Work& work, uint64_t count) {
    Job job;
    job.work = [](void* context) { (*static_cast<const Work*>(context))(); };
    job.context = const_cast<Work*>(&work);
    bool offered = false;  // job.wanted is the helpers' once offered
    {
      std::lock_guard<std::mutex> lock(mutex_);
      try {
        threads_.reserve(count);
        while (threads_.size() < count) threads_.emplace_back([this] { Serve(); });
      } catch (...) {
      }
      job.wanted = std::min<uint64_t>(count, threads_.size());
      offered = job.wanted != 0;
      if (offered) {
        job.next = offered_;
        offered_ = &job;
        offers_.fetch_add(1, std::memory_order_release);
      }
    }
    if (offered) offeredChanged_.notify_all();
    work();
    std::unique_lock<std::mutex> lock(mutex_);
    Withdraw(&job);
    if (job.running.load() != 0) {
      lock.unlock();
      SpinWhile([&] { return job.running.load(std::memory_order_acquire) != 0; });
      lock.lock();
      job.left.wait(lock, [&] { return job.running.load() == 0; });
    }
  }

 private:
  Helpers() = default;

  // Spins while keepWaiting() holds, for a few tens of microseconds at most: a call's next
  // phase, or a helper's end of one, usually comes sooner than a thread woken through the
  // condition variable runs (perf/results/2026-12-05-windows-under-wine.md), as oneTBB's
  // workers spin before they sleep.
  template <typename Predicate>
  static void SpinWhile(const Predicate& keepWaiting) {
    constexpr auto kSpin = std::chrono::microseconds(50);
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (uint32_t i = 1; keepWaiting(); ++i) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#elif defined(__aarch64__)
      asm volatile("yield");
#endif
      if (i % 64 == 0 && std::chrono::steady_clock::now() > until) return;
    }
  }

  void Serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (offered_ == nullptr) {
        const uint64_t seen = offers_.load();
        lock.unlock();
        SpinWhile([&] { return offers_.load(std::memory_order_acquire) == seen; });
        lock.lock();
      }
      offeredChanged_.wait(lock, [&] { return offered_ != nullptr; });
      Job* job = offered_;
      if (--job->wanted == 0) Withdraw(job);
      ++job->running;
      lock.unlock();
      job->work(job->context);
      lock.lock();
      if (--job->running == 0) job->left.notify_all();
    }
  }

  // Takes `job` off the offered list (under mutex_), if it is still there.
  void Withdraw(Job* job) {
    for (Job** at = &offered_; *at != nullptr; at = &(*at)->next) {
      if (*at == job) {
        *at = job->next;
        job->wanted = 0;
        return;
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable offeredChanged_;
  Job* offered_ = nullptr;
  std::atomic<uint64_t> offers_{0};  // jobs ever offered: what a spinning helper watches
  std::vector<std::thread> threads_;
};

}  // namespace

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
  Helpers::Get().Run(work, std::min<uint64_t>(ranges, static_cast<uint64_t>(concurrency_)) - 1);
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
