// A benchmark buffer: 64-byte aligned; from 2 MiB up, 2 MiB aligned with
// madvise(MADV_HUGEPAGE); every page written before it is returned.
#pragma once

#include <cstddef>
#include <memory>

namespace gs_bench {

class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(size_t bytes);  // aligned, madvise(MADV_HUGEPAGE) when large, every page written
  void* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  struct FreeDeleter {
    void operator()(void* p) const;
  };
  std::unique_ptr<void, FreeDeleter> data_;
  size_t size_ = 0;
};

}  // namespace gs_bench
