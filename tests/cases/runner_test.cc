// Running and judging cases: a fake backend misbehaves on purpose, the CPU backend must not.
#include "runner.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>

namespace gs::cases {
namespace {

using nlohmann::json;

// Executes by calling body on the bindings; remembers the checking mode it was given.
class FakeBackend final : public Backend {
 public:
  using Body = std::function<Status(const TensorBindings&)>;
  explicit FakeBackend(Body body) : body_(std::move(body)) {}

  std::string name() const override { return "fake"; }
  Status Execute(const CompiledOperator&, const TensorBindings& bindings,
                 IndexChecking checking) override {
    checking_ = checking;
    return body_(bindings);
  }
  IndexChecking checking() const { return checking_; }

 private:
  Body body_;
  IndexChecking checking_ = IndexChecking::Checked;
};

Case ParseCase(const json& c) {
  const CaseFile file = ParseCaseFile(json{{"cases", {c}}}.dump(), "test");
  EXPECT_EQ(file.error, "");
  EXPECT_EQ(file.entries.at(0).error, "");
  return *file.entries.at(0).value;
}

// GATHER_ELEMENTS into every other element of a 3-element FLOAT32 buffer: the view covers
// elements 0 and 2, element 1 must keep its fill.
json StridedOutputCase() {
  return json::parse(R"({
    "name": "strided-output",
    "operator": "GATHER_ELEMENTS",
    "attributes": {"Axis": 0},
    "tensors": {
      "InputTensor":   {"dataType": "FLOAT32", "sizes": [3], "data": [1, 2, 3]},
      "IndicesTensor": {"dataType": "UINT32",  "sizes": [2], "data": [2, 0]},
      "OutputTensor":  {"dataType": "FLOAT32", "sizes": [2], "strides": [2],
                        "fill": [9, 9, 9], "expected": [3, 1]}
    }
  })");
}

float* OutputFloats(const TensorBindings& bindings) {
  return static_cast<float*>(bindings.OutputTensor.Data);
}

// Writes the right answer into the strided view.
Status WriteExpected(const TensorBindings& bindings) {
  OutputFloats(bindings)[0] = 3;
  OutputFloats(bindings)[2] = 1;
  return Status::Ok();
}

// Runs a case (the strided-output one unless given) on a fake backend that does body.
Outcome RunOnFake(FakeBackend::Body body, const json& c = StridedOutputCase()) {
  FakeBackend backend(std::move(body));
  return RunCase(ParseCase(c), backend);
}

TEST(Runner, PassesACorrectBackend) {
  const Outcome outcome = RunOnFake(WriteExpected);
  EXPECT_EQ(outcome.verdict, Verdict::Pass) << outcome.reason;
}

TEST(Runner, BindsBuffersAsTheCaseDescribes) {
  const Outcome outcome = RunOnFake([](const TensorBindings& bindings) {
    EXPECT_EQ(bindings.InputTensor.SizeInBytes, 12u);
    EXPECT_EQ(bindings.IndicesTensor.SizeInBytes, 8u);
    EXPECT_EQ(bindings.UpdatesTensor.Data, nullptr);
    EXPECT_EQ(bindings.OutputTensor.SizeInBytes, 12u);  // the fill, not the view
    const float fill[3] = {9, 9, 9};
    EXPECT_EQ(std::memcmp(bindings.OutputTensor.Data, fill, 12), 0);
    return WriteExpected(bindings);
  });
  EXPECT_EQ(outcome.verdict, Verdict::Pass) << outcome.reason;
}

TEST(Runner, ReportsTheFirstMismatchWithBits) {
  const Outcome outcome = RunOnFake([](const TensorBindings& bindings) {
    OutputFloats(bindings)[0] = 3;
    OutputFloats(bindings)[2] = -0.0f;
    return Status::Ok();
  });
  EXPECT_EQ(outcome.verdict, Verdict::Fail);
  EXPECT_EQ(outcome.reason,
            "OutputTensor element 1: expected 0x3f800000, got 0x80000000 (1 of 2 elements differ)");
}

TEST(Runner, WritesOutsideTheViewFail) {
  const Outcome outcome = RunOnFake([](const TensorBindings& bindings) {
    WriteExpected(bindings);
    OutputFloats(bindings)[1] = 0;
    return Status::Ok();
  });
  EXPECT_EQ(outcome.verdict, Verdict::Fail);
  EXPECT_EQ(outcome.reason,
            "OutputTensor buffer element 1, outside the view, changed: was 0x41100000, now "
            "0x00000000");
}

TEST(Runner, WritesPastEitherEndOfABufferFail) {
  for (const int index : {3, -1}) {
    FakeBackend backend([index](const TensorBindings& bindings) {
      WriteExpected(bindings);
      OutputFloats(bindings)[index] = 0;
      return Status::Ok();
    });
    const Outcome outcome = RunCase(ParseCase(StridedOutputCase()), backend);
    EXPECT_EQ(outcome.verdict, Verdict::Fail);
    EXPECT_NE(outcome.reason.find("wrote outside OutputTensor buffer"), std::string::npos)
        << outcome.reason;
  }
}

TEST(Runner, InputsAreReadOnly) {
  const Outcome outcome = RunOnFake([](const TensorBindings& bindings) {
    WriteExpected(bindings);
    const_cast<uint8_t*>(static_cast<const uint8_t*>(bindings.IndicesTensor.Data))[4] = 1;
    return Status::Ok();
  });
  EXPECT_EQ(outcome.verdict, Verdict::Fail);
  EXPECT_EQ(outcome.reason,
            "changed IndicesTensor, which it only reads: buffer element 1 was 0x00000000, now "
            "0x00000001");
}

TEST(Runner, OutputsWithoutFillStartAsSentinel) {
  json c = StridedOutputCase();
  c["tensors"]["OutputTensor"].erase("fill");
  const Outcome outcome = RunOnFake(
      [](const TensorBindings& bindings) {
        EXPECT_EQ(bindings.OutputTensor.SizeInBytes, 12u);  // the smallest buffer the view fits
        OutputFloats(bindings)[0] = 3;
        return Status::Ok();
      },
      c);
  EXPECT_EQ(outcome.verdict, Verdict::Fail);
  EXPECT_NE(outcome.reason.find("expected 0x3f800000, got 0xa5a5a5a5"), std::string::npos)
      << outcome.reason;
}

TEST(Runner, FailedExecutionOfASuccessCase) {
  const Outcome outcome = RunOnFake(
      [](const TensorBindings&) { return Status(StatusCode::Unsupported, "no kernel\nfor this"); });
  EXPECT_EQ(outcome.verdict, Verdict::Fail);
  EXPECT_EQ(outcome.reason, "execute failed: UNSUPPORTED: no kernel\nfor this");
}

json ExpectErrorCase() {
  json c = StridedOutputCase();
  c["expect"] = "error";
  c["errorContains"] = "indicestensor";
  c["tensors"]["OutputTensor"].erase("expected");
  return c;
}

TEST(Runner, ExpectedErrors) {
  FakeBackend fails([](const TensorBindings&) {
    return Status(StatusCode::InvalidArgument, "IndicesTensor element 1 is out of bounds");
  });
  EXPECT_EQ(RunCase(ParseCase(ExpectErrorCase()), fails).verdict, Verdict::Pass);

  json other = ExpectErrorCase();
  other["errorContains"] = "UpdatesTensor";
  const Outcome wrongMessage = RunCase(ParseCase(other), fails);
  EXPECT_EQ(wrongMessage.verdict, Verdict::Fail);
  EXPECT_EQ(wrongMessage.reason,
            "the error does not mention \"UpdatesTensor\": INVALID_ARGUMENT: IndicesTensor "
            "element 1 is out of bounds");

  FakeBackend succeeds(WriteExpected);
  const Outcome noError = RunCase(ParseCase(ExpectErrorCase()), succeeds);
  EXPECT_EQ(noError.verdict, Verdict::Fail);
  EXPECT_EQ(noError.reason, "expected an error, but compile and execute succeeded");
}

json InPlaceCase();

// A gather that fails at execution may have written its output view, never the bytes
// between its strided elements (semantics.md).
TEST(Runner, AFailingGatherMayWriteOnlyItsOutputView) {
  const Outcome inView = RunOnFake(
      [](const TensorBindings& bindings) {
        OutputFloats(bindings)[0] = 3;
        return Status(StatusCode::InvalidArgument, "IndicesTensor: bad");
      },
      ExpectErrorCase());
  EXPECT_EQ(inView.verdict, Verdict::Pass) << inView.reason;
  const Outcome outside = RunOnFake(
      [](const TensorBindings& bindings) {
        OutputFloats(bindings)[1] = 3;
        return Status(StatusCode::InvalidArgument, "IndicesTensor: bad");
      },
      ExpectErrorCase());
  EXPECT_EQ(outside.verdict, Verdict::Fail);
  EXPECT_EQ(outside.reason,
            "the failing call changed the output: OutputTensor buffer element 1, outside the "
            "view, changed: was 0x41100000, now 0x40400000");
}

// A failing scatter leaves its output alone, every byte of it.
TEST(Runner, AFailingScatterMustLeaveTheOutputAlone) {
  json c = InPlaceCase();
  c["expect"] = "error";
  c["tensors"]["OutputTensor"].erase("expected");
  const Outcome outcome = RunOnFake(
      [](const TensorBindings& bindings) {
        static_cast<int16_t*>(bindings.OutputTensor.Data)[2] = 5;
        return Status(StatusCode::InvalidArgument, "IndicesTensor: bad");
      },
      c);
  EXPECT_EQ(outcome.verdict, Verdict::Fail);
  EXPECT_EQ(outcome.reason, "the failing call changed the output: buffer element 2 was 0x0002, now 0x0005");
}

TEST(Runner, ModeReachesTheBackend) {
  FakeBackend backend(WriteExpected);
  json c = StridedOutputCase();
  RunCase(ParseCase(c), backend);
  EXPECT_EQ(backend.checking(), IndexChecking::Checked);
  c["mode"] = "unchecked";
  RunCase(ParseCase(c), backend);
  EXPECT_EQ(backend.checking(), IndexChecking::Unchecked);
}

#ifdef GS_CASES_D3D12  // the D3D12 path is built: it runs the case
TEST(Runner, D3d12RunsAStridedOutput) {
  const auto d3d12 = MakeBackend("d3d12");
  ASSERT_NE(d3d12, nullptr);
  const Outcome outcome = RunCase(ParseCase(StridedOutputCase()), *d3d12);
  EXPECT_EQ(outcome.verdict, Verdict::Pass) << outcome.reason;
}
#else
TEST(Runner, AnAbsentBackendSkips) {
  const auto d3d12 = MakeBackend("d3d12");
  ASSERT_NE(d3d12, nullptr);
  const Outcome outcome = RunCase(ParseCase(StridedOutputCase()), *d3d12);
  EXPECT_EQ(outcome.verdict, Verdict::Skip);
  EXPECT_EQ(outcome.reason, "d3d12 backend not present (not built)");
}
#endif

TEST(Runner, CpuRunsAStridedOutput) {
  const auto cpu = MakeBackend("cpu");
  const Outcome outcome = RunCase(ParseCase(StridedOutputCase()), *cpu);
  EXPECT_EQ(outcome.verdict, Verdict::Pass) << outcome.reason;
}

// In place over a padded input: the output view is the input view, element 1 is padding.
json InPlaceCase() {
  return json::parse(R"({
    "name": "in-place",
    "operator": "SCATTER_ELEMENTS",
    "attributes": {"Axis": 0},
    "inPlace": true,
    "tensors": {
      "InputTensor":   {"dataType": "INT16", "sizes": [2], "strides": [2], "data": [1, 7, 2]},
      "IndicesTensor": {"dataType": "INT32", "sizes": [1], "data": [-1]},
      "UpdatesTensor": {"dataType": "INT16", "sizes": [1], "data": [5]},
      "OutputTensor":  {"dataType": "INT16", "sizes": [2], "strides": [2], "expected": [1, 5]}
    }
  })");
}

