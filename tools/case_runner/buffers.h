// Buffers a case binds, and the view arithmetic that reads them back.
//
// Every buffer is its own heap allocation with guard bytes on both sides, so a write past
// either end is caught after the call instead of corrupting a neighbour silently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace gs::cases {

// The runner allocates no buffer larger than this; a case that needs more fails.
inline constexpr uint64_t kMaxBufferBytes = uint64_t{1} << 30;

// What an output holds before the call when the case gives no "fill".
inline constexpr uint8_t kSentinelByte = 0xa5;

// Product of sizes; false when it overflows 64 bits. An empty list has one element.
bool ElementCount(const std::vector<uint32_t>& sizes, uint64_t* count);

// The strides of the packed row-major layout of sizes.
std::vector<uint64_t> PackedStrides(const std::vector<uint32_t>& sizes);

// Calls visit(offset) with the element offset of every logical element of the view, in
// row-major order; stops early when visit returns false. Returns false (having visited
// nothing) when an offset would overflow 64 bits.
bool ForEachElementOffset(const std::vector<uint32_t>& sizes, const std::vector<uint64_t>& strides,
                          const std::function<bool(uint64_t offset)>& visit);

// What a buffer held before the call: the case's bytes, or (an output without "fill") only
// sentinel bytes, kept as a count: such a buffer may be as large as the runner allocates, and a
// copy beside it would double the runner's memory.
class InitialBytes {
 public:
  InitialBytes() = default;
  explicit InitialBytes(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)), size_(bytes_.size()) {}
  static InitialBytes Sentinel(uint64_t size);

  uint64_t size() const { return size_; }
  bool sentinel() const { return sentinel_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }  // empty for sentinel bytes
  // The bytes from `offset` on: at least 8 of them (one element of any type) when within size().
  const uint8_t* At(uint64_t offset) const;
  // True when `now` holds the same size() bytes.
  bool Same(const uint8_t* now) const;

 private:
  std::vector<uint8_t> bytes_;
  uint64_t size_ = 0;
  bool sentinel_ = false;
};

class GuardedBuffer {
 public:
  static constexpr size_t kGuardBytes = 64;

  // Holds a copy of initial (which may be empty).
  explicit GuardedBuffer(const std::vector<uint8_t>& initial);
  explicit GuardedBuffer(const InitialBytes& initial);
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;

  uint8_t* data() { return storage_.get() + kGuardBytes; }
  const uint8_t* data() const { return storage_.get() + kGuardBytes; }
  size_t size() const { return size_; }

  // True when no byte of either guard changed.
  bool GuardsIntact() const;

 private:
  struct AlignedDelete {
    void operator()(uint8_t* p) const;
  };
  static uint8_t GuardByte(size_t i);

  size_t size_ = 0;
  std::unique_ptr<uint8_t[], AlignedDelete> storage_;
};

}  // namespace gs::cases
