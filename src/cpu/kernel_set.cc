#include "cpu/kernel_set.h"

#include <cstdlib>
#include <cstring>
#include <initializer_list>

#if defined(GS_HAVE_AVX2_KERNELS) || defined(GS_HAVE_AVX512_KERNELS)
#include <cpuid.h>
#endif

namespace gs::cpu {
namespace simd {
const KernelTable& ScalarKernels();
#if defined(GS_HAVE_SSE2_KERNELS)
const KernelTable& Sse2Kernels();
#endif
#if defined(GS_HAVE_AVX2_KERNELS)
const KernelTable& Avx2Kernels();
#endif
#if defined(GS_HAVE_AVX512_KERNELS)
const KernelTable& Avx512Kernels();
#endif
#if defined(GS_HAVE_NEON64_KERNELS)
const KernelTable& Neon64Kernels();
#endif
}  // namespace simd

namespace {

constexpr const char* kNames[kKernelSetCount] = {"scalar", "sse2", "avx2", "avx512", "neon64"};

#if defined(GS_HAVE_AVX2_KERNELS) || defined(GS_HAVE_AVX512_KERNELS)
// CPUID.1:ECX.F16C: clang 14's __builtin_cpu_supports does not know "f16c". The OS's saving of
// the vector state it needs is what the avx2 check already asks.
bool HasF16c() {
  unsigned eax, ebx, ecx, edx;
  return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
}
#endif

const KernelTable& TableOf(KernelSet set) {
  switch (set) {
#if defined(GS_HAVE_SSE2_KERNELS)
    case KernelSet::Sse2: return simd::Sse2Kernels();
#endif
#if defined(GS_HAVE_AVX2_KERNELS)
    case KernelSet::Avx2: return simd::Avx2Kernels();
#endif
#if defined(GS_HAVE_AVX512_KERNELS)
    case KernelSet::Avx512: return simd::Avx512Kernels();
#endif
#if defined(GS_HAVE_NEON64_KERNELS)
    case KernelSet::Neon64: return simd::Neon64Kernels();
#endif
    default: return simd::ScalarKernels();
  }
}

KernelSet BestSupported() {
  for (KernelSet set : {KernelSet::Avx512, KernelSet::Avx2, KernelSet::Sse2, KernelSet::Neon64}) {
    if (KernelSetSupported(set)) return set;
  }
  return KernelSet::Scalar;
}

}  // namespace

const char* KernelSetName(KernelSet set) { return kNames[static_cast<uint32_t>(set)]; }

bool ParseKernelSet(const char* name, KernelSet* set) {
  for (uint32_t i = 0; i < kKernelSetCount; ++i) {
    if (std::strcmp(name, kNames[i]) == 0) {
      *set = static_cast<KernelSet>(i);
      return true;
    }
  }
  return false;
}

bool KernelSetSupported(KernelSet set) {
  switch (set) {
    case KernelSet::Scalar: return true;
#if defined(GS_HAVE_SSE2_KERNELS)
    case KernelSet::Sse2: return __builtin_cpu_supports("sse2");
#endif
    // The avx2 and avx512 files are built with -mbmi2 and -mf16c too (src/CMakeLists.txt).
#if defined(GS_HAVE_AVX2_KERNELS)
    case KernelSet::Avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") && HasF16c();
#endif
#if defined(GS_HAVE_AVX512_KERNELS)
    case KernelSet::Avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("bmi2") && HasF16c();
#endif
#if defined(GS_HAVE_NEON64_KERNELS)
    case KernelSet::Neon64: return true;  // Advanced SIMD is mandatory in ARMv8-A
#endif
    default: return false;
  }
}

std::vector<KernelSet> SupportedKernelSets() {
  std::vector<KernelSet> sets;
  for (uint32_t i = 0; i < kKernelSetCount; ++i) {
    if (KernelSetSupported(static_cast<KernelSet>(i))) sets.push_back(static_cast<KernelSet>(i));
  }
  return sets;
}

KernelSet ActiveKernelSet() {
  // Chosen at first use; GS_CPU_KERNELS may name another supported set.
  static const KernelSet active = [] {
    KernelSet requested;
    if (const char* env = std::getenv("GS_CPU_KERNELS");
        env != nullptr && ParseKernelSet(env, &requested) && KernelSetSupported(requested)) {
      return requested;
    }
    return BestSupported();
  }();
  return active;
}

const KernelTable& KernelsOf(KernelSet set) { return TableOf(set); }

}  // namespace gs::cpu
