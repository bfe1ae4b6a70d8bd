#include "supervisor.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#if !defined(_WIN32)
#include <csignal>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace gs::cases {
namespace {

using Clock = std::chrono::steady_clock;

Outcome Failed(std::string reason) { return Outcome{Verdict::Fail, std::move(reason)}; }

#if !defined(_WIN32)
// One job's outcome on one line of the pipe: the verdict's digit, a space, the reason.
std::string Encode(const Outcome& outcome) {
  std::string line = std::to_string(static_cast<int>(outcome.verdict)) + ' ' + outcome.reason;
  for (char& ch : line) {
    if (ch == '\n' || ch == '\r') ch = ' ';
  }
  return line + '\n';
}

Outcome Decode(const std::string& line) {
  const int verdict = line.empty() ? -1 : line[0] - '0';
  if (verdict < 0 || verdict > 2 || line.size() < 2) return Failed("garbled report from the case's process");
  return Outcome{static_cast<Verdict>(verdict), line.substr(2)};
}

void WriteAll(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) _exit(3);  // the supervisor is gone: nobody is left to report to
    done += static_cast<size_t>(n);
  }
}

// Lines from the child's pipe, each waited for until a deadline.
class LineReader {
 public:
  enum Result { kLine, kTimeout, kEnd };
  explicit LineReader(int fd) : fd_(fd) {}

  Result Next(Clock::time_point deadline, std::string* line) {
    for (;;) {
      const size_t newline = buffer_.find('\n');
      if (newline != std::string::npos) {
        *line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        return kLine;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return kTimeout;
      pollfd p{fd_, POLLIN, 0};
      const int ready = poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1 << 30)));
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) return kTimeout;
      char chunk[4096];
      const ssize_t n = read(fd_, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return kEnd;
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }

 private:
  int fd_;
  std::string buffer_;
};

std::string HowItEnded(int status) {
  if (WIFSIGNALED(status)) {
    return "the case's process was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  }
  return "the case's process exited with status " + std::to_string(WEXITSTATUS(status)) +
         " before reporting";
}

// Jobs from `first` on in one child process; returns the first job not yet reported.
uint64_t RunInChild(const Supervision& s, uint64_t first) {
  int fds[2];
  if (pipe(fds) != 0) {
    s.report(first, Failed("could not create a pipe for the case's process"));
    return first + 1;
  }
  std::fflush(nullptr);  // nothing buffered here may be written twice by the child
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    s.report(first, Failed("could not start a process for the case"));
    return first + 1;
  }
  if (child == 0) {
    close(fds[0]);
    for (uint64_t i = first; i < s.jobs; ++i) WriteAll(fds[1], Encode(s.run(i)));
    _exit(0);
  }
  close(fds[1]);
  LineReader reader(fds[0]);
  const auto limit = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(s.timeLimitSeconds));
  uint64_t next = first;
  bool reaped = false;
  while (next < s.jobs) {
    std::string line;
    const LineReader::Result result = reader.Next(Clock::now() + limit, &line);
    if (result == LineReader::kLine) {
      s.report(next++, Decode(line));
      continue;
    }
    if (result == LineReader::kTimeout) kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    reaped = true;
    s.report(next++, Failed(result == LineReader::kTimeout ? TimeLimitReason(s.timeLimitSeconds)
                                                           : HowItEnded(status)));
    break;
  }
  close(fds[0]);
  if (!reaped) {
    int status = 0;
    waitpid(child, &status, 0);
  }
  return next;
}
#else
// Without fork: each job on a thread of its own, watched. A job past the limit fails, and the
// jobs after it fail unrun, since the stuck thread cannot be stopped and may hold what they need.
void SuperviseOnThreads(const Supervision& s) {
  const auto limit = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(s.timeLimitSeconds));
  for (uint64_t i = 0; i < s.jobs; ++i) {
    struct Shared {
      std::mutex mutex;
      std::condition_variable done;
      bool finished = false;
      Outcome outcome;
    };
    auto shared = std::make_shared<Shared>();
    std::thread worker([shared, &s, i] {
      Outcome outcome = s.run(i);
      std::lock_guard<std::mutex> lock(shared->mutex);
      shared->outcome = std::move(outcome);
      shared->finished = true;
      shared->done.notify_one();
    });
    std::unique_lock<std::mutex> lock(shared->mutex);
    if (shared->done.wait_for(lock, limit, [&] { return shared->finished; })) {
      lock.unlock();
      worker.join();
      s.report(i, shared->outcome);
      continue;
    }
    lock.unlock();
    worker.detach();
    s.report(i, Failed(TimeLimitReason(s.timeLimitSeconds)));
    for (uint64_t j = i + 1; j < s.jobs; ++j) {
      s.report(j, Failed("not run: an earlier case ran past the time limit and could not be stopped"));
    }
    return;
  }
}
#endif

}  // namespace

std::string TimeLimitReason(double seconds) {
  std::ostringstream text;
  text << "no result within the time limit of " << seconds << " s (--time-limit): the case hangs or is too slow";
  return text.str();
}

void Supervise(const Supervision& s) {
  if (s.timeLimitSeconds <= 0) {
    for (uint64_t i = 0; i < s.jobs; ++i) s.report(i, s.run(i));
    return;
  }
#if !defined(_WIN32)
  for (uint64_t next = 0; next < s.jobs;) next = RunInChild(s, next);
#else
  SuperviseOnThreads(s);
#endif
}

}  // namespace gs::cases
