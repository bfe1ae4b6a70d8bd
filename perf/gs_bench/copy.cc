#include "copy.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <utility>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>

#include "buffers.h"

namespace gs_bench {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void ParallelCopy(void* dst, const void* src, size_t bytes, int threads, tbb::task_arena* arena) {
  if (threads <= 1 || arena == nullptr) {
    std::memcpy(dst, src, bytes);
    return;
  }
  // Split into `threads` 64-byte-aligned slices, one per thread.
  const size_t slice = ((bytes + threads - 1) / threads + 63) / 64 * 64;
  arena->execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<int>(0, threads, 1),
        [&](const tbb::blocked_range<int>& r) {
          for (int i = r.begin(); i < r.end(); ++i) {
            size_t begin = std::min(bytes, slice * i);
            size_t end = std::min(bytes, begin + slice);
            if (end > begin) {
              std::memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin,
                          end - begin);
            }
          }
        },
        tbb::static_partitioner());
  });
}

tbb::task_arena* ArenaFor(int threads) {
  static std::map<int, std::unique_ptr<tbb::task_arena>> arenas;
  if (threads <= 1) return nullptr;
  auto& a = arenas[threads];
  if (!a) {
    a = std::make_unique<tbb::task_arena>(threads);
    a->initialize();
  }
  return a.get();
}

double CopyBytesPerSecond(uint64_t total_bytes, int threads, int repetitions) {
  static std::map<std::pair<uint64_t, int>, double> cache;
  auto key = std::make_pair(total_bytes, threads);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const size_t half = static_cast<size_t>(total_bytes / 2);
  Buffer src(half), dst(half);
  std::memset(src.data(), 0x5a, half);
  tbb::task_arena* arena = ArenaFor(threads);
  ParallelCopy(dst.data(), src.data(), half, threads, arena);  // warm-up
  std::vector<double> rates;
  for (int r = 0; r < repetitions; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    ParallelCopy(dst.data(), src.data(), half, threads, arena);
    auto t1 = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(t1 - t0).count();
    rates.push_back(static_cast<double>(2 * half) / s);
  }
  double bps = Median(rates);
  cache[key] = bps;
  return bps;
}

}  // namespace gs_bench
