// The plan compiler: validates a desc against every rule of the spec, then maps the operator
// onto one walk (normalize.h) that both engines execute.
#include "plan/compile.h"

#include <algorithm>
#include <new>
#include <string>
#include <vector>

#include "plan/normalize.h"
#include "plan/operator_args.h"
#include "plan/overlap.h"
#include "plan/tensor_math.h"

namespace gs::plan {
namespace {

bool IsIndexType(DataType type) {
  return type == DataType::Int32 || type == DataType::Int64 || type == DataType::UInt32 ||
         type == DataType::UInt64;
}

// Builds error statuses that always start with the operator's name.
class Rules {
 public:
  explicit Rules(OperatorType op) : op_(op) {}

  Status Fail(const std::string& message) const {
    return Status(StatusCode::InvalidArgument, std::string(OperatorTypeName(op_)) + ": " + message);
  }

 private:
  OperatorType op_;
};

std::string Dims(const TensorView& view) { return FormatDims(view.sizes, view.dimensionCount); }

// Checks one tensor desc on its own and copies it into a TensorView.
Status ReadTensor(const Rules& rules, TensorRole role, const TensorDesc* desc, TensorView* view) {
  const std::string name = TensorRoleName(role);
  if (desc == nullptr) return rules.Fail(name + " is null; the operator needs it");
  if (desc->DimensionCount < 1 || desc->DimensionCount > kMaxRank) {
    return rules.Fail(name + ".DimensionCount is " + std::to_string(desc->DimensionCount) +
                      "; it must be in [1, 8]");
  }
  if (desc->Sizes == nullptr) {
    return rules.Fail(name + ".Sizes is null but DimensionCount is " +
                      std::to_string(desc->DimensionCount));
  }
  const uint32_t elementSize = ElementSizeInBytes(desc->DataType);
  if (elementSize == 0) {
    return rules.Fail(name + ".DataType " + std::to_string(static_cast<uint32_t>(desc->DataType)) +
                      " is not one of the 11 data types of the spec");
  }
  view->present = true;
  view->dataType = desc->DataType;
  view->elementSize = elementSize;
  view->dimensionCount = desc->DimensionCount;
  std::copy(desc->Sizes, desc->Sizes + desc->DimensionCount, view->sizes);
  if (!ElementCount(view->sizes, view->dimensionCount, &view->elementCount)) {
    return rules.Fail(name + ".Sizes " + Dims(*view) + " have more than 2^64 elements");
  }
  ExplicitStrides(*desc, view->strides);
  uint64_t bytes = 0;
  if (!ViewExtentElements(view->sizes, view->strides, view->dimensionCount,
                          &view->extentElements) ||
      !CheckedMultiply(view->extentElements, elementSize, &bytes)) {
    return rules.Fail(name + ".Sizes " + Dims(*view) + " with Strides " +
                      FormatDims(view->strides, view->dimensionCount) +
                      " reach beyond 64-bit byte offsets");
  }
  view->totalSizeInBytes = desc->TotalTensorSizeInBytes;
  if (desc->TotalTensorSizeInBytes < bytes) {
    return rules.Fail(name + ".TotalTensorSizeInBytes is " +
                      std::to_string(desc->TotalTensorSizeInBytes) + " but Sizes " + Dims(*view) +
                      " with Strides " + FormatDims(view->strides, view->dimensionCount) +
                      " reach " + std::to_string(bytes) +
                      " bytes; the buffer must hold the whole view");
  }
  return Status::Ok();
}

Status CheckSameSizes(const Rules& rules, const TensorView& actual, TensorRole actualRole,
                      const uint32_t* expected, const std::string& why) {
  if (!std::equal(expected, expected + actual.dimensionCount, actual.sizes)) {
    return rules.Fail(std::string(TensorRoleName(actualRole)) + ".Sizes is " + Dims(actual) +
                      " but must be " + FormatDims(expected, actual.dimensionCount) + " (" + why +
                      ")");
  }
  return Status::Ok();
}

Status CheckAxis(const Rules& rules, uint32_t axis, uint32_t rank) {
  if (axis >= rank) {
    return rules.Fail("Axis is " + std::to_string(axis) + "; it must be in [0, " + std::to_string(rank) +
                      ") (the DimensionCount)");
  }
  return Status::Ok();
}

// Leading sizes outside the meaningful count must be 1.
Status CheckLeadingOnes(const Rules& rules, const TensorView& view, TensorRole role,
                        uint32_t meaningful, const char* field) {
  const uint32_t leading = view.dimensionCount - meaningful;
  for (uint32_t d = 0; d < leading; ++d) {
    if (view.sizes[d] != 1) {
      return rules.Fail(std::string(TensorRoleName(role)) + ".Sizes is " + Dims(view) + " but with " +
                        field + " " + std::to_string(meaningful) + " its leading " +
                        std::to_string(leading) + " sizes must be 1");
    }
  }
  return Status::Ok();
}

// The walk under construction: one entry per dim of the walked tensor, plus the tuple.
struct WalkBuilder {
  WalkDim dims[kMaxRank];
  uint32_t rank = 0;
  TupleComponent tuple[kMaxRank];
  uint32_t tupleSize = 0;
  uint64_t tupleStride = 0;

