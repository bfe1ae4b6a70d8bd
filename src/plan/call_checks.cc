#include "plan/call_checks.h"

#include <cstdio>
#include <string>

namespace gs::plan {
namespace {

std::string Hex(uint64_t address) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
  return text;
}

Status Invalid(const Plan& plan, const std::string& what) {
  return Status(StatusCode::InvalidArgument, std::string(OperatorTypeName(plan.op)) + ": " + what);
}

// Same sizes (the plan checked) and the same strides wherever a size exceeds 1: every
// element then lives at the same offset in both views.
bool SameView(const TensorView& a, const TensorView& b) {
  for (uint32_t d = 0; d < a.dimensionCount; ++d) {
    if (a.sizes[d] > 1 && a.strides[d] != b.strides[d]) return false;
  }
  return true;
}

// What can be wrong with one present tensor's binding on its own, in the order it is
// reported. Finding it costs a few comparisons; only a problem builds a message.
enum class BindingProblem { None, Null, TooSmall, Misaligned, Wraps, PastResource };

BindingProblem FindProblem(const TensorView& view, BindingSpace space, const BoundTensor& t) {
  const bool host = space == BindingSpace::HostAddresses;
  // A buffer of 0 bytes (an empty tensor's) may be a null pointer or no resource: nothing
  // reads it.
  const bool empty = t.sizeInBytes == 0 && view.totalSizeInBytes == 0;
  if (!empty && (host ? t.offset == 0 : t.resource == nullptr)) return BindingProblem::Null;
  if (t.sizeInBytes < view.totalSizeInBytes) return BindingProblem::TooSmall;
  // Kernels load whole elements; D3D12 views count them.
  if (t.offset % view.elementSize != 0) return BindingProblem::Misaligned;
  const uint64_t last = host ? UINTPTR_MAX : UINT64_MAX;
  // The overlap arithmetic below must not wrap.
  if (last - t.offset < view.totalSizeInBytes) return BindingProblem::Wraps;
  // Overflow-safe: an offset near 2^64 must not wrap around to look inside.
  if (!host && (t.offset > t.resourceSizeInBytes || t.sizeInBytes > t.resourceSizeInBytes - t.offset)) {
    return BindingProblem::PastResource;
  }
  return BindingProblem::None;
}

// The error for a binding FindProblem refused: names the tensor, the value and the rule.
[[gnu::cold]] Status DescribeProblem(const Plan& plan, BindingSpace space, TensorRole role, const BoundTensor& t,
                                     BindingProblem problem) {
  const TensorView& view = plan.tensor(role);
  const std::string name = TensorRoleName(role);
  const bool host = space == BindingSpace::HostAddresses;
  switch (problem) {
    case BindingProblem::Null:
      return Invalid(plan, name + (host ? " is bound to a null pointer" : " has no resource"));
    case BindingProblem::TooSmall:
      return Invalid(plan, name + " is bound to " + std::to_string(t.sizeInBytes) +
                               " bytes but its TotalTensorSizeInBytes is " + std::to_string(view.totalSizeInBytes) +
                               "; the bound buffer must be at least that large");
    case BindingProblem::Misaligned: {
      const std::string size = std::to_string(view.elementSize) + "-byte elements";
      return Invalid(plan, host ? name + " is bound at address " + Hex(t.offset) + ", which is not aligned to its " + size
                                : name + " starts at offset " + std::to_string(t.offset) + ", not a multiple of its " +
                                      size);
    }
    case BindingProblem::Wraps: {
      const std::string bytes = " with " + std::to_string(view.totalSizeInBytes) + " bytes wraps the ";
      return Invalid(plan, host ? name + " at " + Hex(t.offset) + bytes + "address space"
                                : name + " at offset " + std::to_string(t.offset) + bytes + "resource's 64-bit offsets");
    }
    case BindingProblem::PastResource:
      return Invalid(plan, name + " is bound at offset " + std::to_string(t.offset) + " with SizeInBytes " +
                               std::to_string(t.sizeInBytes) + ", past the end of its resource of " +
                               std::to_string(t.resourceSizeInBytes) +
                               " bytes; Offset + SizeInBytes must lie inside the resource");
    case BindingProblem::None:
      break;
  }
  return Status::Ok();
}

Status OverlapError(const Plan& plan, BindingSpace space, TensorRole role, const BoundTensor& input,
                    const BoundTensor& output) {
  const std::string name = TensorRoleName(role);
  if (space == BindingSpace::D3D12Resources) {
    return Invalid(plan, "OutputTensor overlaps " + name +
                             " in the same resource; an output must not overlap an input (a scatter runs in "
                             "place only with OutputTensor at InputTensor's offset with the same view)");
  }
  std::string rule = "an output must not overlap an input";
  if (plan.isScatter && role == TensorRole::Input) {
    rule += " (a scatter runs in place only with OutputTensor bound to the InputTensor buffer at "
            "the same address with the same view)";
  }
  return Invalid(plan, "OutputTensor's buffer [" + Hex(output.offset) + ", +" +
                           std::to_string(plan.tensor(TensorRole::Output).totalSizeInBytes) + ") overlaps " + name +
                           "'s buffer [" + Hex(input.offset) + ", +" +
                           std::to_string(plan.tensor(role).totalSizeInBytes) + "); " + rule);
}

}  // namespace

