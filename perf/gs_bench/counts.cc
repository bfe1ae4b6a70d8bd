#include "counts.h"

#include <cstdio>
#include <memory>
#include <regex>

#include <nlohmann/json.hpp>

#include "buffers.h"
#include "planted.h"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define GS_BENCH_HAS_CALLGRIND 1
#endif

namespace gs_bench {
namespace {

// N calls of one benchmark, counted alone: the warm-up call outside, then the counters zeroed,
// collection on for the calls only, and the counts dumped under the benchmark's name.
std::string CountOne(const std::string& name, const Prepared& p, const std::string& case_name,
                     bool checked, int threads, int calls) {
  const gs::CpuExecuteOptions options = CpuOptions(checked, threads);
  gs::Status st = gs::ExecuteOnCpu(p.op, p.bindings, options);  // warm-up: caches, first touch
  if (!st.ok()) return st.message();
  PlantedSlowdown planted(case_name, name);
#ifdef GS_BENCH_HAS_CALLGRIND
  CALLGRIND_ZERO_STATS;
  CALLGRIND_TOGGLE_COLLECT;
#endif
  for (int i = 0; i < calls && st.ok(); ++i) {
    st = gs::ExecuteOnCpu(p.op, p.bindings, options);
    if (planted.ExtraCall() && st.ok()) st = gs::ExecuteOnCpu(p.op, p.bindings, options);
  }
#ifdef GS_BENCH_HAS_CALLGRIND
  CALLGRIND_TOGGLE_COLLECT;
  CALLGRIND_DUMP_STATS_AT(name.c_str());
#endif
  return st.ok() ? std::string() : st.message();
}

}  // namespace

int CountCalls(const std::vector<Case>& cases, const Options& options, int calls,
               const std::string& filter,
               const std::vector<std::pair<std::string, std::string>>& context) {
#ifndef GS_BENCH_HAS_CALLGRIND
  std::fprintf(stderr, "gs-bench: built without valgrind/callgrind.h: no count mode\n");
  return 1;
#endif
  const std::regex selected(filter.empty() ? "." : filter);
  nlohmann::json doc;
  for (const auto& [key, value] : context) doc["context"][key] = value;
  doc["context"]["calls_per_benchmark"] = calls;
  doc["benchmarks"] = nlohmann::json::array();
  int status = 0;
  for (const Case& c : cases) {
    for (const std::string& v : c.variants) {
      std::unique_ptr<Prepared> prepared;
      for (bool checked : {true, false}) {
        for (int threads : options.threads) {
          const std::string name = BenchmarkName(c, v, "cpu", checked, threads);
          if (!std::regex_search(name, selected)) continue;
          std::string error;
          try {
            if (!prepared) prepared = Prepare(c, v);
            error = prepared->error;
          } catch (const std::exception& e) {
            error = std::string("setup: ") + e.what();
          }
          if (error.empty()) error = CountOne(name, *prepared, c.name, checked, threads, calls);
          nlohmann::json row = {{"name", name}, {"calls", calls}};
          if (!error.empty()) {
            row["error_occurred"] = true;
            row["error_message"] = error;
            status = 1;
          }
          doc["benchmarks"].push_back(row);
        }
      }
    }
  }
  std::printf("%s\n", doc.dump(1).c_str());
  return status;
}

}  // namespace gs_bench
