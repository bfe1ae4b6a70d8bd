#include "command_line.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <sstream>

#include "backend.h"
#include "case_file.h"
#include "runner.h"
#include "supervisor.h"

namespace gs::cases {
namespace {

constexpr const char kUsage[] =
    "usage: gs-cases [--backend cpu|d3d12|all] [--filter TEXT] [--time-limit SECONDS] FILE...\n"
    "Runs every case of the case files on the backends and compares the output bit for bit.\n"
    "  --backend NAME        cpu (default), d3d12, or all of them\n"
    "  --filter TEXT         only the cases whose name contains TEXT\n"
    "  --time-limit SECONDS  a case that takes longer on a backend fails, named, and the rest\n"
    "                        still run (default 120; 0: no limit, every case in this process)\n"
    "Prints PASS/FAIL/SKIP per case and a summary; exits 0 when nothing failed, 1 when a case\n"
    "failed, 2 on bad usage or an unreadable or malformed file.\n";

struct Options {
  std::string backend = "cpu";
  std::string filter;
  double timeLimitSeconds = 0;
  std::vector<std::string> files;
  bool help = false;
};

// A number of seconds, at least 0 (and finite).
bool ParseSeconds(const std::string& text, double* seconds) {
  std::istringstream in(text);
  double value = 0;
  if (!(in >> value) || !in.eof() || !(value >= 0) || value > 1e6) return false;
  *seconds = value;
  return true;
}

std::string BadSeconds(const std::string& value) {
  return "--time-limit needs a number of seconds from 0 to 1000000, not \"" + value + "\"";
}

// Empty on success, else what is wrong with the command line.
std::string ParseOptions(const std::vector<std::string>& args, Options* options) {
  bool optionsEnded = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (optionsEnded || arg.empty() || arg[0] != '-' || arg == "-") {
      options->files.push_back(arg);
      continue;
    }
    if (arg == "--") {
      optionsEnded = true;
    } else if (arg == "--help" || arg == "-h") {
      options->help = true;
    } else if (arg == "--backend" || arg == "--filter" || arg == "--time-limit") {
      if (i + 1 == args.size()) return arg + " needs a value";
      const std::string& value = args[++i];
      if (arg == "--time-limit") {
        if (!ParseSeconds(value, &options->timeLimitSeconds)) return BadSeconds(value);
      } else {
        (arg == "--backend" ? options->backend : options->filter) = value;
      }
    } else if (arg.rfind("--backend=", 0) == 0) {
      options->backend = arg.substr(10);
    } else if (arg.rfind("--filter=", 0) == 0) {
      options->filter = arg.substr(9);
    } else if (arg.rfind("--time-limit=", 0) == 0) {
      if (!ParseSeconds(arg.substr(13), &options->timeLimitSeconds)) return BadSeconds(arg.substr(13));
    } else {
      return "unknown option " + arg;
    }
  }
  if (options->help) return {};
  const std::vector<std::string>& names = BackendNames();
  if (options->backend != "all" && std::find(names.begin(), names.end(), options->backend) == names.end()) {
    return "unknown backend \"" + options->backend + "\" (cpu, d3d12 or all)";
  }
  if (options->files.empty()) return "no case files given";
  return {};
}

// One report line per case and backend; reasons are kept to one line.
class Report {
 public:
  Report(std::ostream& out, bool nameBackends) : out_(out), nameBackends_(nameBackends) {}

  void Add(const std::string& name, const std::string& backend, const Outcome& outcome) {
    static const char* const kWords[] = {"PASS", "FAIL", "SKIP"};
    out_ << kWords[static_cast<int>(outcome.verdict)] << ' ' << name;
    if (nameBackends_) out_ << " [" << backend << ']';
    if (!outcome.reason.empty()) out_ << ": " << OneLine(outcome.reason);
    out_ << '\n';
    ++counts_[static_cast<int>(outcome.verdict)];
  }

  // A file that yields no cases at all.
  void AddBrokenFile(const std::string& path, const std::string& reason) {
    out_ << "FAIL " << path << ": " << OneLine(reason) << '\n';
    ++counts_[static_cast<int>(Verdict::Fail)];
  }

  void Summarise() {
    out_ << counts_[0] << " passed, " << counts_[1] << " failed, " << counts_[2] << " skipped"
         << std::endl;
  }

  bool anyFailed() const { return counts_[static_cast<int>(Verdict::Fail)] != 0; }

 private:
  static std::string OneLine(std::string text) {
    for (char& ch : text) {
      if (ch == '\n' || ch == '\r') ch = ' ';
    }
    return text;
  }

  std::ostream& out_;
  bool nameBackends_;
  uint64_t counts_[3] = {};
};

}  // namespace

int RunCommandLine(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                   double defaultTimeLimitSeconds) {
  Options options;
  options.timeLimitSeconds = defaultTimeLimitSeconds;
  const std::string usageError = ParseOptions(args, &options);
  if (!usageError.empty()) {
    err << "gs-cases: " << usageError << "\n" << kUsage;
    return kExitMalformed;
  }
  if (options.help) {
    out << kUsage;
    return kExitPassed;
  }

  const std::vector<std::string> backendNames =
      options.backend == "all" ? BackendNames() : std::vector<std::string>{options.backend};

  // Every (case, backend) pair is a job, and so is each file that yields no cases, in the
  // order of the report.
  struct Job {
    std::string path;
    const CaseFile* file = nullptr;
    const CaseEntry* entry = nullptr;  // nullptr: the file is broken
    size_t backend = 0;
  };
  std::vector<std::unique_ptr<CaseFile>> files;
  std::vector<Job> jobs;
  for (const std::string& path : options.files) {
    files.push_back(std::make_unique<CaseFile>(ReadCaseFile(path)));
    const CaseFile& file = *files.back();
    if (!file.error.empty()) {
      jobs.push_back(Job{path, &file});
      continue;
    }
    for (const CaseEntry& entry : file.entries) {
      if (entry.label.find(options.filter) == std::string::npos) continue;
      for (size_t b = 0; b < backendNames.size(); ++b) jobs.push_back(Job{path, &file, &entry, b});
    }
  }

  // Backends are made by the process that runs the cases (a child, under a time limit), so
  // that a GPU device is never carried across a fork.
  std::vector<std::unique_ptr<Backend>> backends(backendNames.size());
  Report report(out, backendNames.size() > 1);
  bool brokenFile = false;
  Supervision supervision;
  supervision.jobs = jobs.size();
  supervision.timeLimitSeconds = options.timeLimitSeconds;
  supervision.run = [&](uint64_t i) {
    const Job& job = jobs[i];
    if (job.entry == nullptr) return Outcome{Verdict::Fail, job.file->error};
    // A case that cannot be read fails on every backend, available or not.
    if (!job.entry->value) return Outcome{Verdict::Fail, job.entry->error};
    auto& backend = backends[job.backend];
    if (!backend) backend = MakeBackend(backendNames[job.backend]);
    return RunCase(*job.entry->value, *backend);
  };
  supervision.report = [&](uint64_t i, const Outcome& outcome) {
    const Job& job = jobs[i];
    if (job.entry == nullptr) {
      report.AddBrokenFile(job.path, job.file->error);
      brokenFile = true;
    } else {
      report.Add(job.entry->label, backendNames[job.backend], outcome);
    }
  };
  Supervise(supervision);
  report.Summarise();
  if (brokenFile) return kExitMalformed;
  return report.anyFailed() ? kExitFailed : kExitPassed;
}

}  // namespace gs::cases
