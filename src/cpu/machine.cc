#include "cpu/machine.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#if defined(_WIN32)
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#else
#include <fcntl.h>
#include <unistd.h>
#endif

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

// Offsets a tuple row makes and hints at a time (plan::MachineInfo::hintedOffsets).
uint32_t HintedOffsets() {
#if defined(__x86_64__) || defined(__i386__)
  if (__builtin_cpu_is("intel")) return 32;
#endif
  return 128;
}

}  // namespace

#if defined(_WIN32)
uint64_t CacheBytes(int level) {
  // The largest data or unified cache of `level` the system lists (each instance once per group
  // of cores that shares it). A failed allocation throws, as any of compile's does.
  DWORD length = 0;
  GetLogicalProcessorInformationEx(RelationCache, nullptr, &length);
  if (length == 0) return 0;
  std::vector<uint8_t> records(length);
  auto* first = reinterpret_cast<SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX*>(records.data());
  if (!GetLogicalProcessorInformationEx(RelationCache, first, &length)) return 0;
  uint64_t found = 0;
  for (DWORD at = 0; at < length;) {
    const auto* record = reinterpret_cast<const SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX*>(records.data() + at);
    if (record->Size == 0) break;
    const CACHE_RELATIONSHIP& cache = record->Cache;
    if (record->Relationship == RelationCache && cache.Level == level &&
        (cache.Type == CacheData || cache.Type == CacheUnified)) {
      found = std::max<uint64_t>(found, cache.CacheSize);
    }
    at += record->Size;
  }
  return found;
}
#else
namespace {

// The first word of sysfs file `field` of cpu 0's cache `index` into word[capacity], read
// without the heap (no stream swallows a failed allocation into a wrong answer); false when
// there is none.
bool ReadCacheField(int index, const char* field, char* word, size_t capacity) {
  char path[96];
  std::snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", index, field);
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t n = read(fd, word, capacity - 1);
  close(fd);
  if (n <= 0) return false;
  word[n] = '\0';
  word[std::strcspn(word, " \t\n")] = '\0';
  return word[0] != '\0';
}

}  // namespace

uint64_t CacheBytes(int level) {
  // sysfs, as lscpu reads it: glibc's sysconf can report a host's L3 rather than the VM's
  // (perf/results/2026-11-26-notes-moved-from-code.md).
  uint64_t found = 0;
  for (int index = 0; index < 8; ++index) {
    char levelWord[16], type[32], size[32];
    if (!ReadCacheField(index, "level", levelWord, sizeof levelWord) || !ReadCacheField(index, "type", type, sizeof type) ||
        !ReadCacheField(index, "size", size, sizeof size)) {
      continue;
    }
    if (std::atoi(levelWord) != level || std::strcmp(type, "Instruction") == 0) continue;
    const char unitChar = size[std::strlen(size) - 1];
    const uint64_t unit = unitChar == 'K' ? 1024 : unitChar == 'M' ? 1024 * 1024 : 1;
    found = std::max<uint64_t>(found, std::strtoull(size, nullptr, 10) * unit);
  }
  if (found != 0) return found;
  long size = -1;
#if defined(_SC_LEVEL3_CACHE_SIZE)
  size = sysconf(level == 3 ? _SC_LEVEL3_CACHE_SIZE : level == 2 ? _SC_LEVEL2_CACHE_SIZE : _SC_LEVEL1_DCACHE_SIZE);
#endif
  return size > 0 ? static_cast<uint64_t>(size) : uint64_t{0};
}
#endif

const plan::MachineInfo& ThisMachine() {
  static const plan::MachineInfo machine = [] {
    plan::MachineInfo m;
    m.kernelSet = ActiveKernelSet();
    m.l2Bytes = CacheBytes(2);
    const uint64_t l3 = CacheBytes(3);
    m.llcBytes = l3 != 0 ? l3 : m.l2Bytes;
    m.cores = std::max(1u, std::thread::hardware_concurrency());
    m.avx2WordGathers = FastWordGathers();
    m.hintedOffsets = HintedOffsets();
    return m;
  }();
  return machine;
}

}  // namespace gs::cpu