  void AddDim(uint64_t size, uint64_t iter, uint64_t data, uint64_t index) {
    dims[rank++] = {size, iter, data, index};
  }
  void AddComponent(uint64_t size, uint64_t stride) { tuple[tupleSize++] = {size, stride}; }
};

// GATHER_ELEMENTS and SCATTER_ELEMENTS: out[.., idx[..], ..] along Axis.
Status CompileElements(const Rules& rules, const OperatorArgs& args, Plan* plan, WalkBuilder* walk) {
  const TensorView& input = plan->tensor(TensorRole::Input);
  const TensorView& indices = plan->tensor(TensorRole::Indices);
  const TensorView& output = plan->tensor(TensorRole::Output);
  const uint32_t rank = input.dimensionCount;
  Status axis = CheckAxis(rules, args.axis, rank);
  if (!axis.ok()) return axis;
  // Smaller indices address the input's leading corner, as in ONNX and PyTorch.
  for (uint32_t d = 0; d < rank; ++d) {
    if (d != args.axis && indices.sizes[d] > input.sizes[d]) {
      return rules.Fail("IndicesTensor.Sizes is " + Dims(indices) + " but InputTensor.Sizes is " +
                        Dims(input) + "; on every dimension but Axis " + std::to_string(args.axis) +
                        " an indices size must be at most the input size (dimension " +
                        std::to_string(d) + ")");
    }
  }
  const TensorView& walked = plan->isScatter ? plan->tensor(TensorRole::Updates) : output;
  const TensorView& indexed = plan->isScatter ? output : input;
  if (plan->isScatter) {
    Status s = CheckSameSizes(rules, walked, TensorRole::Updates, indices.sizes,
                              "UpdatesTensor.Sizes equal IndicesTensor.Sizes");
    if (!s.ok()) return s;
    s = CheckSameSizes(rules, output, TensorRole::Output, input.sizes,
                       "OutputTensor.Sizes equal InputTensor.Sizes");
    if (!s.ok()) return s;
  } else {
    Status s = CheckSameSizes(rules, output, TensorRole::Output, indices.sizes,
                              "OutputTensor.Sizes equal IndicesTensor.Sizes");
    if (!s.ok()) return s;
  }
  for (uint32_t d = 0; d < rank; ++d) {
    walk->AddDim(indices.sizes[d], walked.strides[d], d == args.axis ? 0 : indexed.strides[d],
                 indices.strides[d]);
  }
  walk->AddComponent(indexed.sizes[args.axis], indexed.strides[args.axis]);
  return Status::Ok();
}

// GATHER: out[a.., j.., b..] = in[a.., idx[j..], b..].
Status CompileGather(const Rules& rules, const OperatorArgs& args, Plan* plan, WalkBuilder* walk) {
  const TensorView& input = plan->tensor(TensorRole::Input);
  const TensorView& indices = plan->tensor(TensorRole::Indices);
  const TensorView& output = plan->tensor(TensorRole::Output);
  const uint32_t rank = input.dimensionCount;
  Status axis = CheckAxis(rules, args.axis, rank);
  if (!axis.ok()) return axis;
  if (args.indexDimensions >= rank) {
    return rules.Fail("IndexDimensions is " + std::to_string(args.indexDimensions) +
                      "; it must be in [0, " + std::to_string(rank) + ") (the DimensionCount)");
  }
  Status s = CheckLeadingOnes(rules, indices, TensorRole::Indices, args.indexDimensions,
                              "IndexDimensions");
  if (!s.ok()) return s;

  // Output dims in order: Input's before Axis, the last IndexDimensions of Indices, Input's
  // after Axis. Each remembers where it comes from.
  enum class From { Input, Indices };
  struct Source {
    From from;
    uint32_t dim;
  };
  Source sources[3 * kMaxRank];
  uint32_t count = 0;
  for (uint32_t d = 0; d < args.axis; ++d) sources[count++] = {From::Input, d};
  for (uint32_t d = rank - args.indexDimensions; d < rank; ++d) sources[count++] = {From::Indices, d};
  for (uint32_t d = args.axis + 1; d < rank; ++d) sources[count++] = {From::Input, d};
  // Right-aligned: only Input's leading ones may be cropped to fit.
  uint32_t first = 0;
  while (count - first > rank && first < args.axis && input.sizes[first] == 1) ++first;
  if (count - first > rank) {
    return rules.Fail("the output needs " + std::to_string(count - first) +
                      " dimensions (InputTensor.Sizes " + Dims(input) + " without Axis " +
                      std::to_string(args.axis) + " plus IndexDimensions " +
                      std::to_string(args.indexDimensions) + ") but DimensionCount is " +
                      std::to_string(rank));
  }
  uint32_t expected[kMaxRank];
  const uint32_t padding = rank - (count - first);
  for (uint32_t d = 0; d < rank; ++d) {
    if (d < padding) {
      expected[d] = 1;
      continue;
    }
    const Source& src = sources[first + d - padding];
    expected[d] = src.from == From::Input ? input.sizes[src.dim] : indices.sizes[src.dim];
  }
  s = CheckSameSizes(rules, output, TensorRole::Output, expected,
                     "InputTensor.Sizes before Axis, the last IndexDimensions of "
                     "IndicesTensor.Sizes, InputTensor.Sizes after Axis, right-aligned");
  if (!s.ok()) return s;
  for (uint32_t d = padding; d < rank; ++d) {
    const Source& src = sources[first + d - padding];
    const bool fromInput = src.from == From::Input;
    walk->AddDim(expected[d], output.strides[d], fromInput ? input.strides[src.dim] : 0,
                 fromInput ? 0 : indices.strides[src.dim]);
  }
  walk->AddComponent(input.sizes[args.axis], input.strides[args.axis]);
  return Status::Ok();
}

// GATHER_ND, GATHER_ND1 and SCATTER_ND: the dimension counts, the tuple size and the batch
// sizes.
Status CheckNdCounts(const Rules& rules, const OperatorArgs& args, const Plan& plan) {
  const TensorView& input = plan.tensor(TensorRole::Input);
  const TensorView& indices = plan.tensor(TensorRole::Indices);
  const uint32_t rank = input.dimensionCount;
  const uint32_t inputCount = args.inputDimensionCount;
  const uint32_t indicesCount = args.indicesDimensionCount;
  const uint32_t batch = args.batchDimensionCount;
  if (inputCount < 1 || inputCount > rank) {
    return rules.Fail("InputDimensionCount is " + std::to_string(inputCount) +
                      "; it must be in [1, " + std::to_string(rank) + "] (the DimensionCount)");
  }
  if (indicesCount < 1 || indicesCount > rank) {
    return rules.Fail("IndicesDimensionCount is " + std::to_string(indicesCount) +
                      "; it must be in [1, " + std::to_string(rank) + "] (the DimensionCount)");
  }
  if (batch >= indicesCount) {
    return rules.Fail("BatchDimensionCount is " + std::to_string(batch) +
                      "; it must be less than IndicesDimensionCount " +
                      std::to_string(indicesCount) + " (the last indices dimension is the tuple)");
  }
  Status s = CheckLeadingOnes(rules, input, TensorRole::Input, inputCount, "InputDimensionCount");
  if (!s.ok()) return s;
  s = CheckLeadingOnes(rules, indices, TensorRole::Indices, indicesCount, "IndicesDimensionCount");
  if (!s.ok()) return s;
  const uint32_t tupleSize = indices.sizes[rank - 1];
  if (uint64_t{batch} + tupleSize > inputCount) {
    return rules.Fail("the index tuple size (the last of IndicesTensor.Sizes " + Dims(indices) +
                      ") is " + std::to_string(tupleSize) + " and BatchDimensionCount is " +
                      std::to_string(batch) + "; their sum must be at most InputDimensionCount " +
                      std::to_string(inputCount));
  }
  const uint32_t inputFirst = rank - inputCount;      // first meaningful input dim
  const uint32_t indicesFirst = rank - indicesCount;  // first meaningful indices dim
  for (uint32_t b = 0; b < batch; ++b) {
    if (input.sizes[inputFirst + b] != indices.sizes[indicesFirst + b]) {
      return rules.Fail("batch dimension " + std::to_string(b) + ": IndicesTensor.Sizes " +
                        Dims(indices) + " and InputTensor.Sizes " + Dims(input) +
                        " differ; the first BatchDimensionCount " + std::to_string(batch) +
                        " meaningful sizes must be equal");
    }
  }
  return Status::Ok();
}

// GATHER_ND, GATHER_ND1 and SCATTER_ND: each index tuple selects a sub-block.
Status CompileNd(const Rules& rules, const OperatorArgs& args, Plan* plan, WalkBuilder* walk) {
  Status s = CheckNdCounts(rules, args, *plan);
  if (!s.ok()) return s;
  const TensorView& input = plan->tensor(TensorRole::Input);
  const TensorView& indices = plan->tensor(TensorRole::Indices);
  const TensorView& output = plan->tensor(TensorRole::Output);
  const uint32_t rank = input.dimensionCount;
  const uint32_t inputCount = args.inputDimensionCount;
  const uint32_t indicesCount = args.indicesDimensionCount;
  const uint32_t batch = args.batchDimensionCount;
  const uint32_t tupleSize = indices.sizes[rank - 1];
  const uint32_t inputFirst = rank - inputCount;      // first meaningful input dim
  const uint32_t indicesFirst = rank - indicesCount;  // first meaningful indices dim
  // Walked dims: the batch dims, the indices dims without the tuple, the input's trailing dims.
  const uint32_t indexDims = indicesCount - batch - 1;
  const uint32_t trailingDims = inputCount - batch - tupleSize;
  const uint32_t meaningful = batch + indexDims + trailingDims;
  const TensorRole walkedRole = plan->isScatter ? TensorRole::Updates : TensorRole::Output;
  const char* walkedName = TensorRoleName(walkedRole);
  if (meaningful > rank) {
    return rules.Fail(std::string(walkedName) + " needs " + std::to_string(meaningful) +
                      " dimensions (BatchDimensionCount " + std::to_string(batch) + ", " +
                      std::to_string(indexDims) + " index dimensions, " +
                      std::to_string(trailingDims) + " trailing input dimensions) but DimensionCount is " +
                      std::to_string(rank));
  }
  const TensorView& walked = plan->tensor(walkedRole);
  const TensorView& indexed = plan->isScatter ? output : input;
  uint32_t expected[kMaxRank];
  const uint32_t padding = rank - meaningful;
  for (uint32_t d = 0; d < padding; ++d) expected[d] = 1;
  for (uint32_t d = padding, k = 0; d < rank; ++d, ++k) {
    if (k < batch) {
      expected[d] = input.sizes[inputFirst + k];
    } else if (k < batch + indexDims) {
      expected[d] = indices.sizes[indicesFirst + k];
    } else {
      expected[d] = input.sizes[inputFirst + tupleSize + (k - indexDims)];
    }
  }
  s = CheckSameSizes(rules, walked, walkedRole, expected,
                     "the batch sizes, IndicesTensor.Sizes without the tuple, then the trailing "
                     "InputTensor.Sizes, right-aligned");
  if (!s.ok()) return s;
  if (plan->isScatter) {
    s = CheckSameSizes(rules, output, TensorRole::Output, input.sizes,
                       "OutputTensor.Sizes equal InputTensor.Sizes");
    if (!s.ok()) return s;
  }
  for (uint32_t d = padding, k = 0; d < rank; ++d, ++k) {
    if (k < batch) {
      walk->AddDim(expected[d], walked.strides[d], indexed.strides[inputFirst + k],
                   indices.strides[indicesFirst + k]);
    } else if (k < batch + indexDims) {
      walk->AddDim(expected[d], walked.strides[d], 0, indices.strides[indicesFirst + k]);
    } else {
      walk->AddDim(expected[d], walked.strides[d],
                   indexed.strides[inputFirst + tupleSize + (k - indexDims)], 0);
    }
  }
  for (uint32_t c = 0; c < tupleSize; ++c) {
    walk->AddComponent(indexed.sizes[inputFirst + batch + c], indexed.strides[inputFirst + batch + c]);
  }
  walk->tupleStride = indices.strides[rank - 1];
  return Status::Ok();
}

// Every tensor has Input's DimensionCount, the indices an index type, and the data tensors
// Input's DataType.
Status CheckTensorsAgree(const Rules& rules, const Plan& plan) {
  const TensorView& input = plan.tensor(TensorRole::Input);
  const TensorView& indices = plan.tensor(TensorRole::Indices);
  for (uint32_t r = 1; r < kTensorRoleCount; ++r) {
    const TensorView& view = plan.tensors[r];
    if (view.present && view.dimensionCount != input.dimensionCount) {
      return rules.Fail(std::string(TensorRoleName(static_cast<TensorRole>(r))) +
                        ".DimensionCount is " + std::to_string(view.dimensionCount) +
                        " but InputTensor.DimensionCount is " +
                        std::to_string(input.dimensionCount) +
                        "; all tensors of the operator must have the same DimensionCount");
    }
  }
  if (!IsIndexType(indices.dataType)) {
    return rules.Fail(std::string("IndicesTensor.DataType is ") + DataTypeName(indices.dataType) +
                      "; indices must be INT32, INT64, UINT32 or UINT64");
  }
  for (TensorRole role : {TensorRole::Updates, TensorRole::Output}) {
    const TensorView& view = plan.tensor(role);
    if (view.present && view.dataType != input.dataType) {
      return rules.Fail(std::string(TensorRoleName(role)) + ".DataType is " +
                        DataTypeName(view.dataType) + " but InputTensor.DataType is " +
                        DataTypeName(input.dataType) + "; they must be equal");
    }
  }
  return Status::Ok();
}

// An output view must not put two elements on the same bytes (or be too large to prove it).
Status CheckOutputOverlap(const Rules& rules, const TensorView& output) {
  const Overlap overlap = FindSelfOverlap(output);
  if (overlap == Overlap::Found) {
    return rules.Fail("OutputTensor.Strides " + FormatDims(output.strides, output.dimensionCount) +
                      " with Sizes " + Dims(output) +
                      " make two elements share bytes; an output view must not overlap itself");
  }
  if (overlap == Overlap::Unproven) {
    return rules.Fail("OutputTensor.Strides " + FormatDims(output.strides, output.dimensionCount) +
                      " with Sizes " + Dims(output) + " could not be proven free of overlap within " +
                      std::to_string(kOverlapSearchSteps) +
                      " search steps; an output view must not overlap itself (use strides that "
                      "nest: each larger than the reach of the smaller ones)");
  }
  return Status::Ok();
}

Status CompileChecked(const OperatorDesc& desc, const MachineInfo& machine, Plan* plan) {
  const Rules rules(desc.Type);
  if (static_cast<uint32_t>(desc.Type) > static_cast<uint32_t>(OperatorType::ScatterNd)) {
    return Status(StatusCode::InvalidArgument,
                  "OperatorDesc.Type " + std::to_string(static_cast<uint32_t>(desc.Type)) +
                      " is not one of the six gather and scatter operators");
  }
  if (desc.Desc == nullptr) return rules.Fail("OperatorDesc.Desc is null");
  OperatorArgs args;
  FlattenDesc(desc, &args);

  plan->op = desc.Type;
  plan->isScatter = args.hasUpdates;
  if (static_cast<uint32_t>(args.reduction) > static_cast<uint32_t>(Reduction::Max)) {
    return rules.Fail("Reduction is " + std::to_string(static_cast<uint32_t>(args.reduction)) +
                      "; it must be NONE, ADD, MULTIPLY, MIN or MAX");
  }
  plan->reduction = args.reduction;

  for (uint32_t r = 0; r < kTensorRoleCount; ++r) {
    if (r == static_cast<uint32_t>(TensorRole::Updates) && !args.hasUpdates) continue;
    Status s = ReadTensor(rules, static_cast<TensorRole>(r), args.tensors[r], &plan->tensors[r]);
    if (!s.ok()) return s;
  }
  const TensorView& input = plan->tensor(TensorRole::Input);
  const TensorView& indices = plan->tensor(TensorRole::Indices);
  const TensorView& output = plan->tensor(TensorRole::Output);

  Status s = CheckTensorsAgree(rules, *plan);
  if (!s.ok()) return s;
  plan->dataType = input.dataType;
  plan->elementSize = input.elementSize;
  plan->indexType = indices.dataType;
  plan->indexSize = indices.elementSize;
  plan->indexSigned = indices.dataType == DataType::Int32 || indices.dataType == DataType::Int64;

  WalkBuilder walk;
  switch (desc.Type) {
    case OperatorType::GatherElements:
    case OperatorType::ScatterElements: s = CompileElements(rules, args, plan, &walk); break;
    case OperatorType::Gather: s = CompileGather(rules, args, plan, &walk); break;
    case OperatorType::GatherNd:
    case OperatorType::GatherNd1:
    case OperatorType::ScatterNd: s = CompileNd(rules, args, plan, &walk); break;
  }
  if (!s.ok()) return s;

  s = CheckOutputOverlap(rules, output);
  if (!s.ok()) return s;

  plan->walk = NormalizeWalk(walk.dims, walk.rank, walk.tuple, walk.tupleSize, walk.tupleStride);
  if (plan->isScatter) plan->copy = NormalizeCopy(input, output);
  plan->validation = NormalizeValidation(indices, walk.tuple, walk.tupleSize);
  plan->cpu = ChooseCpuImplementation(*plan, machine);
  return Status::Ok();
}

}  // namespace

Status CompilePlan(const OperatorDesc& desc, const MachineInfo& machine, Plan* plan) {
  try {
    *plan = Plan();
    return CompileChecked(desc, machine, plan);
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::OutOfMemory,
                  std::string(OperatorTypeName(desc.Type)) + ": out of memory while compiling");
  }
}

}  // namespace gs::plan
