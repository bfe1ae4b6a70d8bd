#include "cpu/machine.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "cpu/kernel_set.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace gs::cpu {
namespace {

// Cores whose vpgatherdd was measured faster than the line kernel's scalar loop on rows of 1-
// and 2-byte elements (plan::MachineInfo::avx2WordGathers): AMD Zen 4 and later (family 19h
// with AVX-512; Zen 3 is 19h without it), or family 1Ah and on; Intel from Alder Lake and
// Sapphire Rapids on, which AVX-VNNI marks. Intel's earlier AVX2 cores either gather slowly
// (Haswell, Broadwell) or run under the gather data sampling ("Downfall") microcode
// mitigation, which slows gathers (Skylake to Tiger Lake).
bool FastWordGathers() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax, ebx, ecx, edx;
  if (__builtin_cpu_is("intel")) {
    return __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) && (eax & (1u << 4)) != 0;  // AVX-VNNI
  }
  if (!__builtin_cpu_is("amd") || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  const unsigned baseFamily = (eax >> 8) & 0xf;
  const unsigned family = baseFamily == 0xf ? baseFamily + ((eax >> 20) & 0xff) : baseFamily;
  return family >= 0x1a || (family == 0x19 && __builtin_cpu_supports("avx512f"));
#else
  return false;
#endif
}

}  // namespace

uint64_t CacheBytes(int level) {
  // sysfs, as lscpu reads it: glibc's sysconf can report a host's L3 rather than the VM's
  // (perf/results/2026-11-26-notes-moved-from-code.md).
  uint64_t found = 0;
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream levelFile(dir + "level"), typeFile(dir + "type"), sizeFile(dir + "size");
    int cacheLevel = 0;
    std::string type, size;
    if (!(levelFile >> cacheLevel) || !(typeFile >> type) || !(sizeFile >> size)) continue;
    if (cacheLevel != level || type == "Instruction" || size.empty()) continue;
    const uint64_t unit = size.back() == 'K' ? 1024 : size.back() == 'M' ? 1024 * 1024 : 1;
    found = std::max<uint64_t>(found, std::strtoull(size.c_str(), nullptr, 10) * unit);
  }
  if (found != 0) return found;
  long size = -1;
#if defined(_SC_LEVEL3_CACHE_SIZE)
  size = sysconf(level == 3 ? _SC_LEVEL3_CACHE_SIZE : level == 2 ? _SC_LEVEL2_CACHE_SIZE : _SC_LEVEL1_DCACHE_SIZE);
#endif
  return size > 0 ? static_cast<uint64_t>(size) : uint64_t{0};
}

const plan::MachineInfo& ThisMachine() {
  static const plan::MachineInfo machine = [] {
    plan::MachineInfo m;
    m.kernelSet = ActiveKernelSet();
    m.l2Bytes = CacheBytes(2);
    const uint64_t l3 = CacheBytes(3);
    m.llcBytes = l3 != 0 ? l3 : m.l2Bytes;
    m.cores = std::max(1u, std::thread::hardware_concurrency());
    m.avx2WordGathers = FastWordGathers();
    return m;
  }();
  return machine;
}

}  // namespace gs::cpu