Status UnknownIndexChecking(const Plan& plan, const char* field) {
  return Invalid(plan, std::string(field) + " is not a known mode");
}

Status CheckBoundTensors(const Plan& plan, BindingSpace space, const BoundTensor (&tensors)[kTensorRoleCount],
                         bool* inPlace) {
  for (uint32_t r = 0; r < kTensorRoleCount; ++r) {
    if (!plan.tensors[r].present) continue;
    const BindingProblem problem = FindProblem(plan.tensors[r], space, tensors[r]);
    if (problem != BindingProblem::None) {
      return DescribeProblem(plan, space, static_cast<TensorRole>(r), tensors[r], problem);
    }
  }
  const BoundTensor& output = tensors[static_cast<uint32_t>(TensorRole::Output)];
  const TensorView& outputView = plan.tensor(TensorRole::Output);
  *inPlace = false;
  for (const TensorRole role : {TensorRole::Input, TensorRole::Indices, TensorRole::Updates}) {
    const TensorView& view = plan.tensor(role);
    const BoundTensor& t = tensors[static_cast<uint32_t>(role)];
    if (!view.present || t.resource != output.resource) continue;
    const bool overlap = t.offset < output.offset + outputView.totalSizeInBytes &&
                         output.offset < t.offset + view.totalSizeInBytes;
    if (!overlap) continue;
    if (plan.isScatter && role == TensorRole::Input && t.offset == output.offset && SameView(view, outputView)) {
      *inPlace = true;
      continue;
    }
    return OverlapError(plan, space, role, t, output);
  }
  return Status::Ok();
}

Status CheckHostBindings(const Plan& plan, const TensorBindings& bindings, HostBuffers* buffers) {
  auto address = [](const void* data) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(data)); };
  const BoundTensor tensors[kTensorRoleCount] = {
      {nullptr, address(bindings.InputTensor.Data), bindings.InputTensor.SizeInBytes},
      {nullptr, address(bindings.IndicesTensor.Data), bindings.IndicesTensor.SizeInBytes},
      {nullptr, address(bindings.UpdatesTensor.Data), bindings.UpdatesTensor.SizeInBytes},
      {nullptr, address(bindings.OutputTensor.Data), bindings.OutputTensor.SizeInBytes},
  };
  bool inPlace = false;
  Status status = CheckBoundTensors(plan, BindingSpace::HostAddresses, tensors, &inPlace);
  if (!status.ok()) return status;
  buffers->input = static_cast<const uint8_t*>(bindings.InputTensor.Data);
  buffers->indices = static_cast<const uint8_t*>(bindings.IndicesTensor.Data);
  buffers->updates = static_cast<const uint8_t*>(bindings.UpdatesTensor.Data);
  buffers->output = static_cast<uint8_t*>(bindings.OutputTensor.Data);
  buffers->inPlace = inPlace;
  return Status::Ok();
}

}  // namespace gs::plan
