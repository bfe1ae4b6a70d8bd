// The README's example: compile and execute one GATHER_ELEMENTS on the CPU.
#include <gs/gs.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

int main() {
  // out[i][j] = in[i][idx[i][j]] (Axis 1); a negative index counts from the end.
  const float input[2][3] = {{1, 2, 3}, {4, 5, 6}};
  const int32_t indices[2][2] = {{2, 0}, {-1, 1}};
  float output[2][2] = {};
  const uint32_t inputSizes[] = {2, 3}, indicesSizes[] = {2, 2};
  const gs::TensorDesc in{gs::DataType::Float32, 2, inputSizes, nullptr, sizeof input};
  const gs::TensorDesc idx{gs::DataType::Int32, 2, indicesSizes, nullptr, sizeof indices};
  const gs::TensorDesc out{gs::DataType::Float32, 2, indicesSizes, nullptr, sizeof output};
  const gs::GatherElementsOperatorDesc desc{&in, &idx, &out, /*Axis=*/1};

  gs::CompiledOperator op;  // compile once, execute many times, from any thread
  gs::Status status = gs::CompileOperator({gs::OperatorType::GatherElements, &desc}, &op);
  if (status.ok())
    status = gs::ExecuteOnCpu(op, {{input, sizeof input}, {indices, sizeof indices}, {},
                                   {output, sizeof output}});
  if (!status.ok()) return std::fprintf(stderr, "%s\n", status.message().c_str()), 1;

  const float expected[2][2] = {{3, 1}, {6, 5}};
  std::printf("%g %g %g %g\n", output[0][0], output[0][1], output[1][0], output[1][1]);
  return std::memcmp(output, expected, sizeof output) == 0 ? 0 : 1;
}
