// Randomized property tests: the CPU engine must reproduce the independent reference byte for
// byte on random valid cases. Seeds are fixed, so every run checks the same cases.
//   GS_PROPERTY_REPRO=kind:seed  reruns one case (printed by a failure) on 1, 2 and all threads
//   GS_PROPERTY_SCALE=x          runs x times as many seeds: a longer soak (4), or a shorter run
//                                under emulation (0.125 in the arm64 preset)
// Every case runs on every CPU kernel set this machine supports (scalar, sse2, avx2, avx512 on
// x86; scalar, neon64 on ARM64).
#include <gtest/gtest.h>

#if !defined(GS_PARALLEL_WITHOUT_TBB)
#include <oneapi/tbb/task_arena.h>
#endif

#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <string>

#include "cpu/kernel_set.h"
#include "cpu/machine.h"
#include "plan/plan.h"
#include "engine_check.h"
#include "random_desc.h"

namespace gs_property {
namespace {

constexpr int kMaxReportedFailures = 8;

// The implementation a plan chose for one thread, with packed strips of element rows told apart.
std::string ImplementationOf(const gs::plan::Plan& plan) {
  return std::string(gs::plan::CpuImplementationName(plan.cpu.oneThread)) +
         (plan.cpu.rows.packed ? "+packed" : "");
}

// This machine with another kernel set, and every output streamed when `streamed` (a last-level
// cache of one byte: the plan then streams every whole-line store, as it does large outputs).
gs::plan::MachineInfo MachineWith(gs::cpu::KernelSet set, bool streamed) {
  gs::plan::MachineInfo machine = gs::cpu::ThisMachine();
  machine.kernelSet = set;
  if (streamed) machine.llcBytes = 1;
  return machine;
}

// Runs `count` seeds of one kind; each case on its suggested thread count, or on every
// configuration when `all_threads` (1, 2, the default, and 3 tasks in a caller's 2-thread arena
// where the engine runs on oneTBB).
// Returns the cases per implementation that ran (each case's CPU runs check that the
// implementation its plan chose is the one that ran).
using Implementations = std::map<std::string, uint64_t>;
Implementations Sweep(CaseKind kind, uint64_t count, bool all_threads = false) {
  count = ScaledSeedCount(count);
#if !defined(GS_PARALLEL_WITHOUT_TBB)
  tbb::task_arena arena(2);
#endif
  const gs::cpu::KernelSet own_set = gs::cpu::ThisMachine().kernelSet;
  int failures = 0;
  Implementations ran;
  for (uint64_t seed = 0; seed < count && failures < kMaxReportedFailures; ++seed) {
    const RandomCase c = GenerateCase(kind, seed);
    const ReferenceResult expected = RunReferenceOn(c);
    if (kind == CaseKind::CheckedBad) {
      if (expected.ok) {
        ADD_FAILURE() << "the generator planted no bad index\n" << c.Describe();
        return ran;
      }
    }
    gs::CompiledOperator compiled;
    std::string problem = CompileCase(c, &compiled);
    if (problem.empty()) ++ran[ImplementationOf(*compiled.plan())];
    if (problem.empty()) {
      std::vector<EngineOptions> runs = {{c.thread_count, nullptr}};
      if (all_threads) runs = {{1, nullptr}, {2, nullptr}, {0, nullptr}};
#if !defined(GS_PARALLEL_WITHOUT_TBB)
      if (all_threads) runs.push_back({3, &arena});
#endif
      for (gs::cpu::KernelSet set : gs::cpu::SupportedKernelSets()) {
        // Every thread configuration on the machine's own set; the suggested one on the others.
        const bool own = set == own_set;
        gs::CompiledOperator on_set;
        const gs::plan::MachineInfo machine = MachineWith(set, false);
        if (!own) problem = CompileCase(c, &on_set, &machine);
        for (const EngineOptions& options :
             own ? runs : std::vector<EngineOptions>{{c.thread_count, nullptr}}) {
          if (!problem.empty()) break;
          problem = CheckEngine(c, expected, own ? compiled : on_set, options);
          if (!problem.empty()) {
            problem = std::string("kernel set ") + gs::cpu::KernelSetName(set) + ": " + problem;
            break;
          }
        }
        // Once more with every output streamed (non-temporal stores), as large ones are: the
        // plan decides, so the case is compiled again for a machine with a tiny cache.
        if (problem.empty()) {
          const gs::plan::MachineInfo tiny_cache = MachineWith(set, true);
          gs::CompiledOperator streamed;
          problem = CompileCase(c, &streamed, &tiny_cache);
          if (problem.empty()) problem = CheckEngine(c, expected, streamed, {c.thread_count, nullptr});
          if (!problem.empty()) {
            problem = std::string("kernel set ") + gs::cpu::KernelSetName(set) + ", streamed: " + problem;
          }
        }
        if (!problem.empty()) break;
      }
    }
    if (!problem.empty()) {
      ADD_FAILURE() << problem;
      ++failures;
    }
  }
  if (failures >= kMaxReportedFailures) ADD_FAILURE() << "stopped after " << failures << " failures";
  std::cout << CaseKindName(kind) << " cases per CPU implementation:";
  for (const auto& [name, cases] : ran) std::cout << " " << name << " " << cases;
  std::cout << "\n";
  return ran;
}

// At least `share` of the sweep's cases ran `implementation`.
void ExpectShare(const Implementations& ran, const std::string& implementation, double share) {
  uint64_t total = 0;
  for (const auto& entry : ran) total += entry.second;
  const auto it = ran.find(implementation);
  const uint64_t cases = it == ran.end() ? 0 : it->second;
  EXPECT_GE(static_cast<double>(cases), share * static_cast<double>(total))
      << implementation << " ran " << cases << " of " << total << " cases";
}

// Seeds walk operator x element type x index type (264 combinations; 88 for the scatters) in
// their low digits. About 15 s in all on 2 cores in a Release build.
TEST(Property, Basic) {
  const Implementations ran = Sweep(CaseKind::Basic, 264 * 64);
  for (const char* implementation :
       {"gather_element_rows", "gather_tuple_rows", "gather_blocks", "gather_element_units",
        "gather_units", "scatter_element_rows", "scatter_units"}) {
    ExpectShare(ran, implementation, 0.01);
  }
}
TEST(Property, ReductionsWithCollisions) {
  const Implementations ran = Sweep(CaseKind::Reduction, 88 * 96);
  ExpectShare(ran, "scatter_lines", 0.01);
}

// A host's floating-point settings on the calling thread change no reduction's bytes, on any
// kernel set or thread count the cases draw, and are the host's again after the call.
TEST(Property, ReductionsUnderTheHostsFloatControl) {
  const uint64_t count = ScaledSeedCount(88 * 32);
  int failures = 0;
  for (uint64_t seed = 0; seed < count && failures < kMaxReportedFailures; ++seed) {
    const RandomCase c = GenerateCase(CaseKind::Reduction, seed);
    const ReferenceResult expected = RunReferenceOn(c);
    for (gs::cpu::KernelSet set : gs::cpu::SupportedKernelSets()) {
      const gs::plan::MachineInfo machine = MachineWith(set, false);
      gs::CompiledOperator compiled;
      std::string problem = CompileCase(c, &compiled, &machine);
      bool restored = true;
      EngineOptions options;
      options.execute = [&](const gs::CompiledOperator& op, const gs::TensorBindings& bindings,
                            gs::IndexChecking mode) {
        HostileFloatControl hostile;
        const unsigned before = FloatControlState();
        gs::CpuExecuteOptions cpu;
        cpu.Checking = mode;
        cpu.ThreadCount = c.thread_count;
        const gs::Status status = gs::ExecuteOnCpu(op, bindings, cpu);
        restored = restored && FloatControlState() == before;
        return status;
      };
      if (problem.empty()) problem = CheckEngine(c, expected, compiled, options);
      if (!restored) problem += "\n- left the host's floating-point settings changed";
      if (!problem.empty()) {
        ADD_FAILURE() << "kernel set " << gs::cpu::KernelSetName(set) << ": " << problem;
        ++failures;
        break;
      }
    }
  }
}
TEST(Property, CheckedBadIndicesFailCleanly) { Sweep(CaseKind::CheckedBad, 264 * 12); }
TEST(Property, UncheckedOutOfRange) { Sweep(CaseKind::Unchecked, 264 * 12); }
TEST(Property, InPlaceScatters) { Sweep(CaseKind::InPlace, 88 * 16); }
TEST(Property, LargeShapesOnEveryThreadCount) { Sweep(CaseKind::Large, 200, true); }
// Empty tensors, smaller elements indices and empty tuples, for every operator, element type
// and index type (the seeds' low digits), with bad indices mixed in: against the reference.
TEST(Property, OnnxShapes) { Sweep(CaseKind::Onnx, 264 * 16, true); }

// The generator draws each of those shapes often enough for the sweep above to mean something.
TEST(Generator, DrawsEmptyTensorsSmallerIndicesAndEmptyTuples) {
  uint64_t empty_output = 0, empty_input = 0, smaller = 0, empty_tuple = 0, total = 264 * 16;
  for (uint64_t seed = 0; seed < total; ++seed) {
    const RandomCase c = GenerateCase(CaseKind::Onnx, seed);
    const auto& op = c.op;
    const auto empty = [](const gs_reference::OwnedTensor& t) {
      for (uint32_t s : t.sizes) if (s == 0) return true;
      return false;
    };
    empty_output += empty(op.IsScatter() ? op.updates : op.output);
    empty_input += empty(op.input);
    const bool elements = op.type == gs::OperatorType::GatherElements ||
                          op.type == gs::OperatorType::ScatterElements;
    for (size_t d = 0; elements && d < op.input.sizes.size(); ++d) {
      if (d != op.axis && op.indices.sizes[d] < op.input.sizes[d]) {
        ++smaller;
        break;
      }
    }
    empty_tuple += op.input_dims > 0 && op.indices.sizes.back() == 0;
  }
  EXPECT_GE(empty_output, total / 20);
  EXPECT_GE(empty_input, total / 20);
  EXPECT_GE(smaller, total / 20);
  EXPECT_GE(empty_tuple, total / 20);
}

// The kinds made for one implementation must reach it in a good share of their cases (the
// rest are shapes next to it: unpacked rows, strided tuples).
TEST(Property, StripWalksOnEveryThreadCount) {
  const Implementations ran = Sweep(CaseKind::Strips, 22 * 16, true);
  ExpectShare(ran, "gather_element_rows+packed", 0.25);
  ExpectShare(ran, "scatter_strips+packed", 0.25);
}
TEST(Property, TupleRowsOnEveryThreadCount) {
  ExpectShare(Sweep(CaseKind::TupleRows, 88 * 8, true), "gather_tuple_rows", 0.5);
}

// The kernel sets: scalar always; a plan compiled for a machine with a set runs that set's
// kernels (its plan records it), and every set's name parses back to it.
TEST(KernelSets, APlanRunsItsMachinesSet) {
  EXPECT_TRUE(gs::cpu::KernelSetSupported(gs::cpu::KernelSet::Scalar));
  for (uint32_t i = 0; i < gs::cpu::kKernelSetCount; ++i) {
    const auto set = static_cast<gs::cpu::KernelSet>(i);
    if (gs::cpu::KernelSetSupported(set)) {
      const RandomCase c = GenerateCase(CaseKind::Basic, 2);
      gs::CompiledOperator compiled;
      const gs::plan::MachineInfo machine = MachineWith(set, false);
      ASSERT_EQ(CompileCase(c, &compiled, &machine), "");
      EXPECT_EQ(compiled.plan()->cpu.kernelSet, set);
      EXPECT_EQ(gs::cpu::KernelsOf(set).set, set);
    }
    gs::cpu::KernelSet parsed;
    ASSERT_TRUE(gs::cpu::ParseKernelSet(gs::cpu::KernelSetName(set), &parsed));
    EXPECT_EQ(parsed, set);
  }
  std::cout << "kernel sets run by the property tests:";
  for (gs::cpu::KernelSet set : gs::cpu::SupportedKernelSets()) std::cout << " " << gs::cpu::KernelSetName(set);
  std::cout << "\n";
}

// Reruns one case, GS_PROPERTY_REPRO=kind:seed, on every thread count (without it, a large
// reduction case, so the test always checks something).
TEST(Property, Repro) {
  const char* repro = std::getenv("GS_PROPERTY_REPRO");
  const std::string text = repro != nullptr ? repro : std::string(CaseKindName(CaseKind::Large)) + ":4";
  const size_t colon = text.find(':');
  CaseKind kind;
  ASSERT_TRUE(colon != std::string::npos && ParseCaseKind(text.substr(0, colon), &kind)) << text;
  const RandomCase c = GenerateCase(kind, std::strtoull(text.c_str() + colon + 1, nullptr, 10));
  std::cout << c.Describe() << "\n";
  const ReferenceResult expected = RunReferenceOn(c);
  gs::CompiledOperator compiled;
  const std::string problem = CompileCase(c, &compiled);
  ASSERT_EQ(problem, "");
  for (int threads : {1, 2, 0}) EXPECT_EQ(CheckEngine(c, expected, compiled, {threads}), "");
}

// The generator really spans the space it claims to (so a green run means something).
TEST(Generator, CoversTheSpace) {
  std::set<uint32_t> ranks;
  std::set<std::string> combos;
  bool broadcast = false, transposed = false, huge_stride = false, batched = false,
       gather_cropped = false, gather_padded = false, padded_nd = false;
  for (uint64_t seed = 0; seed < 264 * 8; ++seed) {
    const RandomCase c = GenerateCase(CaseKind::Basic, seed);
    const auto& op = c.op;
    const uint32_t rank = static_cast<uint32_t>(op.input.sizes.size());
    ranks.insert(rank);
    combos.insert(std::to_string(static_cast<int>(op.type)) + "/" +
                  gs_reference::TypeName(op.input.type) + "/" +
                  gs_reference::TypeName(op.indices.type));
    for (const auto* t : {&op.input, &op.indices, &op.updates}) {
      for (size_t d = 0; d < t->strides.size(); ++d) {
        broadcast |= t->strides[d] == 0 && t->sizes[d] > 1;
        huge_stride |= t->sizes[d] == 1 && t->strides[d] > 0x10000000u;
        transposed |= d > 0 && t->sizes[d] > 1 && t->sizes[d - 1] > 1 &&
                      t->strides[d] > t->strides[d - 1];
      }
    }
    batched |= op.type == gs::OperatorType::GatherNd1 && op.batch_dims > 0;
    if (op.type == gs::OperatorType::Gather) {
      gather_cropped |= rank - 1 + op.index_dimensions > rank;
      gather_padded |= rank - 1 + op.index_dimensions < rank;
    }
    padded_nd |= op.input_dims > 0 && op.input_dims < rank && op.indices_dims < rank;
  }
  EXPECT_EQ(ranks.size(), 8u);
  EXPECT_EQ(combos.size(), 6u * 11u * 4u);
  EXPECT_TRUE(broadcast);
  EXPECT_TRUE(transposed);
  EXPECT_TRUE(huge_stride);
  EXPECT_TRUE(batched);
  EXPECT_TRUE(gather_cropped);
  EXPECT_TRUE(gather_padded);
  EXPECT_TRUE(padded_nd);
}

}  // namespace
}  // namespace gs_property
