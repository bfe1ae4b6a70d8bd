// The copy baseline: a plain memcpy of the same bytes with the same threads (oneTBB), the
// denominator of copy_ratio.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <oneapi/tbb/task_arena.h>

namespace gs_bench {

double Median(std::vector<double> v);

// An arena of `threads` threads, kept for the process; nullptr for one thread.
tbb::task_arena* ArenaFor(int threads);

// memcpy split into `threads` 64-byte-aligned slices, one per thread of arena.
void ParallelCopy(void* dst, const void* src, size_t bytes, int threads, tbb::task_arena* arena);

// Bytes/second of a copy of total_bytes / 2 bytes (total_bytes moved) with `threads` threads,
// the median of `repetitions`, cached per (bytes, threads).
double CopyBytesPerSecond(uint64_t total_bytes, int threads, int repetitions);

}  // namespace gs_bench
