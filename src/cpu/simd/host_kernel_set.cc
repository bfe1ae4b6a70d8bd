// Prints the best x86 kernel set this machine runs, by the checks of cpu/kernel_set.cc
// (GS_X86_KERNEL_SETS=host, src/CMakeLists.txt).
#include <cpuid.h>

#include <cstdio>

int main() {
  unsigned eax, ebx, ecx, edx;
  const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") && f16c;
  const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  std::puts(avx512 ? "avx512" : avx2 ? "avx2" : "sse2");
  return 0;
}
