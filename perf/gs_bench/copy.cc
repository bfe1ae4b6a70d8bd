#include "copy.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <string>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>

#if defined(__x86_64__)
#include <immintrin.h>
#define GS_COPY_X86 1
#endif

namespace gs_bench {
namespace {

constexpr size_t kLine = 64;

using SliceCopy = void (*)(char* dst, const char* src, size_t bytes);

void MemcpySlice(char* dst, const char* src, size_t bytes) { std::memcpy(dst, src, bytes); }

// The default target's vectors (16 bytes: SSE2, NEON), a line a step.
void VectorSliceBase(char* dst, const char* src, size_t bytes) {
  size_t b = 0;
  for (; b + kLine <= bytes; b += kLine) __builtin_memcpy(dst + b, src + b, kLine);
  std::memcpy(dst + b, src + b, bytes - b);
}

#ifdef GS_COPY_X86
// The bytes before dst's first 64-byte boundary, copied plainly; the baseline's slices start
// aligned (64-byte aligned buffers, slices of whole lines), so this is 0 there.
size_t Head(char* dst, const char* src, size_t bytes) {
  const size_t head = std::min(bytes, (kLine - reinterpret_cast<uintptr_t>(dst) % kLine) % kLine);
  std::memcpy(dst, src, head);
  return head;
}

__attribute__((target("avx512f"))) void VectorSlice512(char* dst, const char* src, size_t bytes) {
  size_t b = Head(dst, src, bytes);
  for (; b + kLine <= bytes; b += kLine)
    _mm512_store_si512(dst + b, _mm512_loadu_si512(src + b));
  std::memcpy(dst + b, src + b, bytes - b);
}

__attribute__((target("avx"))) void VectorSlice256(char* dst, const char* src, size_t bytes) {
  size_t b = Head(dst, src, bytes);
  for (; b + kLine <= bytes; b += kLine) {
    auto* d = reinterpret_cast<__m256i*>(dst + b);
    auto* s = reinterpret_cast<const __m256i*>(src + b);
    _mm256_store_si256(d, _mm256_loadu_si256(s));
    _mm256_store_si256(d + 1, _mm256_loadu_si256(s + 1));
  }
  std::memcpy(dst + b, src + b, bytes - b);
}

// The streamed slices take their lines four 4 KiB pages at a time, a line of each in turn, as
// gs's own streamed copy does (src/cpu/simd/stream_intrinsics.h), and the lines past the last
// whole group of pages in order. The offsets are loops over a group's lines and pages: an
// offset computed per line ran these ways 10-14% slower, and below gs's own copy (1 and 2
// threads, an Emerald Rapids VM, perf/results/2026-12-02-blocks.md).
constexpr size_t kPageBytes = 4096, kPagesAtOnce = 4, kGroupBytes = kPagesAtOnce * kPageBytes;

__attribute__((target("avx512f"))) inline void StreamLine512(char* dst, const char* src) {
  _mm512_stream_si512(reinterpret_cast<__m512i*>(dst), _mm512_loadu_si512(src));
}

__attribute__((target("avx"))) inline void StreamLine256(char* dst, const char* src) {
  auto* d = reinterpret_cast<__m256i*>(dst);
  auto* s = reinterpret_cast<const __m256i*>(src);
  _mm256_stream_si256(d, _mm256_loadu_si256(s));
  _mm256_stream_si256(d + 1, _mm256_loadu_si256(s + 1));
}

inline void StreamLine128(char* dst, const char* src) {
  auto* d = reinterpret_cast<__m128i*>(dst);
  auto* s = reinterpret_cast<const __m128i*>(src);
  for (int i = 0; i < 4; ++i) _mm_stream_si128(d + i, _mm_loadu_si128(s + i));
}

__attribute__((target("avx512f"))) void StreamingSlice512(char* dst, const char* src, size_t bytes) {
  size_t at = Head(dst, src, bytes);
  for (; at + kGroupBytes <= bytes; at += kGroupBytes) {
    for (size_t o = 0; o < kPageBytes; o += kLine) {
      for (size_t page = 0; page < kGroupBytes; page += kPageBytes) StreamLine512(dst + at + page + o, src + at + page + o);
    }
  }
  for (; at + kLine <= bytes; at += kLine) StreamLine512(dst + at, src + at);
  _mm_sfence();  // the streamed lines reach memory before the copy counts as done
  std::memcpy(dst + at, src + at, bytes - at);
}

__attribute__((target("avx"))) void StreamingSlice256(char* dst, const char* src, size_t bytes) {
  size_t at = Head(dst, src, bytes);
  for (; at + kGroupBytes <= bytes; at += kGroupBytes) {
    for (size_t o = 0; o < kPageBytes; o += kLine) {
      for (size_t page = 0; page < kGroupBytes; page += kPageBytes) StreamLine256(dst + at + page + o, src + at + page + o);
    }
  }
  for (; at + kLine <= bytes; at += kLine) StreamLine256(dst + at, src + at);
  _mm_sfence();
  std::memcpy(dst + at, src + at, bytes - at);
}

void StreamingSlice128(char* dst, const char* src, size_t bytes) {
  size_t at = Head(dst, src, bytes);
  for (; at + kGroupBytes <= bytes; at += kGroupBytes) {
    for (size_t o = 0; o < kPageBytes; o += kLine) {
      for (size_t page = 0; page < kGroupBytes; page += kPageBytes) StreamLine128(dst + at + page + o, src + at + page + o);
    }
  }
  for (; at + kLine <= bytes; at += kLine) StreamLine128(dst + at, src + at);
  _mm_sfence();
  std::memcpy(dst + at, src + at, bytes - at);
}
#endif

// The slice copy of `way` for this CPU's widest vectors; nullptr where the way is not built.
SliceCopy SliceCopyFor(CopyWay way) {
  switch (way) {
    case CopyWay::kMemcpy:
      return MemcpySlice;
    case CopyWay::kVector:
    case CopyWay::kCachedVector:
#ifdef GS_COPY_X86
      if (__builtin_cpu_supports("avx512f")) return VectorSlice512;
      if (__builtin_cpu_supports("avx")) return VectorSlice256;
#endif
      return VectorSliceBase;
    case CopyWay::kCachedSource:
    case CopyWay::kStreaming:
    case CopyWay::kStreamingPieces:
#ifdef GS_COPY_X86
      if (__builtin_cpu_supports("avx512f")) return StreamingSlice512;
      if (__builtin_cpu_supports("avx")) return StreamingSlice256;
      return StreamingSlice128;
#else
      return way == CopyWay::kCachedSource ? SliceCopyFor(CopyWay::kVector) : nullptr;
#endif
  }
  return nullptr;
}

// `threads` 64-byte-aligned slices of `bytes`, one per thread of arena (one slice, on the
// caller's thread, for one thread or no arena), each handed to body(begin, end).
template <class Body>
void ForEachSlice(size_t bytes, int threads, tbb::task_arena* arena, const Body& body) {
  if (threads <= 1 || arena == nullptr) {
    body(size_t{0}, bytes);
    return;
  }
  const size_t slice = ((bytes + threads - 1) / threads + 63) / 64 * 64;
  arena->execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<int>(0, threads, 1),
        [&](const tbb::blocked_range<int>& r) {
          for (int i = r.begin(); i < r.end(); ++i) {
            const size_t begin = std::min(bytes, slice * i);
            const size_t end = std::min(bytes, begin + slice);
            if (end > begin) body(begin, end);
          }
        },
        tbb::static_partitioner());
  });
}

