// How the CPU engine spreads work: oneTBB over ranges of units, or the calling thread alone.
#pragma once

#include <cstdint>
#include <functional>

#if !defined(GS_PARALLEL_STD_THREADS)
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#endif

#include "gs/cpu.h"

namespace gs::cpu {

class Parallel {
 public:
  explicit Parallel(const CpuExecuteOptions& options);

  // Threads that may work on one call (1 = the calling thread only).
  int concurrency() const { return concurrency_; }

  // Calls body(begin, end) over [0, count) in ranges of at least `grain`; serially on the
  // calling thread when one range would do or only one thread may run.
  template <typename Body>
  void For(uint64_t count, uint64_t grain, const Body& body) const {
    if (count == 0) return;
    if (concurrency_ <= 1 || count <= grain) {
      body(uint64_t{0}, count);
      return;
    }
#if defined(GS_PARALLEL_STD_THREADS)
    ForOnThreads(count, grain, [&](uint64_t begin, uint64_t end) { body(begin, end); });
#else
    auto run = [&] {
      tbb::parallel_for(tbb::blocked_range<uint64_t>(0, count, grain),
                        [&](const tbb::blocked_range<uint64_t>& r) { body(r.begin(), r.end()); });
    };
    if (arena_ != nullptr) {
      arena_->execute(run);
    } else {
      run();
    }
#endif
  }

 private:
#if defined(GS_PARALLEL_STD_THREADS)
  // The backend of ThreadSanitizer builds (GS_PARALLEL_BACKEND=std_threads, the tsan preset)
  // and of the Windows build: Debian's oneTBB is not built with TSan (its synchronisation would
  // be invisible to it and every handoff through it reported as a race) nor for mingw. The
  // calling thread and helper std::threads, kept between calls, pull ranges of at least
  // `grain` units from a counter; the first exception is rethrown here.
  void ForOnThreads(uint64_t count, uint64_t grain, const std::function<void(uint64_t, uint64_t)>& body) const;
#endif
  tbb::task_arena* arena_ = nullptr;
  int concurrency_ = 1;
};

}  // namespace gs::cpu
