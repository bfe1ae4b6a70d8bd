// The machine a plan is compiled for: everything the CPU implementation list reads of the
// hardware. The engine reads the real one once (cpu::ThisMachine); tests pass their own, so
// that a plan is a function of the desc and this struct alone.
#pragma once

#include <cstdint>

namespace gs::plan {

// The CPU kernel sets: the same kernels built for several instruction sets (src/cpu/simd).
enum class KernelSet : uint32_t { Scalar, Sse2, Avx2, Avx512, Neon64 };
inline constexpr uint32_t kKernelSetCount = 5;

struct MachineInfo {
  KernelSet kernelSet = KernelSet::Scalar;  // the kernels every call of the plan runs
  uint64_t l2Bytes = 0;   // one core's L2 (0: unknown)
  uint64_t llcBytes = 0;  // the last-level cache; calls that touch more stream their stores (0: never)
  uint32_t cores = 1;     // hardware threads
  // The avx2 set gathers rows of 1- and 2-byte elements as 32-bit words (else the line
  // kernel's scalar loop): only on cores where that was measured faster (cpu/machine.cc,
  // FastWordGathers); an earlier form of it ran slower on Zen 3
  // (perf/results/2026-11-28-avx2-positions.md).
  bool avx2WordGathers = false;
  // Tuple rows (GatherND elements) without the AVX-512 pairs kernel make and hint this many
  // elements' offsets before loading them (cpu/machine.cc, HintedOffsets): 128 where measured
  // best on AMD, 32 on Intel cores, whose software prefetches wait on their L1 miss buffers
  // (perf/results/2026-12-05-intel-hinted-offsets.md).
  uint32_t hintedOffsets = 128;
};

}  // namespace gs::plan
