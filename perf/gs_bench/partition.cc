#include "partition.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>

#include "buffers.h"
#include "cpu/row_walk.h"  // internal: the row walks' tiling for a thread count
#include "plan/plan.h"     // internal: the CPU choice the plan recorded

namespace gs_bench {
namespace {

struct Split {
  uint64_t tasks = 1;
  uint64_t unitsPerTask = 0;  // 0 for row tilings (tasks of rows x strips)
};

// The one place that reads the engine's internals: what a call with `threads` threads splits
// into. Row implementations tile with cpu::TileRows; the unit walks run parallel.For(units,
// taskUnits), whose oneTBB range halves until a piece is at most taskUnits: at most the next
// power of two of units / taskUnits pieces (auto_partitioner may stop splitting earlier).
Split SplitOf(const gs::plan::Plan& plan, int threads) {
  using gs::plan::CpuImplementation;
  const auto impl = threads <= 1 ? plan.cpu.oneThread : plan.cpu.manyThreads;
  Split s;
  if (impl == CpuImplementation::GatherElementRows || impl == CpuImplementation::ScatterStrips ||
      impl == CpuImplementation::ScatterLines || impl == CpuImplementation::ScatterElementRows) {
    s.tasks = impl == CpuImplementation::ScatterStrips ? gs::cpu::TileScatterStrips(plan, threads).tasks()
                                                       : gs::cpu::TileRows(plan, threads).tasks();
    return s;
  }
  const uint64_t units = plan.walk.unitCount, grain = std::max<uint64_t>(1, plan.cpu.taskUnits);
  s.unitsPerTask = grain;
  if (threads <= 1 || units <= grain) {
    s.tasks = 1;
    s.unitsPerTask = units;
    return s;
  }
  uint64_t pieces = 1;
  while (units / pieces > grain) pieces *= 2;
  s.tasks = pieces;
  s.unitsPerTask = (units + pieces - 1) / pieces;
  return s;
}

}  // namespace

int PrintPartitions(const std::vector<Case>& cases, const std::vector<int>& threads) {
  int status = 0;
  std::printf("| case [/variant] | implementation | threads | tasks | bytes per task | tasks per thread (min-max) | bytes per thread (min-max, MB) | non-temporal stores |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const Case& c : cases) {
    for (const std::string& v : c.variants) {
      std::unique_ptr<Prepared> p;
      try {
        p = Prepare(c, v);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "gs-bench: %s: %s\n", c.name.c_str(), e.what());
        status = 1;
        continue;
      }
      if (!p->error.empty() || p->op.plan() == nullptr) {
        std::fprintf(stderr, "gs-bench: %s: %s\n", c.name.c_str(), p->error.c_str());
        status = 1;
        continue;
      }
      const gs::plan::Plan& plan = *p->op.plan();
      const double total = static_cast<double>(c.total_bytes.at(v));
      const std::string name = c.variants.size() > 1 || v != "default" ? c.name + "/" + v : c.name;
      // The plan's choice for this machine's cache (cpu_choice.cc, Streams).
      const char* streams = plan.cpu.streamOutput ? (plan.cpu.streamCopy ? "output, copy" : "output")
                            : plan.cpu.streamOutputAfterCopy ? "copy, output after it"
                                                             : (plan.cpu.streamCopy ? "copy" : "none");
      // Strips store the Output only as they unpack; strips and lines copy the Input themselves
      // where they are the whole Output.
      const bool rowsCopy = plan.cpu.streamCopy && !plan.cpu.rows.walkCopiesInput;
      const char* rowStreams = plan.cpu.rows.streamStrips ? (rowsCopy ? "strips, copy" : "strips")
                                                          : (rowsCopy ? "copy" : "none");
      for (int n : threads) {
        const gs::plan::CpuImplementation impl = n <= 1 ? plan.cpu.oneThread : plan.cpu.manyThreads;
        const bool rows = impl == gs::plan::CpuImplementation::ScatterStrips ||
                          impl == gs::plan::CpuImplementation::ScatterLines;
        const Split s = SplitOf(plan, n);
        // A static split: tasks dealt evenly, the first tasks % n threads one more.
        const uint64_t low = s.tasks / n, high = low + (s.tasks % n ? 1 : 0);
        const double per_task = total / static_cast<double>(s.tasks);
        std::printf("| %s | %s | %d | %llu | %.0f KiB | %llu-%llu | %.1f-%.1f | %s |\n", name.c_str(),
                    gs::plan::CpuImplementationName(impl), n,
                    static_cast<unsigned long long>(s.tasks), per_task / 1024,
                    static_cast<unsigned long long>(low), static_cast<unsigned long long>(high),
                    per_task * low / 1e6, per_task * high / 1e6, rows ? rowStreams : streams);
      }
    }
  }
  return status;
}

}  // namespace gs_bench
