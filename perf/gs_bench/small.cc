#include "small.h"

#include <cstdint>
#include <string>

#include <benchmark/benchmark.h>

#include "gs/gs.h"

namespace gs_bench {
namespace {

struct SmallCase {
  const char* name;
  gs::OperatorType type;
};
constexpr SmallCase kSmallCases[] = {
    {"small/gather_elements/f32/8x8/axis1/i64", gs::OperatorType::GatherElements},
    {"small/gather/f32/8x8/axis0/i64", gs::OperatorType::Gather},
    {"small/gather_nd/f32/8x8/q1/i64", gs::OperatorType::GatherNd},
    {"small/scatter_elements/f32/8x8/axis0/i64/inplace", gs::OperatorType::ScatterElements},
    {"small/scatter_nd/f32/8x8/q1/i64/inplace", gs::OperatorType::ScatterNd},
};

void RunSmall(benchmark::State& state, gs::OperatorType type, bool checked, int threads) {
  uint32_t square[2] = {8, 8}, column[2] = {8, 1}, row[2] = {1, 8};
  float input[64], output[64], updates[64];
  int64_t indices[64];
  for (int i = 0; i < 64; ++i) {
    input[i] = static_cast<float>(i);
    updates[i] = static_cast<float>(-i);
    indices[i] = (i * 5 + 3) % 8;
  }
  const uint64_t bytes = sizeof(input);
  gs::TensorDesc data{gs::DataType::Float32, 2, square, nullptr, bytes};
  gs::TensorDesc square_indices{gs::DataType::Int64, 2, square, nullptr, sizeof(indices)};
  gs::TensorDesc column_indices{gs::DataType::Int64, 2, column, nullptr, 8 * sizeof(int64_t)};
  gs::GatherElementsOperatorDesc gather_elements{&data, &square_indices, &data, 1};
  gs::TensorDesc row_indices{gs::DataType::Int64, 2, row, nullptr, 8 * sizeof(int64_t)};
  gs::GatherOperatorDesc gather{&data, &row_indices, &data, 0, 1};
  uint32_t gather_out_sizes[2] = {8, 8};
  gs::TensorDesc gather_out{gs::DataType::Float32, 2, gather_out_sizes, nullptr, bytes};
  gather.OutputTensor = &gather_out;
  gs::GatherNdOperatorDesc gather_nd{&data, &column_indices, &data, 2, 2};
  gs::ScatterElementsOperatorDesc scatter_elements{&data, &square_indices, &data, &data, 0,
                                                   gs::Reduction::None};
  gs::ScatterNdOperatorDesc scatter_nd{&data, &column_indices, &data, &data, 2, 2, gs::Reduction::None};
  gs::OperatorDesc od;
  od.Type = type;
  bool scatter = false;
  switch (type) {
    case gs::OperatorType::GatherElements: od.Desc = &gather_elements; break;
    case gs::OperatorType::Gather: od.Desc = &gather; break;
    case gs::OperatorType::GatherNd: od.Desc = &gather_nd; break;
    case gs::OperatorType::ScatterElements: od.Desc = &scatter_elements; scatter = true; break;
    default: od.Desc = &scatter_nd; scatter = true; break;
  }
  gs::CompiledOperator op;
  gs::Status st = gs::CompileOperator(od, &op);
  if (!st.ok()) {
    state.SkipWithError(st.message().c_str());
    return;
  }
  gs::TensorBindings b;
  b.InputTensor = {input, bytes};
  b.IndicesTensor = {indices, sizeof(indices)};
  if (scatter) b.UpdatesTensor = {updates, bytes};
  b.OutputTensor = {scatter ? static_cast<void*>(input) : static_cast<void*>(output), bytes};
  gs::CpuExecuteOptions options;
  options.Checking = checked ? gs::IndexChecking::Checked : gs::IndexChecking::Unchecked;
  options.ThreadCount = threads;
  for (auto _ : state) {
    st = gs::ExecuteOnCpu(op, b, options);
    benchmark::DoNotOptimize(st);
    benchmark::ClobberMemory();
  }
  if (!st.ok()) state.SkipWithError(st.message().c_str());
  state.counters["threads"] = benchmark::Counter(threads);
}

}  // namespace

void RegisterSmallBenchmarks(const std::vector<int>& thread_counts, bool short_mode, bool user_min_time) {
  for (const SmallCase& small : kSmallCases) {
    for (bool checked : {true, false}) {
      for (int threads : thread_counts) {
        std::string name = std::string(small.name) + "/cpu/" + (checked ? "checked" : "unchecked") +
                           "/threads:" + std::to_string(threads);
        auto* b = benchmark::RegisterBenchmark(
            name.c_str(), [type = small.type, checked, threads](benchmark::State& st) {
              RunSmall(st, type, checked, threads);
            });
        b->Unit(benchmark::kNanosecond);
        if (!user_min_time) b->MinTime(short_mode ? 0.02 : 0.2);
      }
    }
  }
}

}  // namespace gs_bench
