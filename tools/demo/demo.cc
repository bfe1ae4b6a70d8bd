// gs-demo: compiles and executes two operators on built-in data, prints what goes in and what
// comes out, and shows the error a checked execution gives for a bad index.
// Exits non-zero when anything differs from what the demo expects.
#include <gs/gs.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace {

int failures = 0;

template <typename T>
std::string Format(const std::vector<T>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) s += ", ";
    if constexpr (std::is_floating_point_v<T>) {
      char number[32];
      std::snprintf(number, sizeof number, "%g", static_cast<double>(values[i]));
      s += number;
    } else {
      s += std::to_string(values[i]);
    }
  }
  return s + "]";
}

// A packed tensor over `data`; `sizes` must outlive the CompileOperator call.
template <typename T>
gs::TensorDesc Desc(gs::DataType type, const std::vector<uint32_t>& sizes,
                    const std::vector<T>& data) {
  return {type, static_cast<uint32_t>(sizes.size()), sizes.data(), nullptr,
          data.size() * sizeof(T)};
}

template <typename T>
void Expect(const char* what, const std::vector<T>& got, const std::vector<T>& want) {
  // Compare bytes, as the case runner does.
  const bool same = got.size() == want.size() &&
                    std::memcmp(got.data(), want.data(), got.size() * sizeof(T)) == 0;
  std::printf("  %-9s %s\n", what, Format(got).c_str());
  if (!same) {
    std::printf("  UNEXPECTED: want %s\n", Format(want).c_str());
    ++failures;
  }
}

bool Check(const char* step, const gs::Status& status) {
  if (status.ok()) return true;
  std::printf("  UNEXPECTED: %s failed: %s: %s\n", step, gs::StatusCodeName(status.code()),
              status.message().c_str());
  ++failures;
  return false;
}

// GATHER_ELEMENTS on Axis 0: out[i][j] = in[idx[i][j]][j]; the index -1 is the last row.
void GatherElements() {
  std::printf("GATHER_ELEMENTS, Axis 0: out[i][j] = in[idx[i][j]][j]\n");
  const std::vector<uint32_t> inputSizes = {3, 3}, indicesSizes = {2, 3};
  const std::vector<float> input = {1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f, 8.5f, 9.5f};
  const std::vector<int64_t> indices = {1, 0, 2, -1, 2, 0};
  std::vector<float> output(6);
  std::printf("  input     %s, sizes {3, 3}, FLOAT32\n", Format(input).c_str());
  std::printf("  indices   %s, sizes {2, 3}, INT64\n", Format(indices).c_str());

  const gs::TensorDesc in = Desc(gs::DataType::Float32, inputSizes, input);
  const gs::TensorDesc idx = Desc(gs::DataType::Int64, indicesSizes, indices);
  const gs::TensorDesc out = Desc(gs::DataType::Float32, indicesSizes, output);
  const gs::GatherElementsOperatorDesc desc{&in, &idx, &out, /*Axis=*/0};
  gs::CompiledOperator op;
  if (!Check("compile", gs::CompileOperator({gs::OperatorType::GatherElements, &desc}, &op))) {
    return;
  }
  gs::TensorBindings bindings;
  bindings.InputTensor = {input.data(), in.TotalTensorSizeInBytes};
  bindings.IndicesTensor = {indices.data(), idx.TotalTensorSizeInBytes};
  bindings.OutputTensor = {output.data(), out.TotalTensorSizeInBytes};
  if (!Check("execute", gs::ExecuteOnCpu(op, bindings))) return;
  Expect("output", output, {4.5f, 2.5f, 9.5f, 7.5f, 8.5f, 3.5f});
}

// SCATTER_ND with Reduction ADD: out = in; out[idx[k]] += upd[k]. The index 4 comes twice, so
// both its updates are added. Then the same operator, checked, with an index out of bounds.
void ScatterNdAdd() {
  std::printf("\nSCATTER_ND, Reduction ADD: out = in; out[idx[k]] += upd[k]\n");
  const std::vector<uint32_t> inputSizes = {1, 8}, indicesSizes = {4, 1}, updatesSizes = {1, 4};
  const std::vector<int32_t> input = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<int32_t> indices = {4, 3, 1, 4};
  const std::vector<int32_t> updates = {9, 10, 11, 12};
  std::vector<int32_t> output(8);
  std::printf("  input     %s, sizes {1, 8}, INT32\n", Format(input).c_str());
  std::printf("  indices   %s, sizes {4, 1}, INT32\n", Format(indices).c_str());
  std::printf("  updates   %s, sizes {1, 4}, INT32\n", Format(updates).c_str());

  const gs::TensorDesc in = Desc(gs::DataType::Int32, inputSizes, input);
  const gs::TensorDesc idx = Desc(gs::DataType::Int32, indicesSizes, indices);
  const gs::TensorDesc upd = Desc(gs::DataType::Int32, updatesSizes, updates);
  const gs::TensorDesc out = Desc(gs::DataType::Int32, inputSizes, output);
  gs::ScatterNdOperatorDesc desc;
  desc.InputTensor = &in;
  desc.IndicesTensor = &idx;
  desc.UpdatesTensor = &upd;
  desc.OutputTensor = &out;
  desc.InputDimensionCount = 1;
  desc.IndicesDimensionCount = 2;
  desc.Reduction = gs::Reduction::Add;
  gs::CompiledOperator op;
  if (!Check("compile", gs::CompileOperator({gs::OperatorType::ScatterNd, &desc}, &op))) return;
  gs::TensorBindings bindings;
  bindings.InputTensor = {input.data(), in.TotalTensorSizeInBytes};
  bindings.IndicesTensor = {indices.data(), idx.TotalTensorSizeInBytes};
  bindings.UpdatesTensor = {updates.data(), upd.TotalTensorSizeInBytes};
  bindings.OutputTensor = {output.data(), out.TotalTensorSizeInBytes};
  if (!Check("execute", gs::ExecuteOnCpu(op, bindings))) return;
  Expect("output", output, {1, 13, 3, 14, 26, 6, 7, 8});

  // Checked execution (the default) validates every index before writing anything, so the
  // output keeps what it held. The bindings point at the same vectors, now changed.
  std::printf("\nthe same SCATTER_ND, checked, with an index out of bounds:\n");
  indices[2] = 8;
  const std::vector<int32_t> before(output.size(), -1);
  output = before;
  std::printf("  indices   %s\n", Format(indices).c_str());
  const gs::Status status = gs::ExecuteOnCpu(op, bindings);
  std::printf("  error     %s: %s\n", gs::StatusCodeName(status.code()), status.message().c_str());
  if (status.code() != gs::StatusCode::InvalidArgument) {
    std::printf("  UNEXPECTED: want InvalidArgument\n");
    ++failures;
  }
  Expect("output", output, before);
}

}  // namespace

int main() {
  GatherElements();
  ScatterNdAdd();
  std::printf("\ngs-demo: %s\n", failures ? "UNEXPECTED RESULTS (see above)" : "all as expected");
  return failures ? 1 : 0;
}
