// What the kernel testers share (XNNPACK's manner): a test per kernel-table entry, run on every
// kernel set this machine supports; buffers with guard bytes on both sides and outputs filled
// with a sentinel, compared byte for byte with a reference computed here from the contract in
// src/cpu/kernel_set.h, never from src/.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cpu/kernel_set.h"

namespace gs_cpu_test {

std::string SetName(const ::testing::TestParamInfo<gs::cpu::KernelSet>& info);

// A suite parameterised by kernel set: each test calls that set's kernels.
class KernelSetTest : public ::testing::TestWithParam<gs::cpu::KernelSet> {
 protected:
  void SetUp() override;
  const gs::cpu::KernelTable& table() const { return gs::cpu::KernelsOf(GetParam()); }
};

// Bytes with guards: `data()` starts `shift` bytes past a 64-byte boundary (misaligned for
// vectors), the guards on both sides hold a pattern that must survive every call.
class GuardedBytes {
 public:
  static constexpr size_t kGuard = 128;
  GuardedBytes(size_t size, size_t shift, uint8_t fill);
  uint8_t* data() { return storage_.data() + kGuard + shift_; }
  size_t size() const { return size_; }
  bool GuardsIntact() const;
  std::vector<uint8_t> Contents() const {
    return std::vector<uint8_t>(storage_.begin() + kGuard + shift_, storage_.begin() + kGuard + shift_ + size_);
  }

 private:
  size_t size_, shift_;
  std::vector<uint8_t> storage_;
};

// Memory straight from the system (mmap; VirtualAlloc on Windows), readable and writable, for
// tests of what a kernel may touch: `bytes` of it, of which Linux makes memory only the pages
// touched (Windows commits them all), and any whole pages of it made inaccessible, so that a
// read there faults. data() is nullptr when the system refused.
class SystemPages {
 public:
  explicit SystemPages(uint64_t bytes);
  ~SystemPages();
  SystemPages(const SystemPages&) = delete;
  SystemPages& operator=(const SystemPages&) = delete;
  uint8_t* data() const { return base_; }
  bool MakeInaccessible(uint64_t offset, uint64_t bytes);
  static uint64_t PageBytes();

 private:
  uint8_t* base_ = nullptr;
  uint64_t bytes_;
};

// A deterministic generator (splitmix64) for data and indices.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next();
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : Next() % n; }

 private:
  uint64_t state_;
};

// The index kinds of the tables' second subscript: Int32, Int64, UInt32, UInt64.
inline constexpr uint32_t kIndexKinds = 4;
inline uint32_t IndexBytes(uint32_t kind) { return kind == 0 || kind == 2 ? 4 : 8; }
inline bool IndexSigned(uint32_t kind) { return kind < 2; }

// Stores `value` as index kind `kind` at element `j` of `indices`.
void StoreIndex(uint8_t* indices, uint32_t kind, uint64_t j, int64_t value);

// The contract's resolution: a signed negative value counts from the end; out of
// [-bound, bound) (signed) or [0, bound) (unsigned) it is out of bounds (false).
bool Resolve(int64_t value, uint32_t kind, uint64_t bound, uint64_t* position);

// An index value for a dim of size `bound`: in bounds, negative in bounds (signed kinds), or
// out of bounds (a few shapes of it), chosen by `roll` (0..99) against `badPercent`.
int64_t IndexValue(Rng& rng, uint32_t kind, uint64_t bound, int badPercent);

// Lengths that cross every vector width's body and tail: 0..3 vectors of the widest set and
// odd ones beyond.
std::vector<uint64_t> TestLengths();

}  // namespace gs_cpu_test
