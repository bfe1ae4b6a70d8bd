#include "copy.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>

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

CopyBaseline::CopyBaseline(uint64_t total_bytes)
    : total_bytes_(total_bytes),
      src_(static_cast<size_t>(total_bytes / 2)),
      dst_(static_cast<size_t>(total_bytes / 2)) {
  std::memset(src_.data(), 0x5a, src_.size());
}

void CopyBaseline::Run(int threads) {
  ParallelCopy(dst_.data(), src_.data(), src_.size(), threads, ArenaFor(threads));
}

}  // namespace gs_bench
