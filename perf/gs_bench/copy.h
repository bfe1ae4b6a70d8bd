// The copy baseline, the denominator of copy_ratio: the fastest of a few ways to copy the same
// bytes with the same threads (oneTBB), each timed between the operator's calls.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>
#include <oneapi/tbb/task_arena.h>

#include "buffer.h"

namespace gs_bench {

double Median(std::vector<double> v);

// An arena of `threads` threads, kept for the process; nullptr for one thread.
tbb::task_arena* ArenaFor(int threads);

// The ways a slice is copied. glibc's memcpy picks its own stores by size (and a size taken
// per thread slice may keep it off its non-temporal path); the others are the two it may
// have picked wrong for this machine, built for the widest vectors the CPU has.
enum class CopyWay {
  kMemcpy,     // glibc's memcpy: what copy_ratio meant until 2026-11-26 (memcpy_ratio now)
  kStreaming,  // non-temporal stores, one cache line a step (x86-64 only)
  kVector,     // plain vector loads and stores, one cache line a step
  // A gather's bytes from a source no larger than what it gathers from (CopyBaseline's
  // source_bytes), read over and over: what a gather from a cached table can do at best. A
  // slice is copied as kStreaming (kVector where that is not built).
  kCachedSource,
  // The same with kVector's stores: a destination that fits the cache takes plain stores
  // faster than non-temporal ones on some machines.
  kCachedVector,
  // kStreaming's stores over pieces of kCopyPieceBytes dealt to the threads as they finish, not
  // a slice each: how gs's scatters copy Input to Output. All threads then stream through
  // neighbouring bytes, and none waits on a slower one's slice (timed with 2 threads or more).
  kStreamingPieces,
};
constexpr int kCopyWays = 6;
// "memcpy", "nt", "vector", "cached", "cached_vector", "nt_pieces": the counters' prefixes
const char* CopyWayName(CopyWay way);
bool CopyWayAvailable(CopyWay way);

// kStreamingPieces' piece: src/plan/cpu_choice.cc's kCopyPieceBytes.
constexpr size_t kCopyPieceBytes = 256 * 1024;

// `bytes` copied in `threads` 64-byte-aligned slices, one per thread of arena, each slice by
// `way` (kStreamingPieces: in pieces, dealt as the threads finish).
void ParallelCopy(void* dst, const void* src, size_t bytes, int threads, tbb::task_arena* arena,
                  CopyWay way = CopyWay::kMemcpy);

// dst_bytes into dst from a source of src_bytes read over and over (dst[i] = src[i % src_bytes]),
// in one parallel loop of `threads` 64-byte-aligned slices as ParallelCopy's, each by `way`.
void CyclicParallelCopy(void* dst, size_t dst_bytes, const void* src, size_t src_bytes, int threads,
                        tbb::task_arena* arena, CopyWay way);

// Seconds each way took in one round; 0 for a way this CPU lacks.
struct CopyTimes {
  std::array<double, kCopyWays> seconds{};
  double Fastest() const;  // the least nonzero time
};

// The copy of the same bytes a benchmark moves: total_bytes / 2 copied (total_bytes moved),
// run between the operator's calls (A B A B) so that both see the same machine. source_bytes:
// the bytes a gather reads its rows from; when fewer than total_bytes / 2, kCachedSource
// copies from a source of that size (else it is not timed).
class CopyBaseline {
 public:
  explicit CopyBaseline(uint64_t total_bytes, uint64_t source_bytes = 0);
  uint64_t source_bytes() const { return source_bytes_; }  // as asked for
  uint64_t total_bytes() const { return total_bytes_; }
  // One round: each available way once with `threads` threads, starting from a different way
  // each round, so that none always runs straight after the call (whose dirty lines it pays).
  CopyTimes Run(int threads);

 private:
  uint64_t total_bytes_, source_bytes_;
  Buffer src_, dst_, cached_src_;
  int round_ = 0;
};

// The pairs of one benchmark: each call's time and the copy round after it.
class CopyPairs {
 public:
  void Add(double call_seconds, const CopyTimes& copy) {
    calls_.push_back(call_seconds);
    copies_.push_back(copy);
  }
  // copy_ratio (the median over pairs of the fastest way's time over the call's, i.e. gs's
  // bytes/s over the fastest copy's), copy_ratio_min/max (their spread), copy_ratio_best (the
  // fastest copy over the fastest call), copy_pairs, copy_GB_per_s (the fastest way's median
  // speed); memcpy_ratio (the same median with memcpy alone: copy_ratio until 2026-11-26);
  // and <way>_GB_per_s, each way's median speed. `total` bytes are moved per call.
  void SetCounters(benchmark::UserCounters& counters, uint64_t total) const;

 private:
  std::vector<double> calls_;
  std::vector<CopyTimes> copies_;
};

}  // namespace gs_bench
