// gs-cases as a user runs it: the built binary on small case files, its lines and exit codes.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Result {
  int exitCode = -1;
  std::vector<std::string> lines;  // stdout
  std::string err;
};

std::string ReadText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class CommandLine : public testing::Test {
 protected:
  void SetUp() override {
    const auto* test = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(testing::TempDir()) / (std::string("gs_cases_") + test->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }

  Result Run(const std::string& args) {
    const fs::path out = dir_ / "stdout.txt";
    const fs::path err = dir_ / "stderr.txt";
    const std::string command = std::string(GS_CASES_EMULATOR) + " '" + GS_CASES_EXE + "' " + args + " >'" +
                                out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(command.c_str());
    Result result;
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::istringstream lines(ReadText(out));
    for (std::string line; std::getline(lines, line);) result.lines.push_back(line);
    result.err = ReadText(err);
    return result;
  }

  fs::path dir_;
};

// Two cases: one right, one with a wrong expected value.
constexpr const char kTwoCases[] = R"({"cases": [
  {"name": "good", "operator": "GATHER_ELEMENTS", "attributes": {"Axis": 0},
   "tensors": {"InputTensor": {"dataType": "UINT8", "sizes": [2], "data": [10, 20]},
               "IndicesTensor": {"dataType": "INT32", "sizes": [2], "data": [1, -2]},
               "OutputTensor": {"dataType": "UINT8", "sizes": [2], "expected": [20, 10]}}},
  {"name": "wrong", "operator": "GATHER_ELEMENTS", "attributes": {"Axis": 0},
   "tensors": {"InputTensor": {"dataType": "UINT8", "sizes": [2], "data": [10, 20]},
               "IndicesTensor": {"dataType": "INT32", "sizes": [2], "data": [1, -2]},
               "OutputTensor": {"dataType": "UINT8", "sizes": [2], "expected": [20, 11]}}}
]})";

constexpr const char kOneGoodCase[] = R"({"cases": [
  {"name": "only", "operator": "GATHER", "attributes": {"Axis": 1, "IndexDimensions": 1},
   "tensors": {"InputTensor": {"dataType": "INT64", "sizes": [1, 3], "data": [1, "-9223372036854775808", 3]},
               "IndicesTensor": {"dataType": "UINT64", "sizes": [1, 1], "data": [1]},
               "OutputTensor": {"dataType": "INT64", "sizes": [1, 1], "expected": ["0x8000000000000000"]}}}
]})";

TEST_F(CommandLine, ReportsEachCaseThenTheCounts) {
  const Result result = Run(Write("two.json", kTwoCases));
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_EQ(result.lines, (std::vector<std::string>{
                              "PASS good",
                              "FAIL wrong: OutputTensor element 1: expected 0x0b, got 0x0a (1 of 2 "
                              "elements differ)",
                              "1 passed, 1 failed, 0 skipped"}));
}

TEST_F(CommandLine, ExitsZeroWhenNothingFails) {
  const Result result = Run("--backend cpu " + Write("one.json", kOneGoodCase));
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.lines, (std::vector<std::string>{"PASS only", "1 passed, 0 failed, 0 skipped"}));
}

TEST_F(CommandLine, FilterKeepsMatchingNames) {
  const Result result = Run("--filter goo " + Write("two.json", kTwoCases));
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.lines, (std::vector<std::string>{"PASS good", "1 passed, 0 failed, 0 skipped"}));
  EXPECT_EQ(Run("--filter=nothing " + Write("two2.json", kTwoCases)).lines,
            (std::vector<std::string>{"0 passed, 0 failed, 0 skipped"}));
}

#ifdef GS_CASES_D3D12  // the D3D12 path is built: d3d12 runs the cases (lavapipe without a GPU)
TEST_F(CommandLine, D3d12BackendRunsEveryCase) {
  const Result result = Run("--backend d3d12 " + Write("two.json", kTwoCases));
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_EQ(result.lines, (std::vector<std::string>{
                              "PASS good",
                              "FAIL wrong: OutputTensor element 1: expected 0x0b, got 0x0a (1 of 2 "
                              "elements differ)",
                              "1 passed, 1 failed, 0 skipped"}));
}

TEST_F(CommandLine, SeveralBackendsNameThemselvesCpuAndD3d12) {
  const Result result = Run("--backend=all " + Write("one.json", kOneGoodCase));
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.lines, (std::vector<std::string>{"PASS only [cpu]", "PASS only [d3d12]",
                                                    "2 passed, 0 failed, 0 skipped"}));
}
#else
TEST_F(CommandLine, AbsentBackendSkipsEveryCase) {
  const Result result = Run("--backend d3d12 " + Write("two.json", kTwoCases));
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.lines,
            (std::vector<std::string>{"SKIP good: d3d12 backend not present (not built)",
                                      "SKIP wrong: d3d12 backend not present (not built)",
                                      "0 passed, 0 failed, 2 skipped"}));
}

