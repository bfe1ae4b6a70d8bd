#include "command_line.h"

#include <memory>
#include <ostream>

#include "backend.h"
#include "case_file.h"
#include "runner.h"

namespace gs::cases {
namespace {

constexpr const char kUsage[] =
    "usage: gs-cases [--backend cpu|d3d12|all] [--filter TEXT] FILE...\n"
    "Runs every case of the case files on the backends and compares the output bit for bit.\n"
    "  --backend NAME  cpu (default), d3d12, or all of them\n"
    "  --filter TEXT   only the cases whose name contains TEXT\n"
    "Prints PASS/FAIL/SKIP per case and a summary; exits 0 when nothing failed, 1 when a case\n"
    "failed, 2 on bad usage or an unreadable or malformed file.\n";

struct Options {
  std::string backend = "cpu";
  std::string filter;
  std::vector<std::string> files;
  bool help = false;
};

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
    } else if (arg == "--backend" || arg == "--filter") {
      if (i + 1 == args.size()) return arg + " needs a value";
      (arg == "--backend" ? options->backend : options->filter) = args[++i];
    } else if (arg.rfind("--backend=", 0) == 0) {
      options->backend = arg.substr(10);
    } else if (arg.rfind("--filter=", 0) == 0) {
      options->filter = arg.substr(9);
    } else {
      return "unknown option " + arg;
    }
  }
  if (options->help) return {};
  if (options->backend != "all" && !MakeBackend(options->backend)) {
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

int RunCommandLine(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options options;
  const std::string usageError = ParseOptions(args, &options);
  if (!usageError.empty()) {
    err << "gs-cases: " << usageError << "\n" << kUsage;
    return kExitMalformed;
  }
  if (options.help) {
    out << kUsage;
    return kExitPassed;
  }

  std::vector<std::unique_ptr<Backend>> backends;
  if (options.backend == "all") {
    for (const std::string& name : BackendNames()) backends.push_back(MakeBackend(name));
  } else {
    backends.push_back(MakeBackend(options.backend));
  }

  Report report(out, backends.size() > 1);
  bool brokenFile = false;
  for (const std::string& path : options.files) {
    const CaseFile file = ReadCaseFile(path);
    if (!file.error.empty()) {
      report.AddBrokenFile(path, file.error);
      brokenFile = true;
      continue;
    }
    for (const CaseEntry& entry : file.entries) {
      if (entry.label.find(options.filter) == std::string::npos) continue;
      for (const auto& backend : backends) {
        // A case that cannot be read fails on every backend, available or not.
        const Outcome outcome =
            entry.value ? RunCase(*entry.value, *backend) : Outcome{Verdict::Fail, entry.error};
        report.Add(entry.label, backend->name(), outcome);
      }
    }
  }
  report.Summarise();
  if (brokenFile) return kExitMalformed;
  return report.anyFailed() ? kExitFailed : kExitPassed;
}

}  // namespace gs::cases
