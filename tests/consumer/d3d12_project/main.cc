// A consumer of gs::d3d12 alone: one GATHER through the D3D12 engine (vkd3d on Linux), its
// bytes compared with the expected ones. Exits non-zero on any failure.
#include <gs/d3d12.h>
#include <gs/operators.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>

// gs/d3d12.h (and gs/cpu.h under it) must not need oneTBB's headers (gs/cpu.h declares
// tbb::task_arena itself): a D3D12-only consumer is then free of them.
#ifdef __TBB_detail__config_H
#error "gs/d3d12.h included oneTBB's headers"
#endif

int main() {
  // Rows of the input: out[i][j] = in[idx[i]][j] (Axis 0); a negative index counts from the end.
  const int32_t input[4][2] = {{10, 11}, {20, 21}, {30, 31}, {40, 41}};
  const int32_t indices[3] = {3, 0, -2};
  int32_t output[3][2] = {};
  const uint32_t inputSizes[] = {4, 2}, indicesSizes[] = {1, 3}, outputSizes[] = {3, 2};
  const gs::TensorDesc in{gs::DataType::Int32, 2, inputSizes, nullptr, sizeof input};
  const gs::TensorDesc idx{gs::DataType::Int32, 2, indicesSizes, nullptr, sizeof indices};
  const gs::TensorDesc out{gs::DataType::Int32, 2, outputSizes, nullptr, sizeof output};
  const gs::GatherOperatorDesc desc{&in, &idx, &out, /*Axis=*/0, /*IndexDimensions=*/1};

  gs::CompiledOperator op;
  gs::Status status = gs::CompileOperator({gs::OperatorType::Gather, &desc}, &op);
  std::unique_ptr<gs::D3D12Engine> engine;
  if (status.ok()) status = gs::D3D12Engine::Create(nullptr, &engine);  // its own device
  if (status.ok())
    status = engine->ExecuteOnHost(op, {{input, sizeof input}, {indices, sizeof indices}, {},
                                        {output, sizeof output}});
  if (!status.ok()) return std::fprintf(stderr, "%s\n", status.message().c_str()), 1;

  const int32_t expected[3][2] = {{40, 41}, {10, 11}, {30, 31}};
  for (const auto& row : output) std::printf("%d %d\n", row[0], row[1]);
  return std::memcmp(output, expected, sizeof output) == 0 ? 0 : 1;
}
