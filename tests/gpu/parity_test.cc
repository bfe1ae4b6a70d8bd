// Parity: the D3D12 path against the CPU engine, byte for byte, on the property tests' random
// cases (every operator, element size, index type, rank, stride pattern, duplicates and
// reductions), each also checked against the independent reference with guard bytes and
// sentinel-filled outputs by CheckEngine.
//   GS_PROPERTY_REPRO=kind:seed  reruns one case
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "engine_check.h"
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

// "" when the D3D12 path matches the reference (all of CheckEngine's checks) and the CPU
// engine (same status code and message, same output bytes).
std::string CheckParity(gs::D3D12Engine* engine, const RandomCase& c) {
  const ReferenceResult expected = RunReferenceOn(c);
  gs::CompiledOperator compiled;
  std::string problem = CompileCase(c, &compiled);
  if (!problem.empty()) return problem;

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
  problem = CheckEngine(c, expected, compiled, gpuRun);
  if (!problem.empty()) return "D3D12 vs the reference: " + problem;
  problem = CheckEngine(c, expected, compiled, cpuRun);
  if (!problem.empty()) return "CPU vs the reference: " + problem;
  if (gpu.status.code() != cpu.status.code() || gpu.status.message() != cpu.status.message()) {
    return c.Describe() + "\n- D3D12 said " + gs::StatusCodeName(gpu.status.code()) + ": " +
           gpu.status.message() + "\n- the CPU said " + gs::StatusCodeName(cpu.status.code()) +
           ": " + cpu.status.message();
  }
  if (gpu.output != cpu.output) return c.Describe() + "\n- output bytes differ from the CPU engine's";
  return "";
}

class Parity : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    engine_ = gs_gpu_test::SharedEngine(&why);
    ASSERT_NE(engine_, nullptr) << "no D3D12 device: " << why;
  }

  // Seeds [0, count) of a kind; stops after a few failures.
  void Sweep(CaseKind kind, uint64_t count) {
    int failures = 0;
    for (uint64_t seed = 0; seed < count && failures < 5; ++seed) {
      const std::string problem = CheckParity(engine_, GenerateCase(kind, seed));
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

TEST_F(Parity, Repro) {
  const char* repro = std::getenv("GS_PROPERTY_REPRO");
  const std::string text = repro != nullptr ? repro : "reduction:7";
  const size_t colon = text.find(':');
  CaseKind kind;
  ASSERT_TRUE(colon != std::string::npos && ParseCaseKind(text.substr(0, colon), &kind)) << text;
  EXPECT_EQ(CheckParity(engine_, GenerateCase(kind, std::strtoull(text.c_str() + colon + 1, nullptr, 10))), "");
}

}  // namespace
}  // namespace gs_property
