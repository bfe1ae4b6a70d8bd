// gs-bench: runs the fixed perf suite (shared/perf/suite.json) on gs's CPU engine with
// Google Benchmark. One benchmark per case, variant, checking mode and thread count:
//   <case name>[/<variant>]/cpu/<checked|unchecked>/threads:<n>
// Counters: bytes_per_second (the suite's effective bytes), GB_per_s, threads and copy_ratio
// (gs's bytes/s over the fastest copy's of the same bytes and threads: copy.h, perf/README.md).
// suite.h reads the suite, buffers.h prepares a case, register.h registers the benchmarks.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "cpu/kernel_set.h"  // internal: which kernel set the engine chose, for the context
#include "cpu/machine.h"  // internal: the cache size the plan streams above, for the context
#include "copy.h"
#include "counts.h"
#include "partition.h"
#include "reporting.h"
#include "register.h"
#include "suite.h"

#ifndef GS_BENCH_DEFAULT_SUITE
#define GS_BENCH_DEFAULT_SUITE "shared/perf/suite.json"
#endif
#ifndef GS_VERSION_STRING
#define GS_VERSION_STRING "unknown"
#endif
#include "gs_bench_commit.h"  // GS_GIT_COMMIT, written at build time (perf/git_commit.cmake)

namespace {

using gs_bench::BareNameReporter;
using gs_bench::CpuModel;
using gs_bench::MakeReporter;
using gs_bench::Options;

// The transparent huge page policy ("[madvise]" etc.): large buffers ask for huge pages.
std::string HugePageMode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(in, line);
  return line.empty() ? "unknown" : line;
}

// "1,2,4,8,16" -> {1, 2, 4, 8, 16}; false on anything else (empty items, 0, signs, junk).
bool ParseThreadList(const std::string& text, std::vector<int>* threads) {
  std::vector<int> parsed;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find(',', begin);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(begin, end - begin);
    if (item.empty() || item.size() > 4 || item.find_first_not_of("0123456789") != std::string::npos) {
      return false;
    }
    const int n = std::stoi(item);
    if (n < 1 || n > 1024) return false;
    parsed.push_back(n);
    begin = end + 1;
  }
  *threads = std::move(parsed);
  return true;
}

void PrintHelp() {
  std::printf(
      "gs-bench: gs's CPU engine and D3D12 path on the fixed perf suite (Google Benchmark).\n"
      "\n"
      "gs-bench flags (read before Google Benchmark's own):\n"
      "  --suite=PATH   suite file (default: env GS_BENCH_SUITE, else %s)\n"
      "  --short        short run: a small minimum time per benchmark (the CPU rows of the\n"
      "                 whole suite in well under a minute on 2 cores); numbers are noisier\n"
      "  --backend=B    cpu, d3d12 or all (default): d3d12 rows exist when gs::d3d12 is built\n"
      "                 and a device is there (lavapipe, a software GPU, takes seconds a row)\n"
      "  --threads=N,.. the CPU rows' thread counts (default 1,2), e.g. 1,2,4,8,16; the copy\n"
      "                 baseline of each row uses the same count\n"
      "  --partition    print how each case's plan splits a call into tasks at the\n"
      "                 --threads counts (no timing; perf/README.md)\n"
      "  --valgrind-calls=N  count mode, under valgrind --tool=callgrind: N calls per CPU\n"
      "                 benchmark between client requests, no timing (perf/dashboard/gs_counts.py)\n"
      "  --help         this text, then Google Benchmark's help\n"
      "\n"
      "Benchmarks: <case>[/<variant>]/cpu/<checked|unchecked>/threads:<n>\n"
      "            <case>[/<variant>]/d3d12/<checked|unchecked>/threads:0 (GPU time, timestamps)\n"
      "Counters: bytes_per_second (suite effective bytes), GB_per_s, copy_ratio (gs bytes/s\n"
      "  over a copy of the same bytes: on the CPU the fastest of memcpy, non-temporal and\n"
      "  vector stores, and for a gather from a smaller Input its source reread (cached,\n"
      "  cached_vector), each with the same threads; memcpy_ratio over memcpy alone; on the\n"
      "  GPU the fastest of CopyBufferRegion and a 16-byte-word copy kernel, from a smaller\n"
      "  Input's source reread too), threads; d3d12 rows also copy_ratio_region,\n"
      "  copy_ratio_kernel and copy_ratio_cached (over each copy alone).\n"
      "JSON: --benchmark_format=json or --benchmark_out=FILE --benchmark_out_format=json\n"
      "A --benchmark_min_time given on the command line overrides the built-in min times.\n"
      "\n",
      GS_BENCH_DEFAULT_SUITE);
}

// The command line: gs-bench's flags into options; Google Benchmark's kept in args.
struct CommandLine {
  std::string suite_path = GS_BENCH_DEFAULT_SUITE;
  Options options;
  std::vector<char*> args;  // for benchmark::Initialize
  bool help = false;
  std::string format = "console", out_format = "json", out_file;
  std::string filter;    // --benchmark_filter, read by count mode too
  bool partition = false;  // --partition: print the plans' task splits (partition.h)
  int valgrind_calls = 0;  // --valgrind-calls: count mode (counts.h)
  bool color = isatty(STDOUT_FILENO) != 0;
};