// The parts of `bytes` each handed to body(begin, end): a slice per thread, or for
// kStreamingPieces pieces of kCopyPieceBytes dealt to the threads as they finish.
template <typename Body>
void ForEachPart(CopyWay way, size_t bytes, int threads, tbb::task_arena* arena, const Body& body) {
  if (way != CopyWay::kStreamingPieces || threads <= 1 || arena == nullptr) {
    ForEachSlice(bytes, threads, arena, body);
    return;
  }
  const size_t pieces = (bytes + kCopyPieceBytes - 1) / kCopyPieceBytes;
  arena->execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<size_t>(0, pieces, 1),
        [&](const tbb::blocked_range<size_t>& r) {
          for (size_t i = r.begin(); i < r.end(); ++i) {
            body(i * kCopyPieceBytes, std::min(bytes, (i + 1) * kCopyPieceBytes));
          }
        },
        tbb::simple_partitioner());
  });
}

// The ways that copy from the cached source, read over and over.
bool Cyclic(CopyWay way) { return way == CopyWay::kCachedSource || way == CopyWay::kCachedVector; }

SliceCopy SliceCopyOrMemcpy(CopyWay way) {
  SliceCopy copy = SliceCopyFor(way);
  return copy != nullptr ? copy : MemcpySlice;  // a way this CPU lacks
}

}  // namespace

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

const char* CopyWayName(CopyWay way) {
  switch (way) {
    case CopyWay::kMemcpy: return "memcpy";
    case CopyWay::kStreaming: return "nt";
    case CopyWay::kVector: return "vector";
    case CopyWay::kCachedSource: return "cached";
    case CopyWay::kCachedVector: return "cached_vector";
    case CopyWay::kStreamingPieces: return "nt_pieces";
  }
  return "?";
}

bool CopyWayAvailable(CopyWay way) { return SliceCopyFor(way) != nullptr; }

void ParallelCopy(void* dst, const void* src, size_t bytes, int threads, tbb::task_arena* arena,
                  CopyWay way) {
  const SliceCopy copy = SliceCopyOrMemcpy(way);
  auto* d = static_cast<char*>(dst);
  auto* s = static_cast<const char*>(src);
  ForEachPart(way, bytes, threads, arena, [&](size_t begin, size_t end) { copy(d + begin, s + begin, end - begin); });
}

