// Parity: the D3D12 path against the CPU engine, byte for byte, on the property tests' random
// cases (every operator, element size, index type, rank, stride pattern, duplicates and
// reductions), each also checked against the independent reference with guard bytes and
// sentinel-filled outputs by CheckEngine.
// The Windowed sweeps lower the engine's view limit to the smallest window the case fits, so
// its largest tensor spans all 8 view windows (a scatter's lists all 4) and every kernel
// crosses window boundaries on small tensors.
//   GS_PROPERTY_REPRO=kind:seed  reruns one case (windowed:kind:seed with the windows)
//   GS_PROPERTY_SCALE=x          runs x times as many seeds in each sweep: a longer soak
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "engine_check.h"
#include "plan/gpu_dispatch.h"
#include "gpu_test_environment.h"
#include "random_desc.h"

namespace gs_property {
namespace {

// What an executor left: the status and the whole output buffer.
struct Outcome {
  gs::Status status;
  std::vector<uint8_t> output;
};

Executor Recording(Executor execute, Outcome* outcome) {
  return [execute, outcome](const gs::CompiledOperator& op, const gs::TensorBindings& bindings,
                            gs::IndexChecking checking) {
    outcome->status = execute(op, bindings, checking);
    const auto* out = static_cast<const uint8_t*>(bindings.OutputTensor.Data);
    outcome->output.assign(out, out + bindings.OutputTensor.SizeInBytes);
    return outcome->status;
  };
}

// The most in-range updates that land on one output element: the reference's ADD of ones into
// zeros, on UINT32 copies of the case's Input, Updates and Output views.
uint64_t MostUpdatesOnOneElement(const RandomCase& c) {
  gs_reference::OwnedOperator op = c.op;
  for (gs_reference::OwnedTensor* t : {&op.input, &op.updates, &op.output}) {
    t->type = gs::DataType::UInt32;
    t->total_bytes = gs_reference::ViewSpanInElements(t->Desc()) * 4;
  }
  op.reduction = gs::Reduction::Add;
  std::vector<uint32_t> input(op.input.total_bytes / 4 + 1, 0), output(op.output.total_bytes / 4 + 1, 0);
  std::vector<uint32_t> ones(op.updates.total_bytes / 4 + 1, 1);
  const gs::TensorDesc outputView = op.output.Desc();
  gs_reference::BadIndex unused;
  const gs_reference::RefBuffers buffers{reinterpret_cast<const uint8_t*>(input.data()), c.indices.data(),
                                         reinterpret_cast<const uint8_t*>(ones.data()),
                                         reinterpret_cast<uint8_t*>(output.data())};
  gs_reference::RunReference(op.Desc(), buffers, gs::IndexChecking::Unchecked, nullptr, &unused);
  uint64_t most = 0;
  for (uint64_t e = 0; e < gs_reference::ElementCount(outputView); ++e) {
    most = std::max<uint64_t>(most, output[gs_reference::ElementOffset(outputView, e)]);
  }
  return most;
}

// A reduction with more updates on one element than the D3D12 path folds on one thread: its
// documented answer, Unsupported with that message, and nothing written.
std::string CheckRefused(gs::D3D12Engine* engine, const RandomCase& c, const gs::CompiledOperator& compiled) {
  std::vector<uint8_t> input = c.input;
  std::vector<uint8_t> output = c.in_place ? c.input : c.output;
  const std::vector<uint8_t> before = output;
  gs::TensorBindings b;
  b.InputTensor = {c.in_place ? output.data() : input.data(), input.size()};
  b.IndicesTensor = {c.indices.data(), c.indices.size()};
  b.UpdatesTensor = {c.updates.data(), c.updates.size()};
  b.OutputTensor = {output.data(), output.size()};
  const gs::Status status = engine->ExecuteOnHost(compiled, b, c.mode);
  const std::string expected = std::string(gs_reference::OperatorName(c.op.type)) + ": D3D12: more than " +
                               std::to_string(gs::plan::kGpuMaxUpdatesPerElement) +
                               " updates land on one output element, more than the D3D12 path folds on one "
                               "thread; nothing was written (ExecuteOnCpu runs it)";
  if (status.code() != gs::StatusCode::Unsupported || status.message() != expected) {
    return c.Describe() + "\n- D3D12 said " + gs::StatusCodeName(status.code()) + ": " + status.message() +
           "\n- expected Unsupported: " + expected;
  }
  if (output != before) return c.Describe() + "\n- D3D12 refused the call but wrote its output";
  return "";
}

// "" when the D3D12 path matches the reference (all of CheckEngine's checks) and the CPU
// engine (same status code and message, same output bytes), or, beyond its limit of updates on
// one element, refuses as documented while the CPU engine matches the reference.
std::string CheckParity(gs::D3D12Engine* engine, const RandomCase& c, bool windowed = false) {
  const ReferenceResult expected = RunReferenceOn(c);
  gs::CompiledOperator compiled;
  std::string problem = CompileCase(c, &compiled);
  if (!problem.empty()) return problem;
  const uint64_t viewLimit = windowed ? gs::plan::SmallestGpuViewLimit(*compiled.plan()) : gs::plan::kGpuViewElementLimit;
  const gs::Status limitSet = engine->SetViewElementLimit(viewLimit);
  if (!limitSet.ok()) return limitSet.message();

  Outcome cpu, gpu;
  EngineOptions cpuRun;
  cpuRun.execute = Recording(
      [](const gs::CompiledOperator& op, const gs::TensorBindings& b, gs::IndexChecking checking) {
        gs::CpuExecuteOptions options;
        options.Checking = checking;
        return gs::ExecuteOnCpu(op, b, options);
      },
      &cpu);
  EngineOptions gpuRun;
  gpuRun.execute = Recording(
      [engine](const gs::CompiledOperator& op, const gs::TensorBindings& b,
               gs::IndexChecking checking) { return engine->ExecuteOnHost(op, b, checking); },
      &gpu);
  const bool beyondLimit = expected.ok && c.op.IsScatter() && c.op.reduction != gs::Reduction::None &&
                           MostUpdatesOnOneElement(c) > gs::plan::kGpuMaxUpdatesPerElement;
  problem = beyondLimit ? CheckRefused(engine, c, compiled) : CheckEngine(c, expected, compiled, gpuRun);
  if (!engine->SetViewElementLimit(gs::plan::kGpuViewElementLimit).ok()) return "restoring the view limit failed";
  if (!problem.empty()) {
    return "D3D12 vs the reference (view windows of " + std::to_string(viewLimit) + " elements): " + problem;
  }
  problem = CheckEngine(c, expected, compiled, cpuRun);
  if (!problem.empty()) return "CPU vs the reference: " + problem;
  if (beyondLimit) return "";
  if (gpu.status.code() != cpu.status.code() || gpu.status.message() != cpu.status.message()) {
    return c.Describe() + "\n- D3D12 said " + gs::StatusCodeName(gpu.status.code()) + ": " +
           gpu.status.message() + "\n- the CPU said " + gs::StatusCodeName(cpu.status.code()) +
           ": " + cpu.status.message();
  }
  // A failed gather may leave any bytes in its view (CheckEngine checked the rest), so the two
  // engines' outputs are compared when the call succeeded or was a scatter.
  const bool outputDefined = cpu.status.ok() || c.op.IsScatter();
  if (outputDefined && gpu.output != cpu.output) {
    return c.Describe() + "\n- output bytes differ from the CPU engine's";
  }
  return "";
}

class Parity : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    engine_ = gs_gpu_test::SharedEngine(&why);
    ASSERT_NE(engine_, nullptr) << "no D3D12 device: " << why;
  }