// Returns false (having said why) on a bad gs-bench flag.
bool ParseGsBenchFlag(const std::string& a, CommandLine* cl) {
  if (a.rfind("--suite=", 0) == 0) {
    cl->suite_path = a.substr(8);
  } else if (a == "--short") {
    cl->options.short_mode = true;
  } else if (a.rfind("--backend=", 0) == 0) {
    const std::string b = a.substr(10);
    if (b != "cpu" && b != "d3d12" && b != "all") {
      std::fprintf(stderr, "gs-bench: --backend must be cpu, d3d12 or all, not %s\n", b.c_str());
      return false;
    }
    cl->options.cpu = b != "d3d12";
    cl->options.d3d12 = b != "cpu";
  } else if (a == "--partition") {
    cl->partition = true;
  } else if (a.rfind("--valgrind-calls=", 0) == 0) {
    cl->valgrind_calls = std::atoi(a.c_str() + 17);
    if (cl->valgrind_calls < 1 || cl->valgrind_calls > 1000) {
      std::fprintf(stderr, "gs-bench: --valgrind-calls wants 1 to 1000 calls, not %s\n", a.c_str() + 17);
      return false;
    }
  } else if (a.rfind("--threads=", 0) == 0) {
    if (!ParseThreadList(a.substr(10), &cl->options.threads)) {
      std::fprintf(stderr, "gs-bench: --threads wants thread counts from 1 to 1024 separated by commas (1,2,4), not %s\n",
                   a.substr(10).c_str());
      return false;
    }
  }
  return true;
}

bool IsGsBenchFlag(const std::string& a) {
  return a.rfind("--suite=", 0) == 0 || a == "--short" || a.rfind("--backend=", 0) == 0 ||
         a.rfind("--threads=", 0) == 0 || a.rfind("--valgrind-calls=", 0) == 0 || a == "--partition";
}

// Google Benchmark's flags that gs-bench reads too (formats, output file, min time).
void NoteBenchmarkFlag(const std::string& a, CommandLine* cl) {
  if (a == "--help" || a == "-h") cl->help = true;
  if (a.rfind("--benchmark_min_time", 0) == 0) cl->options.user_min_time = true;
  if (a.rfind("--benchmark_format=", 0) == 0) cl->format = a.substr(19);
  if (a.rfind("--benchmark_out_format=", 0) == 0) cl->out_format = a.substr(23);
  if (a.rfind("--benchmark_out=", 0) == 0) cl->out_file = a.substr(16);
  if (a.rfind("--benchmark_filter=", 0) == 0) cl->filter = a.substr(19);
  if (a == "--benchmark_color=false" || a == "--benchmark_color=no") cl->color = false;
}

bool ParseCommandLine(int argc, char** argv, CommandLine* cl) {
  if (const char* env = std::getenv("GS_BENCH_SUITE"); env != nullptr && *env != '\0') {
    cl->suite_path = env;
  }
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (i > 0 && IsGsBenchFlag(a)) {
      if (!ParseGsBenchFlag(a, cl)) return false;
    } else {
      NoteBenchmarkFlag(a, cl);
      cl->args.push_back(argv[i]);
    }
  }
  return true;
}

// The machine and build, in the JSON's context (the dashboard's series key on the machine's).
std::vector<std::pair<std::string, std::string>> Context(const CommandLine& cl) {
  return {{"cpu_model", CpuModel()},
          {"cpu_id", gs_bench::CpuId()},
          {"cores", std::to_string(std::thread::hardware_concurrency())},
          {"gs_version", GS_VERSION_STRING},
          {"gs_git_commit", GS_GIT_COMMIT},
          {"kernel_set", gs::cpu::KernelSetName(gs::cpu::ActiveKernelSet())},
          {"avx2_word_gathers", gs::cpu::ThisMachine().avx2WordGathers ? "yes" : "no"},
          {"llc_bytes", std::to_string(gs::cpu::ThisMachine().llcBytes)},
          {"huge_pages", HugePageMode()},
          {"suite", cl.suite_path},
          {"gs_bench_mode", cl.valgrind_calls > 0 ? "valgrind"
                            : cl.options.short_mode ? "short" : "full"}};
}

}  // namespace

int main(int argc, char** argv) {
  CommandLine cl;
  if (!ParseCommandLine(argc, argv, &cl)) return 1;
  if (cl.help) PrintHelp();
  int bargc = static_cast<int>(cl.args.size());
  cl.args.push_back(nullptr);
  benchmark::Initialize(&bargc, cl.args.data());
  if (benchmark::ReportUnrecognizedArguments(bargc, cl.args.data())) return 1;

  std::vector<gs_bench::Case> cases;
  try {
    cases = gs_bench::LoadSuite(cl.suite_path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gs-bench: %s\n", e.what());
    return 1;
  }
  if (cl.partition) return gs_bench::PrintPartitions(cases, cl.options.threads);
  if (cl.valgrind_calls > 0) {
    return gs_bench::CountCalls(cases, cl.options, cl.valgrind_calls, cl.filter, Context(cl));
  }
  for (const auto& [key, value] : Context(cl)) benchmark::AddCustomContext(key, value);
  benchmark::AddCustomContext("copy_timing", gs_bench::kCopyTiming);
  gs_bench::RegisterBenchmarks(cases, cl.options);

  BareNameReporter display(MakeReporter(cl.format, cl.color));
  if (cl.out_file.empty()) {
    benchmark::RunSpecifiedBenchmarks(&display);
  } else {
    BareNameReporter file(MakeReporter(cl.out_format, false));
    benchmark::RunSpecifiedBenchmarks(&display, &file);
  }
  benchmark::Shutdown();
  gs_bench::ReleasePrepared();
  return 0;
}
