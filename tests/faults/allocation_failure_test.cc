// Allocation failure anywhere inside CompileOperator and ExecuteOnCpu. This binary replaces
// the global operator new with one that can fail the Nth allocation (and only that one); each
// test runs a call with N = 0, 1, 2, ... until the call gets through without the failure
// firing. Every failed call must return OutOfMemory, leak nothing (live allocations counted
// here; LSan too in the sanitize preset), leave every input untouched and the output either
// untouched or, for a call that succeeded, equal to the independent reference.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include <oneapi/tbb/info.h>

#include "engine_check.h"
#include "random_desc.h"

namespace {

std::atomic<bool> g_armed{false};
std::atomic<long> g_countdown{0};     // allocations left before the one that fails
std::atomic<bool> g_fired{false};
std::atomic<long> g_live{0};          // allocations not yet freed

void* Allocate(std::size_t size, std::size_t alignment) {
  if (g_armed.load() && g_countdown.fetch_sub(1) == 0) {
    g_fired.store(true);
    throw std::bad_alloc();
  }
  if (size == 0) size = 1;
  void* p = alignment > alignof(std::max_align_t)
                ? std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment)
                : std::malloc(size);
  if (p == nullptr) throw std::bad_alloc();
  g_live.fetch_add(1);
  return p;
}

