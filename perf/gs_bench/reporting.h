// What gs-bench and gs-limits report alike: the bare benchmark names and the CPU model.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace gs_bench {

// Google Benchmark appends "/manual_time" (UseManualTime), "/min_time:..." and "/iterations:..."
// to the names; the suite's contract is the bare name, so the reporters see the runs without
// those parts.
class BareNameReporter : public benchmark::BenchmarkReporter {
 public:
  explicit BareNameReporter(std::unique_ptr<benchmark::BenchmarkReporter> inner)
      : inner_(std::move(inner)) {}
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override { inner_->Finalize(); }

 private:
  std::unique_ptr<benchmark::BenchmarkReporter> inner_;
};

// Google Benchmark's reporter for --benchmark_format / --benchmark_out_format: json, csv or
// console (in colour when console_color).
std::unique_ptr<benchmark::BenchmarkReporter> MakeReporter(const std::string& format, bool console_color);

// /proc/cpuinfo's model name, "unknown" without one.
std::string CpuModel();

// Which core design the CPU is, where the model name does not say (a VM's "AMD EPYC" is Zen 3,
// 4 or 5): /proc/cpuinfo's "AuthenticAMD family 25 model 1 stepping 1" on x86, "implementer
// 0x41 part 0xd0c variant 0x3" on ARM64; "" when it has neither.
std::string CpuId();

}  // namespace gs_bench