  // Seeds [0, count x GS_PROPERTY_SCALE) of a kind; stops after a few failures.
  void Sweep(CaseKind kind, uint64_t count, bool windowed = false) {
    count = ScaledSeedCount(count);
    int failures = 0;
    for (uint64_t seed = 0; seed < count && failures < 5; ++seed) {
      const std::string problem = CheckParity(engine_, GenerateCase(kind, seed), windowed);
      if (!problem.empty()) {
        ADD_FAILURE() << problem;
        ++failures;
      }
    }
  }

  gs::D3D12Engine* engine_ = nullptr;
};

// Seeds walk operator x element type x index type in their low digits (264 combinations, 88
// for the scatters), so every count below covers each combination several times.
TEST_F(Parity, Basic) { Sweep(CaseKind::Basic, 264 * 3); }
TEST_F(Parity, ReductionsWithCollisions) { Sweep(CaseKind::Reduction, 88 * 4); }
TEST_F(Parity, CheckedBadIndicesSameError) { Sweep(CaseKind::CheckedBad, 264); }
TEST_F(Parity, UncheckedOutOfRange) { Sweep(CaseKind::Unchecked, 264); }
TEST_F(Parity, InPlaceScatters) { Sweep(CaseKind::InPlace, 88 * 2); }
TEST_F(Parity, LargeShapes) { Sweep(CaseKind::Large, 8); }
// Empty tensors, smaller elements indices, empty tuples (what ONNX and PyTorch accept).
TEST_F(Parity, OnnxShapes) { Sweep(CaseKind::Onnx, 264 * 2); }

