// A compiled operator is immutable and shareable: executing one from many threads at once, and
// compiling from many threads at once, must give exactly the reference's bytes. Each call also
// spreads its own work over threads (ThreadCount 0, 1, 2 in turn); under ThreadSanitizer (the
// tsan preset) the engine runs on std::threads that TSan sees (cpu/parallel.h).
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "engine_check.h"
#include "random_desc.h"

namespace gs_property {
namespace {

constexpr int kThreads = 8;

// Starts `kThreads` threads together (a spin barrier, so their work overlaps) and collects the
// problems they report.
template <typename Work>
std::vector<std::string> RunTogether(Work work) {
  std::atomic<int> ready{0};
  std::vector<std::vector<std::string>> problems(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      work(t, &problems[t]);
    });
  }
  for (auto& thread : threads) thread.join();
  std::vector<std::string> all;
  for (auto& p : problems) all.insert(all.end(), p.begin(), p.end());
  return all;
}

// The same desc with other data: fresh input and update bytes (any bytes are valid data).
RandomCase WithOtherData(const RandomCase& base, uint64_t salt) {
  RandomCase c = base;
  uint64_t x = base.seed * 0x9e3779b97f4a7c15ull + salt;
  for (std::vector<uint8_t>* bytes : {&c.input, &c.updates}) {
    for (auto& b : *bytes) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      b = static_cast<uint8_t>(x);
    }
  }
  return c;
}

void ExecuteSharedFromManyThreads(const RandomCase& base, int iterations) {
  gs::CompiledOperator compiled;
  ASSERT_EQ(CompileCase(base, &compiled), "");
  const std::vector<std::string> problems = RunTogether([&](int t, std::vector<std::string>* out) {
    const RandomCase mine = WithOtherData(base, static_cast<uint64_t>(t) + 1);
    const ReferenceResult expected = RunReferenceOn(mine);
    for (int i = 0; i < iterations && out->empty(); ++i) {
      const std::string problem = CheckEngine(mine, expected, compiled,
                                                {(t + i) % 3});
      if (!problem.empty()) out->push_back("thread " + std::to_string(t) + ": " + problem);
    }
  });
  for (const auto& p : problems) ADD_FAILURE() << p;
}

// One compiled operator, 8 threads executing it at once, each on its own buffers and data.
TEST(Concurrency, SharedOperatorEveryOperator) {
  for (uint64_t seed = 0; seed < 12; ++seed) {
    ExecuteSharedFromManyThreads(GenerateCase(CaseKind::Basic, seed * 7), 40);
  }
}

TEST(Concurrency, SharedOperatorScatterReductions) {
  for (uint64_t seed = 0; seed < 4; ++seed) {
    ExecuteSharedFromManyThreads(GenerateCase(CaseKind::Reduction, seed), 40);
  }
}

TEST(Concurrency, SharedOperatorLarge) {
  for (uint64_t seed : {4, 5}) {  // a scatter and a gather of 100k+ elements
    ExecuteSharedFromManyThreads(GenerateCase(CaseKind::Large, seed), 6);
  }
}

TEST(Concurrency, CompilingFromEightThreads) {
  std::vector<RandomCase> cases;
  for (uint64_t seed = 0; seed < 96; ++seed) cases.push_back(GenerateCase(CaseKind::Basic, seed));
  std::vector<ReferenceResult> expected;
  for (const auto& c : cases) expected.push_back(RunReferenceOn(c));
  const std::vector<std::string> problems = RunTogether([&](int t, std::vector<std::string>* out) {
    // Each thread walks all cases from its own starting point: the same descs are compiled
    // by several threads at the same moment, and different ones too.
    for (size_t i = 0; i < cases.size() && out->empty(); ++i) {
      const size_t k = (i + static_cast<size_t>(t) * 12) % cases.size();
      gs::CompiledOperator compiled;
      std::string problem = CompileCase(cases[k], &compiled);
      if (problem.empty()) problem = CheckEngine(cases[k], expected[k], compiled, {1});
      if (!problem.empty()) out->push_back("thread " + std::to_string(t) + ": " + problem);
    }
  });
  for (const auto& p : problems) ADD_FAILURE() << p;
}

}  // namespace
}  // namespace gs_property