TEST(Runner, InPlaceBindsTheInputBuffer) {
  FakeBackend backend([](const TensorBindings& bindings) {
    EXPECT_EQ(bindings.OutputTensor.Data, bindings.InputTensor.Data);
    EXPECT_EQ(bindings.OutputTensor.SizeInBytes, bindings.InputTensor.SizeInBytes);
    static_cast<int16_t*>(bindings.OutputTensor.Data)[2] = 5;
    return Status::Ok();
  });
  const Outcome outcome = RunCase(ParseCase(InPlaceCase()), backend);
  EXPECT_EQ(outcome.verdict, Verdict::Pass) << outcome.reason;

  EXPECT_EQ(RunCase(ParseCase(InPlaceCase()), *MakeBackend("cpu")).verdict, Verdict::Pass);
}

TEST(Runner, InPlaceChecksThePaddingOfTheInput) {
  const Outcome outcome = RunOnFake(
      [](const TensorBindings& bindings) {
        static_cast<int16_t*>(bindings.OutputTensor.Data)[2] = 5;
        static_cast<int16_t*>(bindings.OutputTensor.Data)[1] = 0;
        return Status::Ok();
      },
      InPlaceCase());
  EXPECT_EQ(outcome.verdict, Verdict::Fail);
  EXPECT_EQ(outcome.reason,
            "OutputTensor buffer element 1, outside the view, changed: was 0x0007, now 0x0000");
}