TEST_F(Parity, WindowedBasic) { Sweep(CaseKind::Basic, 264, true); }
TEST_F(Parity, WindowedReductionsWithCollisions) { Sweep(CaseKind::Reduction, 88, true); }
TEST_F(Parity, WindowedCheckedBadIndicesSameError) { Sweep(CaseKind::CheckedBad, 132, true); }
TEST_F(Parity, WindowedUncheckedOutOfRange) { Sweep(CaseKind::Unchecked, 132, true); }
TEST_F(Parity, WindowedInPlaceScatters) { Sweep(CaseKind::InPlace, 88, true); }
TEST_F(Parity, WindowedLargeShapes) { Sweep(CaseKind::Large, 4, true); }
TEST_F(Parity, WindowedOnnxShapes) { Sweep(CaseKind::Onnx, 264, true); }

TEST_F(Parity, ViewLimitIsAMultipleOf16UpTo2To27) {
  for (uint64_t bad : {uint64_t{0}, uint64_t{8}, uint64_t{100}, gs::plan::kGpuViewElementLimit + 16}) {
    const gs::Status status = engine_->SetViewElementLimit(bad);
    EXPECT_EQ(status.code(), gs::StatusCode::InvalidArgument);
    EXPECT_EQ(status.message(), "D3D12Engine::SetViewElementLimit: " + std::to_string(bad) +
                                    " is not a multiple of 16 in [16, 2^27]");
  }
  EXPECT_TRUE(engine_->SetViewElementLimit(16).ok());
  EXPECT_TRUE(engine_->SetViewElementLimit(gs::plan::kGpuViewElementLimit).ok());
}

TEST_F(Parity, Repro) {
  const char* repro = std::getenv("GS_PROPERTY_REPRO");
  std::string text = repro != nullptr ? repro : "reduction:7";
  const bool windowed = text.rfind("windowed:", 0) == 0;
  if (windowed) text = text.substr(9);
  const size_t colon = text.find(':');
  CaseKind kind;
  ASSERT_TRUE(colon != std::string::npos && ParseCaseKind(text.substr(0, colon), &kind)) << text;
  EXPECT_EQ(CheckParity(engine_, GenerateCase(kind, std::strtoull(text.c_str() + colon + 1, nullptr, 10)), windowed), "");
}

}  // namespace
}  // namespace gs_property
