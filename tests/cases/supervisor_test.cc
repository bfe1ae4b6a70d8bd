// The time limit of gs-cases: a job that hangs or crashes fails by itself, named, and the jobs
// after it still run.
#include "supervisor.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>
#include <vector>

namespace gs::cases {
namespace {

struct Reported {
  uint64_t job;
  Outcome outcome;
};

std::vector<Reported> RunJobs(uint64_t jobs, double limit, std::function<Outcome(uint64_t)> run) {
  std::vector<Reported> reported;
  Supervision s;
  s.jobs = jobs;
  s.timeLimitSeconds = limit;
  s.run = std::move(run);
  s.report = [&](uint64_t i, const Outcome& o) { reported.push_back({i, o}); };
  Supervise(s);
  return reported;
}

Outcome Pass() { return Outcome{Verdict::Pass, ""}; }

[[noreturn]] void Hang() {
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

TEST(Supervisor, WithoutALimitEveryJobRunsHereInOrder) {
  std::vector<uint64_t> ran;
  const auto reported = RunJobs(3, 0, [&](uint64_t i) {
    ran.push_back(i);  // visible here only when the job ran in this process
    return i == 1 ? Outcome{Verdict::Fail, "one"} : Pass();
  });
  EXPECT_EQ(ran, (std::vector<uint64_t>{0, 1, 2}));
  ASSERT_EQ(reported.size(), 3u);
  EXPECT_EQ(reported[1].outcome.verdict, Verdict::Fail);
  EXPECT_EQ(reported[1].outcome.reason, "one");
}

TEST(Supervisor, AHangingJobFailsByTheLimitAndTheNextStillRun) {
  const auto start = std::chrono::steady_clock::now();
  const auto reported = RunJobs(4, 0.5, [](uint64_t i) {
    if (i == 1) Hang();
    return i == 2 ? Outcome{Verdict::Skip, "skipped\nacross lines"} : Pass();
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(reported.size(), 4u);
  for (uint64_t i = 0; i < 4; ++i) EXPECT_EQ(reported[i].job, i);
  EXPECT_EQ(reported[0].outcome.verdict, Verdict::Pass);
  EXPECT_EQ(reported[1].outcome.verdict, Verdict::Fail);
  EXPECT_EQ(reported[1].outcome.reason, TimeLimitReason(0.5));
  EXPECT_NE(reported[1].outcome.reason.find("time limit of 0.5 s"), std::string::npos);
#if defined(_WIN32)
  // No fork: the stuck thread cannot be stopped, so what follows is failed unrun.
  EXPECT_EQ(reported[2].outcome.verdict, Verdict::Fail);
  EXPECT_NE(reported[2].outcome.reason.find("not run"), std::string::npos);
#else
  EXPECT_EQ(reported[2].outcome.verdict, Verdict::Skip);
  EXPECT_EQ(reported[2].outcome.reason, "skipped across lines");
  EXPECT_EQ(reported[3].outcome.verdict, Verdict::Pass);
#endif
  EXPECT_LT(seconds, 20);
}

#if !defined(_WIN32)
TEST(Supervisor, ACrashingJobFailsWithItsSignalAndTheNextStillRun) {
  const auto reported = RunJobs(3, 30, [](uint64_t i) {
    if (i == 0) std::abort();
    return Pass();
  });
  ASSERT_EQ(reported.size(), 3u);
  EXPECT_EQ(reported[0].outcome.verdict, Verdict::Fail);
  EXPECT_NE(reported[0].outcome.reason.find("signal " + std::to_string(SIGABRT)), std::string::npos)
      << reported[0].outcome.reason;
  EXPECT_EQ(reported[1].outcome.verdict, Verdict::Pass);
  EXPECT_EQ(reported[2].outcome.verdict, Verdict::Pass);
}
#endif

}  // namespace
}  // namespace gs::cases
