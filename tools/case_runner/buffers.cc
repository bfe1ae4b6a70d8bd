#include "buffers.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace gs::cases {
namespace {

// Buffers start 64-byte aligned, as a device allocation would, so kernels see no surprises.
constexpr std::align_val_t kAlignment{64};

}  // namespace

bool ElementCount(const std::vector<uint32_t>& sizes, uint64_t* count) {
  uint64_t product = 1;
  for (uint32_t size : sizes) {
    if (__builtin_mul_overflow(product, uint64_t{size}, &product)) return false;
  }
  *count = product;
  return true;
}

std::vector<uint64_t> PackedStrides(const std::vector<uint32_t>& sizes) {
  std::vector<uint64_t> strides(sizes.size());
  uint64_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= sizes[i];  // only ever used for views whose element count fits
  }
  return strides;
}

bool ForEachElementOffset(const std::vector<uint32_t>& sizes, const std::vector<uint64_t>& strides,
                          const std::function<bool(uint64_t offset)>& visit) {
  const size_t rank = sizes.size();
  uint64_t extent = 0;  // the largest offset: sum of (size - 1) * stride
  for (size_t d = 0; d < rank; ++d) {
    if (sizes[d] == 0) return true;  // no elements
    uint64_t span;
    if (__builtin_mul_overflow(uint64_t{sizes[d] - 1}, strides[d], &span) ||
        __builtin_add_overflow(extent, span, &extent)) {
      return false;
    }
  }
  // An odometer over the indices; offsets never exceed extent, so no step overflows.
  std::vector<uint32_t> index(rank, 0);
  uint64_t offset = 0;
  while (true) {
    if (!visit(offset)) return true;
    size_t d = rank;
    while (true) {
      if (d == 0) return true;  // every index wrapped around: all visited
      --d;
      if (++index[d] < sizes[d]) {
        offset += strides[d];
        break;
      }
      offset -= uint64_t{sizes[d] - 1} * strides[d];
      index[d] = 0;
    }
  }
}

InitialBytes InitialBytes::Sentinel(uint64_t size) {
  InitialBytes sentinel;
  sentinel.size_ = size;
  sentinel.sentinel_ = true;
  return sentinel;
}

const uint8_t* InitialBytes::At(uint64_t offset) const {
  static const uint8_t kSentinelElement[8] = {kSentinelByte, kSentinelByte, kSentinelByte, kSentinelByte,
                                              kSentinelByte, kSentinelByte, kSentinelByte, kSentinelByte};
  return sentinel_ ? kSentinelElement : bytes_.data() + offset;
}

bool InitialBytes::Same(const uint8_t* now) const {
  if (!sentinel_) return size_ == 0 || std::memcmp(now, bytes_.data(), size_) == 0;
  return std::all_of(now, now + size_, [](uint8_t byte) { return byte == kSentinelByte; });
}

GuardedBuffer::GuardedBuffer(const std::vector<uint8_t>& initial) : GuardedBuffer(InitialBytes(initial)) {}

GuardedBuffer::GuardedBuffer(const InitialBytes& initial) : size_(initial.size()) {
  const size_t total = kGuardBytes + size_ + kGuardBytes;
  storage_.reset(static_cast<uint8_t*>(::operator new[](total, kAlignment)));
  for (size_t i = 0; i < kGuardBytes; ++i) {
    storage_[i] = GuardByte(i);
    storage_[kGuardBytes + size_ + i] = GuardByte(i);
  }
  if (initial.sentinel()) {
    std::memset(data(), kSentinelByte, size_);
  } else if (size_ != 0) {
    std::memcpy(data(), initial.bytes().data(), size_);
  }
}

bool GuardedBuffer::GuardsIntact() const {
  const uint8_t* after = data() + size_;
  for (size_t i = 0; i < kGuardBytes; ++i) {
    if (storage_[i] != GuardByte(i) || after[i] != GuardByte(i)) return false;
  }
  return true;
}

void GuardedBuffer::AlignedDelete::operator()(uint8_t* p) const {
  ::operator delete[](p, kAlignment);
}

// A pattern rather than one repeated byte: a stray memset of any single value still shows.
uint8_t GuardedBuffer::GuardByte(size_t i) { return static_cast<uint8_t>(0xc3 ^ (i * 37)); }

}  // namespace gs::cases