void CyclicParallelCopy(void* dst, size_t dst_bytes, const void* src, size_t src_bytes, int threads,
                        tbb::task_arena* arena, CopyWay way) {
  if (src_bytes == 0) return;
  const SliceCopy copy = SliceCopyOrMemcpy(way);
  auto* d = static_cast<char*>(dst);
  auto* s = static_cast<const char*>(src);
  // Each slice reads on from where its first byte falls in the source and wraps at its end:
  // no slice waits for another, where a parallel loop per source-sized piece waited once a piece.
  ForEachPart(way, dst_bytes, threads, arena, [&](size_t begin, size_t end) {
    size_t from = begin % src_bytes;
    for (size_t at = begin; at < end;) {
      const size_t n = std::min(end - at, src_bytes - from);
      copy(d + at, s + from, n);
      at += n;
      from = 0;
    }
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

double CopyTimes::Fastest() const {
  double best = 0;
  for (double s : seconds) {
    if (s > 0 && (best == 0 || s < best)) best = s;
  }
  return best;
}

CopyBaseline::CopyBaseline(uint64_t total_bytes, uint64_t source_bytes)
    : total_bytes_(total_bytes),
      source_bytes_(source_bytes),
      src_(static_cast<size_t>(total_bytes / 2)),
      dst_(static_cast<size_t>(total_bytes / 2)),
      cached_src_(source_bytes > 0 && source_bytes < total_bytes / 2 ? static_cast<size_t>(source_bytes) : 0) {
  std::memset(src_.data(), 0x5a, src_.size());
  if (cached_src_.size() > 0) std::memset(cached_src_.data(), 0xa5, cached_src_.size());
}

double CopyBaseline::RunOnce(CopyWay way, int threads) {
  const auto t0 = std::chrono::steady_clock::now();
  if (Cyclic(way)) {
    CyclicParallelCopy(dst_.data(), dst_.size(), cached_src_.data(), cached_src_.size(), threads, ArenaFor(threads), way);
  } else {
    ParallelCopy(dst_.data(), src_.data(), src_.size(), threads, ArenaFor(threads), way);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<CopyTimes> CopyBaseline::RunBlock(int threads, int runs) {
  // Plain stores first, non-temporal last: the operator's next block then starts from caches
  // that hold no dirty line of the copy's.
  constexpr std::array<CopyWay, kCopyWays> kOrder = {CopyWay::kMemcpy, CopyWay::kVector,
                                                     CopyWay::kCachedVector, CopyWay::kCachedSource,
                                                     CopyWay::kStreamingPieces, CopyWay::kStreaming};
  std::vector<CopyTimes> times(static_cast<size_t>(runs));
  for (const CopyWay way : kOrder) {
    if (!CopyWayAvailable(way) || (Cyclic(way) && cached_src_.size() == 0)) continue;
    if (way == CopyWay::kStreamingPieces && threads <= 1) continue;  // kStreaming's very copy
    RunOnce(way, threads);
    for (CopyTimes& t : times) t.seconds[static_cast<int>(way)] = RunOnce(way, threads);
  }
  return times;
}

void CopyPairs::SetCounters(benchmark::UserCounters& counters, uint64_t total) const {
  if (calls_.empty()) return;
  const double bytes = static_cast<double>(total);
  std::vector<double> ratios, fastest;
  for (size_t i = 0; i < calls_.size(); ++i) {
    fastest.push_back(copies_[i].Fastest());
    ratios.push_back(fastest.back() / calls_[i]);
  }
  counters["copy_ratio"] = Median(ratios);
  counters["copy_ratio_best"] = *std::min_element(fastest.begin(), fastest.end()) /
                                *std::min_element(calls_.begin(), calls_.end());
  counters["copy_ratio_min"] = *std::min_element(ratios.begin(), ratios.end());
  counters["copy_ratio_max"] = *std::max_element(ratios.begin(), ratios.end());
  counters["copy_pairs"] = static_cast<double>(ratios.size());
  counters["copy_GB_per_s"] = bytes / 1e9 / Median(fastest);
  for (int w = 0; w < kCopyWays; ++w) {
    std::vector<double> way, way_ratios;
    for (size_t i = 0; i < calls_.size(); ++i) {
      if (copies_[i].seconds[w] <= 0) continue;
      way.push_back(copies_[i].seconds[w]);
      way_ratios.push_back(copies_[i].seconds[w] / calls_[i]);
    }
    if (way.empty()) continue;
    const auto name = static_cast<CopyWay>(w);
    counters[std::string(CopyWayName(name)) + "_GB_per_s"] = bytes / 1e9 / Median(way);
    if (name == CopyWay::kMemcpy) counters["memcpy_ratio"] = Median(way_ratios);
  }
}

}  // namespace gs_bench
