#include "reporting.h"

#include <fstream>
#include <map>
#include <utility>

namespace gs_bench {

bool BareNameReporter::ReportContext(const Context& context) {
  inner_->SetOutputStream(&GetOutputStream());
  inner_->SetErrorStream(&GetErrorStream());
  return inner_->ReportContext(context);
}

void BareNameReporter::ReportRuns(const std::vector<Run>& runs) {
  std::vector<Run> bare = runs;
  for (Run& r : bare) {
    r.run_name.time_type.clear();
    r.run_name.min_time.clear();
    r.run_name.iterations.clear();
  }
  inner_->ReportRuns(bare);
}

std::unique_ptr<benchmark::BenchmarkReporter> MakeReporter(const std::string& format, bool console_color) {
  if (format == "json") return std::make_unique<benchmark::JSONReporter>();
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  if (format == "csv") return std::make_unique<benchmark::CSVReporter>();
#pragma GCC diagnostic pop
  return std::make_unique<benchmark::ConsoleReporter>(
      console_color ? benchmark::ConsoleReporter::OO_Color : benchmark::ConsoleReporter::OO_None);
}

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        std::string v = line.substr(colon + 1);
        v.erase(0, v.find_first_not_of(" \t"));
        return v;
      }
    }
  }
  return "unknown";
}

std::string CpuId() {
  std::ifstream in("/proc/cpuinfo");
  std::map<std::string, std::string> fields;
  std::string line;
  while (std::getline(in, line) && !line.empty()) {  // the first processor's block
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon), value = line.substr(colon + 1);
    key.erase(key.find_last_not_of(" \t") + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    fields[key] = value;
  }
  std::string id;
  auto add = [&](const char* key, const char* label) {
    const auto it = fields.find(key);
    if (it == fields.end() || it->second.empty()) return;
    if (!id.empty()) id += ' ';
    id += (label[0] != '\0' ? std::string(label) + " " : std::string()) + it->second;
  };
  if (fields.count("cpu family") != 0) {
    add("vendor_id", "");
    add("cpu family", "family");
    add("model", "model");
    add("stepping", "stepping");
  } else {
    add("CPU implementer", "implementer");
    add("CPU part", "part");
    add("CPU variant", "variant");
  }
  return id;
}

}  // namespace gs_bench
