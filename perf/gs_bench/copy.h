// The copy baseline, the denominator of copy_ratio: the fastest of a few ways to copy the same
// bytes with the same threads (oneTBB), each timed in blocks between the operator's blocks.
#pragma once

#include <array>
#include <chrono>
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

// Seconds each way took at one place of a block; 0 for a way this CPU lacks.
struct CopyTimes {
  std::array<double, kCopyWays> seconds{};
  double Fastest() const;  // the least nonzero time
};

// The copy of the same bytes a benchmark moves: total_bytes / 2 copied (total_bytes moved),
// run in blocks between the operator's (TimeInBlocks) so that both see the same machine.
// source_bytes: the bytes a gather reads its rows from; when fewer than total_bytes / 2,
// kCachedSource copies from a source of that size (else it is not timed).
class CopyBaseline {
 public:
  explicit CopyBaseline(uint64_t total_bytes, uint64_t source_bytes = 0);
  uint64_t source_bytes() const { return source_bytes_; }  // as asked for
  uint64_t total_bytes() const { return total_bytes_; }
  // One block: each available way with `threads` threads, one untimed run and then `runs` timed
  // runs back to back (the k-th CopyTimes holds each way's k-th), so that each way is timed
  // after itself and pays no other's dirty lines; the ways that leave dirty lines run first.
  std::vector<CopyTimes> RunBlock(int threads, int runs);

 private:
  double RunOnce(CopyWay way, int threads);  // seconds
  uint64_t total_bytes_, source_bytes_;
  Buffer src_, dst_, cached_src_;
};

// The pairs of one benchmark: each call's time and the copy's times at its place in the copy's
// block after it.
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

// Timed calls back to back in a block, before the copy's block.
constexpr int kBlockCalls = 5;
// The runs' context says copy_timing: kCopyTiming, so that the dashboard tells them from the
// runs timed call by call before 2026-12-02 (perf/dashboard/gs_gate.py: timed_in_blocks).
inline constexpr char kCopyTiming[] = "blocks";

// A benchmark's loop against the copy: blocks of up to kBlockCalls timed calls back to back
// (the benchmark's manual time), each after one untimed call and followed by the copy's block
// of as many runs. Each side is timed after itself, as the peers time their calls, rather than
// after the other's dirty lines (perf/results/2026-12-02-blocks.md). call(timed) runs the call
// once and returns false to stop the loop (the caller keeps its error). State is
// benchmark::State, Copy a CopyBaseline (others in tests).
template <class State, class Copy, class Call>
CopyPairs TimeInBlocks(State& state, Copy& copy, int threads, const Call& call) {
  CopyPairs pairs;
  std::vector<double> block;
  const auto end_block = [&] {
    const std::vector<CopyTimes> copies = copy.RunBlock(threads, static_cast<int>(block.size()));
    for (size_t i = 0; i < block.size(); ++i) pairs.Add(block[i], copies[i]);
    block.clear();
  };
  for ([[maybe_unused]] auto _ : state) {
    if (block.empty() && !call(false)) break;
    const auto t0 = std::chrono::steady_clock::now();
    if (!call(true)) break;
    const auto t1 = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(t1 - t0).count();
    state.SetIterationTime(seconds);
    block.push_back(seconds);
    if (block.size() == kBlockCalls) end_block();
  }
  if (!block.empty()) end_block();
  return pairs;
}

}  // namespace gs_bench
