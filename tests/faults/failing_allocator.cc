// The replaced global operator new of the allocation-failure tests (failing_allocator.h).
#include "failing_allocator.h"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(_WIN32)
#include <malloc.h>  // _aligned_malloc
#endif

namespace {

std::atomic<bool> g_armed{false};
std::atomic<bool> g_armingThreadOnly{false};
thread_local bool t_armingThread = false;
std::atomic<long> g_countdown{0};     // allocations left before the one that fails
std::atomic<bool> g_fired{false};
std::atomic<long> g_live{0};          // allocations not yet freed
thread_local long t_live = 0;         // the same, counted by the thread that allocated or freed

void* Allocate(std::size_t size, std::size_t alignment) {
  if (g_armed.load() && (!g_armingThreadOnly.load() || t_armingThread) && g_countdown.fetch_sub(1) == 0) {
    g_fired.store(true);
    throw std::bad_alloc();
  }
  if (size == 0) size = 1;
  void* p = alignment <= alignof(std::max_align_t) ? std::malloc(size)
#if defined(_WIN32)
                                                    : _aligned_malloc(size, alignment);  // no aligned_alloc there
#else
                                                    : std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
#endif
  if (p == nullptr) throw std::bad_alloc();
  g_live.fetch_add(1);
  ++t_live;
  return p;
}

// Frees what Allocate(size, alignment) returned.
void Free(void* p, std::size_t alignment = 0) {
  if (p == nullptr) return;
  g_live.fetch_sub(1);
  --t_live;
#if defined(_WIN32)
  if (alignment > alignof(std::max_align_t)) return _aligned_free(p);
#endif
  (void)alignment;
  std::free(p);
}

}  // namespace

void* operator new(std::size_t size) { return Allocate(size, 0); }
void* operator new[](std::size_t size) { return Allocate(size, 0); }
void* operator new(std::size_t size, std::align_val_t a) {
  return Allocate(size, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t size, std::align_val_t a) {
  return Allocate(size, static_cast<std::size_t>(a));
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try { return Allocate(size, 0); } catch (const std::bad_alloc&) { return nullptr; }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try { return Allocate(size, 0); } catch (const std::bad_alloc&) { return nullptr; }
}
void operator delete(void* p) noexcept { Free(p); }
void operator delete[](void* p) noexcept { Free(p); }
void operator delete(void* p, std::size_t) noexcept { Free(p); }
void operator delete[](void* p, std::size_t) noexcept { Free(p); }
void operator delete(void* p, std::align_val_t a) noexcept { Free(p, static_cast<std::size_t>(a)); }
void operator delete[](void* p, std::align_val_t a) noexcept { Free(p, static_cast<std::size_t>(a)); }
void operator delete(void* p, std::size_t, std::align_val_t a) noexcept { Free(p, static_cast<std::size_t>(a)); }
void operator delete[](void* p, std::size_t, std::align_val_t a) noexcept { Free(p, static_cast<std::size_t>(a)); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Free(p); }

namespace gs_faults {

FailNthAllocation::FailNthAllocation(long n, Threads threads) {
  g_fired.store(false);
  g_countdown.store(n);
  g_armingThreadOnly.store(threads == Threads::ThisOne);
  t_armingThread = true;
  g_armed.store(true);
}
FailNthAllocation::~FailNthAllocation() {
  g_armed.store(false);
  t_armingThread = false;
}
bool FailNthAllocation::Fired() { return g_fired.load(); }

long LiveAllocations(FailNthAllocation::Threads threads) {
  return threads == FailNthAllocation::Threads::Any ? g_live.load() : t_live;
}

}  // namespace gs_faults