// The library, not the runner, rejects invalid descs: the runner hands them over as given.
TEST(Runner, InvalidDescsReachTheLibrary) {
  json c = ExpectErrorCase();
  c["attributes"]["Axis"] = 4294967295u;
  c["errorContains"] = "axis";
  const Outcome outcome = RunCase(ParseCase(c), *MakeBackend("cpu"));
  EXPECT_EQ(outcome.verdict, Verdict::Pass) << outcome.reason;

  c = ExpectErrorCase();
  c["errorContains"] = "";
  c["tensors"]["IndicesTensor"]["sizes"] = {0};
  c["tensors"]["IndicesTensor"]["data"] = json::array();
  EXPECT_EQ(RunCase(ParseCase(c), *MakeBackend("cpu")).verdict, Verdict::Pass);

  c = ExpectErrorCase();
  c.erase("errorContains");
  c["tensors"].erase("IndicesTensor");
  EXPECT_EQ(RunCase(ParseCase(c), *MakeBackend("cpu")).verdict, Verdict::Pass);
}

TEST(Runner, CompileFailuresOfSuccessCasesNameTheLibrarysMessage) {
  json c = StridedOutputCase();
  c["attributes"]["Axis"] = 3;
  const Outcome outcome = RunCase(ParseCase(c), *MakeBackend("cpu"));
  EXPECT_EQ(outcome.verdict, Verdict::Fail);
  EXPECT_EQ(outcome.reason.rfind("CompileOperator failed: INVALID_ARGUMENT: ", 0), 0u)
      << outcome.reason;
}

