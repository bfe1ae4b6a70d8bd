// Allocation failure on demand: a test binary that links failing_allocator.cc replaces the
// global operator new with one that fails exactly the Nth allocation while a FailNthAllocation
// lives, and counts live allocations so that a test can see a leak.
#pragma once

namespace gs_faults {

// Fails the Nth allocation made while it lives (N counted from 0), with std::bad_alloc: on any
// thread (gs's own workers included), or only on the thread that made it (where other
// libraries' threads allocate too, such as a Vulkan driver's).
class FailNthAllocation {
 public:
  enum class Threads { Any, ThisOne };
  explicit FailNthAllocation(long n, Threads threads = Threads::Any);
  ~FailNthAllocation();
  static bool Fired();
};

// Allocations made through operator new and not yet freed: by every thread, or the balance of
// this thread's allocations and frees.
long LiveAllocations(FailNthAllocation::Threads threads = FailNthAllocation::Threads::Any);

constexpr long kMaxAllocations = 10000;  // a call that needs more is a finding too

}  // namespace gs_faults