void Free(void* p) {
  if (p == nullptr) return;
  g_live.fetch_sub(1);
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
void operator delete(void* p, std::align_val_t) noexcept { Free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { Free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { Free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { Free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Free(p); }

namespace gs_property {
namespace {

// Fails the Nth allocation made while it lives (N counted from 0).
class FailNthAllocation {
 public:
  explicit FailNthAllocation(long n) {
    g_fired.store(false);
    g_countdown.store(n);
    g_armed.store(true);
  }
  ~FailNthAllocation() { g_armed.store(false); }
  static bool Fired() { return g_fired.load(); }
};

constexpr long kMaxAllocations = 10000;  // a call that needs more is a finding too

std::vector<RandomCase> Cases() {
  std::vector<RandomCase> cases;
  for (uint64_t seed = 0; seed < 6; ++seed) cases.push_back(GenerateCase(CaseKind::Basic, seed));
  cases.push_back(GenerateCase(CaseKind::Reduction, 1));
  cases.push_back(GenerateCase(CaseKind::InPlace, 0));
  cases.push_back(GenerateCase(CaseKind::CheckedBad, 3));
  cases.push_back(GenerateCase(CaseKind::Unchecked, 4));
  cases.push_back(GenerateCase(CaseKind::Large, 4));  // a scatter on several threads
  return cases;
}

TEST(AllocationFailure, CompileReturnsOutOfMemoryAndLeaksNothing) {
  for (RandomCase& c : Cases()) {
    SCOPED_TRACE(c.Describe());
    const gs::OperatorDesc& desc = c.op.Desc();
    long n = 0;
    for (; n < kMaxAllocations; ++n) {
      const long liveBefore = g_live.load();
      std::optional<gs::Status> status;  // reset() frees its message; assigning may keep it
      bool fired = false;
      {
        gs::CompiledOperator compiled;
        {
          FailNthAllocation failure(n);
          status = gs::CompileOperator(desc, &compiled);
          fired = FailNthAllocation::Fired();
        }
        if (fired) {
          EXPECT_EQ(status->code(), gs::StatusCode::OutOfMemory) << "allocation " << n << ": "
                                                                  << status->message();
          EXPECT_FALSE(compiled.valid()) << "allocation " << n;
        } else {
          EXPECT_TRUE(status->ok()) << status->message();
          EXPECT_TRUE(compiled.valid());
        }
      }
      status.reset();  // its message is the caller's allocation, not a leak
      EXPECT_EQ(g_live.load(), liveBefore) << "allocation " << n << " leaked";
      if (!fired || ::testing::Test::HasFailure()) break;
    }
    EXPECT_GT(n, 0) << "compiling allocates nothing: the injection was never exercised";
    EXPECT_LT(n, kMaxAllocations);
  }
}

TEST(AllocationFailure, ExecuteReturnsOutOfMemoryAndLeavesBuffersAsTheSpecSays) {
  // oneTBB's one-time global set-up is not exception-safe: a failure injected into it leaves
  // it half done and every later call spins forever. That is oneTBB's own start-up, not gs's,
  // so it runs before any failure is injected; gs's arenas and tasks are still covered.
  ASSERT_GT(tbb::info::default_concurrency(), 0);
  // gs keeps one task_arena per thread count for the life of the process (cpu/parallel.cc).
  // Creating it may fail like any allocation; once made it stays, so each case first runs
  // once unarmed and the leak count below sees only what one call allocates and frees.
  long injected = 0;  // calls that met an injected failure
  for (const RandomCase& c : Cases()) {
    SCOPED_TRACE(c.Describe());
    gs::CompiledOperator compiled;
    ASSERT_EQ(CompileCase(c, &compiled), "");
    const ReferenceResult expected = RunReferenceOn(c);
    for (int threads : {1, 2}) {
      {
        std::vector<uint8_t> input = c.input, output = c.output;
        gs::CpuExecuteOptions options;
        options.Checking = c.mode;
        options.ThreadCount = threads;
        uint8_t* out = c.in_place ? input.data() : output.data();
        (void)gs::ExecuteOnCpu(compiled,
                               {{input.data(), input.size()},
                                {c.indices.data(), c.indices.size()},
                                {c.updates.data(), c.updates.size()},
                                {out, c.in_place ? input.size() : output.size()}},
                               options);
      }
      long n = 0;
      for (; n < kMaxAllocations; ++n) {
        // Fresh copies each round; in place, Output is bound to the input copy.
        std::vector<uint8_t> input = c.input, indices = c.indices, updates = c.updates,
                             output = c.output;
        uint8_t* out = c.in_place ? input.data() : output.data();
        const uint64_t outSize = c.in_place ? input.size() : output.size();
        const gs::TensorBindings bindings{{input.data(), input.size()},
                                          {indices.data(), indices.size()},
                                          {updates.data(), updates.size()},
                                          {out, outSize}};
        gs::CpuExecuteOptions options;
        options.Checking = c.mode;
        options.ThreadCount = threads;
        std::string message;
        message.reserve(4096);  // so that keeping the message allocates nothing
        const long liveBefore = g_live.load();
        std::optional<gs::Status> status;
        bool fired = false;
        {
          FailNthAllocation failure(n);
          status = gs::ExecuteOnCpu(compiled, bindings, options);
          fired = FailNthAllocation::Fired();
        }
        const gs::StatusCode code = status->code();
        message = status->message();
        status.reset();
        EXPECT_EQ(g_live.load(), liveBefore) << "allocation " << n << " leaked";
        EXPECT_TRUE(indices == c.indices && updates == c.updates) << "an input changed";
        const std::vector<uint8_t>& before = c.in_place ? c.input : c.output;
        const std::vector<uint8_t> after(out, out + outSize);
        if (fired) {
          ++injected;
          EXPECT_EQ(code, gs::StatusCode::OutOfMemory)
              << "allocation " << n << ", threads " << threads << ": " << message;
          EXPECT_TRUE(after == before) << "allocation " << n << ": the output was written";
          if (!c.in_place) EXPECT_TRUE(input == c.input) << "InputTensor changed";
        } else if (expected.ok) {
          EXPECT_EQ(code, gs::StatusCode::Ok) << message;
          EXPECT_TRUE(after == expected.output) << "the output differs from the reference";
        } else {
          EXPECT_EQ(code, gs::StatusCode::InvalidArgument) << message;
          EXPECT_TRUE(after == before) << "a failed checked call wrote the output";
        }
        if (!fired || ::testing::Test::HasFailure()) break;
      }
      EXPECT_LT(n, kMaxAllocations);
    }
  }
  EXPECT_GT(injected, 0) << "no execution allocated: the injection was never exercised";
  std::printf("%ld executions met an injected allocation failure\n", injected);
}

}  // namespace
}  // namespace gs_property