TEST(Runner, OutputsBeyondTheAllocationCapFail) {
  // A broadcast 65536 x 65536 gather: 16 GiB of FLOAT32 output from a few bytes of input. The
  // desc is valid, so a case expecting an error must fail, without allocating or executing.
  const json c = json::parse(R"({
    "name": "huge",
    "operator": "GATHER_ELEMENTS",
    "attributes": {"Axis": 0},
    "expect": "error",
    "tensors": {
      "InputTensor":   {"dataType": "FLOAT32", "sizes": [1, 65536], "strides": [0, 0], "data": [1]},
      "IndicesTensor": {"dataType": "UINT32", "sizes": [65536, 65536], "strides": [0, 0], "data": [0]},
      "OutputTensor":  {"dataType": "FLOAT32", "sizes": [65536, 65536]}
    }
  })");
  bool executed = false;
  FakeBackend backend([&](const TensorBindings&) {
    executed = true;
    return Status::Ok();
  });
  const Outcome outcome = RunCase(ParseCase(c), backend);
  EXPECT_FALSE(executed);
  EXPECT_EQ(outcome.verdict, Verdict::Fail);
  EXPECT_NE(outcome.reason.find("more than the runner allocates"), std::string::npos)
      << outcome.reason;
}

}  // namespace
}  // namespace gs::cases
