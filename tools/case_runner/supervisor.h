// Runs a list of jobs so that none can stall or end the whole run: each job gets a time limit,
// and a job that overruns it (a hang) or kills its process (a crash) fails by itself while the
// jobs after it still run.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "runner.h"

namespace gs::cases {

// Seconds a job may take before it fails (gs-cases --time-limit); 0 means no limit. Far above
// what any case needs under qemu-aarch64 or the sanitizers, far below what CI can spare.
inline constexpr double kDefaultTimeLimitSeconds = 120;

struct Supervision {
  uint64_t jobs = 0;
  double timeLimitSeconds = 0;
  // Runs job i and returns its outcome. With a limit it runs in a child process (POSIX):
  // nothing it leaves behind reaches the next job's process once one has failed.
  std::function<Outcome(uint64_t)> run;
  // Called in job order, in this process, with every job's outcome.
  std::function<void(uint64_t, const Outcome&)> report;
};

// Returns once every job has been reported. Without a limit the jobs run here, in order.
void Supervise(const Supervision& s);

// The reason a job that ran past the limit fails with.
std::string TimeLimitReason(double seconds);

}  // namespace gs::cases
