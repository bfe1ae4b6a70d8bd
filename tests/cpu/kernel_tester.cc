#include "kernel_tester.h"

#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace gs_cpu_test {

std::string SetName(const ::testing::TestParamInfo<gs::cpu::KernelSet>& info) {
  return gs::cpu::KernelSetName(info.param);
}

void KernelSetTest::SetUp() {
  ASSERT_TRUE(gs::cpu::KernelSetSupported(GetParam()));
  ASSERT_EQ(table().set, GetParam());
}

namespace {
uint8_t GuardByte(size_t i) { return static_cast<uint8_t>(0x5a ^ (i * 29)); }
}  // namespace

GuardedBytes::GuardedBytes(size_t size, size_t shift, uint8_t fill)
    : size_(size), shift_(shift), storage_(2 * kGuard + 128 + size) {
  // Make kGuard + shift_ land `shift` past a 64-byte boundary of the heap block.
  const uintptr_t base = reinterpret_cast<uintptr_t>(storage_.data()) + kGuard;
  shift_ = (64 - base % 64) % 64 + shift;
  for (size_t i = 0; i < storage_.size(); ++i) storage_[i] = GuardByte(i);
  std::memset(data(), fill, size_);
}

bool GuardedBytes::GuardsIntact() const {
  for (size_t i = 0; i < kGuard + shift_; ++i) {
    if (storage_[i] != GuardByte(i)) return false;
  }
  for (size_t i = kGuard + shift_ + size_; i < storage_.size(); ++i) {
    if (storage_[i] != GuardByte(i)) return false;
  }
  return true;
}

#if defined(_WIN32)
SystemPages::SystemPages(uint64_t bytes) : bytes_(bytes) {
  base_ = static_cast<uint8_t*>(VirtualAlloc(nullptr, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE));
}
SystemPages::~SystemPages() {
  if (base_ != nullptr) VirtualFree(base_, 0, MEM_RELEASE);
}
bool SystemPages::MakeInaccessible(uint64_t offset, uint64_t bytes) {
  DWORD previous;
  return VirtualProtect(base_ + offset, bytes, PAGE_NOACCESS, &previous) != 0;
}
uint64_t SystemPages::PageBytes() {
  SYSTEM_INFO info;
  GetSystemInfo(&info);
  return info.dwPageSize;
}
#else
SystemPages::SystemPages(uint64_t bytes) : bytes_(bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  base_ = p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
}
SystemPages::~SystemPages() {
  if (base_ != nullptr) munmap(base_, bytes_);
}
bool SystemPages::MakeInaccessible(uint64_t offset, uint64_t bytes) {
  return mprotect(base_ + offset, bytes, PROT_NONE) == 0;
}
uint64_t SystemPages::PageBytes() { return static_cast<uint64_t>(sysconf(_SC_PAGESIZE)); }
#endif

uint64_t Rng::Next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void StoreIndex(uint8_t* indices, uint32_t kind, uint64_t j, int64_t value) {
  std::memcpy(indices + j * IndexBytes(kind), &value, IndexBytes(kind));  // little-endian low bytes
}

bool Resolve(int64_t value, uint32_t kind, uint64_t bound, uint64_t* position) {
  // The value as the kind reads it.
  int64_t v = value;
  uint64_t u = static_cast<uint64_t>(value);
  if (kind == 0) v = static_cast<int32_t>(static_cast<uint32_t>(value));
  if (kind == 2) u = static_cast<uint32_t>(value);
  if (IndexSigned(kind)) {
    if (v < 0) {
      if (static_cast<uint64_t>(-(v + 1)) + 1 > bound) return false;  // below -bound
      *position = bound - (static_cast<uint64_t>(-(v + 1)) + 1);
      return true;
    }
    u = static_cast<uint64_t>(v);
  }
  if (u >= bound) return false;
  *position = u;
  return true;
}

int64_t IndexValue(Rng& rng, uint32_t kind, uint64_t bound, int badPercent) {
  const uint64_t roll = rng.Below(100);
  if (roll < static_cast<uint64_t>(badPercent) || bound == 0) {
    switch (rng.Below(4)) {
      case 0: return static_cast<int64_t>(bound);
      case 1: return static_cast<int64_t>(bound + 1 + rng.Below(1000));
      case 2: return IndexSigned(kind) ? -static_cast<int64_t>(bound) - 1 : -1;  // huge unsigned
      default: return IndexBytes(kind) == 8 ? INT64_MIN : INT32_MIN;
    }
  }
  const int64_t p = static_cast<int64_t>(rng.Below(bound));
  return IndexSigned(kind) && rng.Below(3) == 0 ? p - static_cast<int64_t>(bound) : p;
}

std::vector<uint64_t> TestLengths() {
  std::vector<uint64_t> lengths;
  for (uint64_t n = 0; n <= 3 * 64 + 1; ++n) lengths.push_back(n);  // 3 blocks of 64 1-byte lanes
  for (uint64_t n : {255, 256, 257, 1000, 4097}) lengths.push_back(n);
  return lengths;
}

}  // namespace gs_cpu_test