TEST_F(CommandLine, SeveralBackendsNameThemselves) {
  const Result result = Run("--backend=all " + Write("one.json", kOneGoodCase));
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.lines,
            (std::vector<std::string>{"PASS only [cpu]",
                                      "SKIP only [d3d12]: d3d12 backend not present (not built)",
                                      "1 passed, 0 failed, 1 skipped"}));
}
#endif

TEST_F(CommandLine, MalformedFilesFailAndTheRestStillRuns) {
  const std::string broken = Write("broken.json", "{\"cases\": [");
  const std::string good = Write("one.json", kOneGoodCase);
  const std::string missing = (dir_ / "missing.json").string();
  const Result result = Run(broken + " " + good + " " + missing);
  EXPECT_EQ(result.exitCode, 2);
  ASSERT_EQ(result.lines.size(), 4u);
  EXPECT_EQ(result.lines[0].rfind("FAIL " + broken + ": not valid JSON", 0), 0u) << result.lines[0];
  EXPECT_EQ(result.lines[1], "PASS only");
  EXPECT_EQ(result.lines[2].rfind("FAIL " + missing + ": cannot read", 0), 0u) << result.lines[2];
  EXPECT_EQ(result.lines[3], "1 passed, 2 failed, 0 skipped");
}

TEST_F(CommandLine, AMalformedCaseFailsUnderItsName) {
  const Result result = Run(Write("bad.json", R"({"cases": [
    {"name": "typo", "operator": "GATHER", "atributes": {}, "tensors": {}},
    {"operator": "GATHER"}]})"));
  EXPECT_EQ(result.exitCode, 1);
  ASSERT_EQ(result.lines.size(), 3u);
  EXPECT_EQ(result.lines[0], "FAIL typo: unknown key \"atributes\" in case");
  EXPECT_EQ(result.lines[1], "FAIL " + (dir_ / "bad.json").string() + "#1: case has no name");
}

TEST_F(CommandLine, BadUsageExitsTwoWithAMessage) {
  const std::string file = Write("one.json", kOneGoodCase);
  const std::vector<std::string> usages = {"", "--backend vulkan " + file, "--backend", "--filter",
                                           "--frobnicate " + file, "--time-limit " + file,
                                           "--time-limit -1 " + file, "--time-limit=soon " + file,
                                           "--time-limit nan " + file};
  for (const std::string& args : usages) {
    const Result result = Run(args);
    EXPECT_EQ(result.exitCode, 2) << args;
    EXPECT_TRUE(result.lines.empty()) << args;
    EXPECT_NE(result.err.find("usage: gs-cases"), std::string::npos) << args;
  }
}

TEST_F(CommandLine, ABadTimeLimitSaysWhatItNeeds) {
  const std::string file = Write("one.json", kOneGoodCase);
  const Result result = Run("--time-limit=-3 " + file);
  EXPECT_EQ(result.exitCode, 2);
  EXPECT_NE(result.err.find("--time-limit needs a number of seconds from 0 to 1000000, not \"-3\""),
            std::string::npos)
      << result.err;
}

TEST_F(CommandLine, HelpPrintsUsage) {
  const Result result = Run("--help");
  EXPECT_EQ(result.exitCode, 0);
  ASSERT_FALSE(result.lines.empty());
  EXPECT_EQ(result.lines[0],
            "usage: gs-cases [--backend cpu|d3d12|all] [--filter TEXT] [--time-limit SECONDS] FILE...");
}

// 600 bytes of case: broadcast inputs (stride 0, one value each) over 2^26 elements and an
// index out of range, expected to fail. The runner's memory must follow the real buffers:
// 4 bytes per input and the output's 256 MiB, not a copy of that output beside it (the
// sentinel it started with is known without one).
TEST_F(CommandLine, BroadcastInputsRunInTheMemoryOfTheRealBuffers) {
  constexpr const char kBroadcast[] = R"({"cases": [
    {"name": "broadcast", "operator": "GATHER_ELEMENTS", "attributes": {"Axis": 1}, "expect": "error",
     "errorContains": "IndicesTensor",
     "tensors": {
       "InputTensor": {"dataType": "FLOAT32", "sizes": [1, 67108864], "strides": [0, 0], "data": [1]},
       "IndicesTensor": {"dataType": "INT32", "sizes": [1, 67108864], "strides": [0, 0], "data": [-67108865]},
       "OutputTensor": {"dataType": "FLOAT32", "sizes": [1, 67108864]}}}
  ]})";
  const long outputKiB = (long{67108864} * 4) >> 10;
  const Result result = Run("--backend cpu " + Write("broadcast.json", kBroadcast));
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.lines, (std::vector<std::string>{"PASS broadcast", "1 passed, 0 failed, 0 skipped"}));
  // The largest child so far: this one (the other tests' files are tiny).
  rusage children = {};
  ASSERT_EQ(getrusage(RUSAGE_CHILDREN, &children), 0);
  EXPECT_GT(children.ru_maxrss, outputKiB);  // it did hold the real output buffer
  EXPECT_LT(children.ru_maxrss, outputKiB + outputKiB / 2) << "KiB at most, the output's buffer being " << outputKiB;
}

}  // namespace
