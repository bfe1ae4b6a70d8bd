#include "buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <new>

namespace gs_bench {
namespace {
constexpr size_t kHugePage = size_t{2} << 20;
}  // namespace

void Buffer::FreeDeleter::operator()(void* p) const { std::free(p); }

Buffer::Buffer(size_t bytes) : size_(bytes) {
  size_t alignment = bytes >= kHugePage ? kHugePage : 64;
  size_t rounded = (std::max<size_t>(bytes, 1) + alignment - 1) / alignment * alignment;
  void* p = nullptr;
  if (posix_memalign(&p, alignment, rounded) != 0) throw std::bad_alloc();
  data_.reset(p);
  if (rounded >= kHugePage) madvise(p, rounded, MADV_HUGEPAGE);
  // Pre-fault: write every page.
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  auto* bytes_ptr = static_cast<unsigned char*>(p);
  for (size_t i = 0; i < rounded; i += page) bytes_ptr[i] = 0;
}

}  // namespace gs_bench
