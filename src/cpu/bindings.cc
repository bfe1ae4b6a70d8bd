#include "cpu/bindings.h"

#include <cstdio>
#include <string>

namespace gs::cpu {
namespace {

using plan::TensorRole;

struct Binding {
  TensorRole role;
  uintptr_t address;
  uint64_t size;
};

std::string Hex(uintptr_t address) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
  return text;
}

// Same sizes (the plan checked) and the same strides wherever a size exceeds 1: every
// element then lives at the same offset in both views.
bool SameView(const plan::TensorView& a, const plan::TensorView& b) {
  for (uint32_t d = 0; d < a.dimensionCount; ++d) {
    if (a.sizes[d] > 1 && a.strides[d] != b.strides[d]) return false;
  }
  return true;
}

}  // namespace

Status CheckBindings(const plan::Plan& plan, const TensorBindings& bindings, BoundBuffers* bound) {
  // Names are made into strings only for an error message: a small call must not allocate.
  const char* op = OperatorTypeName(plan.op);
  const Binding all[] = {
      {TensorRole::Input, reinterpret_cast<uintptr_t>(bindings.InputTensor.Data),
       bindings.InputTensor.SizeInBytes},
      {TensorRole::Indices, reinterpret_cast<uintptr_t>(bindings.IndicesTensor.Data),
       bindings.IndicesTensor.SizeInBytes},
      {TensorRole::Updates, reinterpret_cast<uintptr_t>(bindings.UpdatesTensor.Data),
       bindings.UpdatesTensor.SizeInBytes},
      {TensorRole::Output, reinterpret_cast<uintptr_t>(bindings.OutputTensor.Data),
       bindings.OutputTensor.SizeInBytes},
  };
  for (const Binding& b : all) {
    const plan::TensorView& view = plan.tensor(b.role);
    const char* name = TensorRoleName(b.role);
    if (!view.present) continue;
    // A buffer of 0 bytes (an empty tensor's) may be a null pointer; nothing reads it.
    if (b.address == 0 && !(b.size == 0 && view.totalSizeInBytes == 0)) {
      return Status(StatusCode::InvalidArgument, std::string(op) + ": " + name + " is bound to a null pointer");
    }
    if (b.size < view.totalSizeInBytes) {
      return Status(StatusCode::InvalidArgument,
                    std::string(op) + ": " + name + " is bound to " + std::to_string(b.size) +
                        " bytes but its TotalTensorSizeInBytes is " +
                        std::to_string(view.totalSizeInBytes) +
                        "; the bound buffer must be at least that large");
    }
    const uint32_t elementSize = ElementSizeInBytes(view.dataType);
    if (b.address % elementSize != 0) {
      return Status(StatusCode::InvalidArgument,
                    std::string(op) + ": " + name + " is bound at address " + Hex(b.address) +
                        ", which is not aligned to its " + std::to_string(elementSize) +
                        "-byte elements");
    }
    if (UINTPTR_MAX - b.address < view.totalSizeInBytes) {
      return Status(StatusCode::InvalidArgument,
                    std::string(op) + ": " + name + " at " + Hex(b.address) + " with " +
                        std::to_string(view.totalSizeInBytes) + " bytes wraps the address space");
    }
  }

  const Binding& output = all[3];
  const plan::TensorView& outputView = plan.tensor(TensorRole::Output);
  bool inPlace = false;
  for (int r = 0; r < 3; ++r) {
    const Binding& b = all[r];
    const plan::TensorView& view = plan.tensor(b.role);
    if (!view.present) continue;
    const bool overlap = b.address < output.address + outputView.totalSizeInBytes &&
                         output.address < b.address + view.totalSizeInBytes;
    if (!overlap) continue;
    if (plan.isScatter && b.role == TensorRole::Input && b.address == output.address &&
        SameView(view, outputView)) {
      inPlace = true;
      continue;
    }
    std::string rule = "an output must not overlap an input";
    if (plan.isScatter && b.role == TensorRole::Input) {
      rule += " (a scatter runs in place only with OutputTensor bound to the InputTensor buffer at "
              "the same address with the same view)";
    }
    return Status(StatusCode::InvalidArgument,
                  std::string(op) + ": OutputTensor's buffer [" + Hex(output.address) + ", +" +
                      std::to_string(outputView.totalSizeInBytes) + ") overlaps " +
                      TensorRoleName(b.role) + "'s buffer [" + Hex(b.address) + ", +" +
                      std::to_string(view.totalSizeInBytes) + "); " + rule);
  }
  bound->input = reinterpret_cast<const uint8_t*>(all[0].address);
  bound->indices = reinterpret_cast<const uint8_t*>(all[1].address);
  bound->updates = reinterpret_cast<const uint8_t*>(all[2].address);
  bound->output = reinterpret_cast<uint8_t*>(output.address);
  bound->inPlace = inPlace;
  return Status::Ok();
}

}  // namespace gs::cpu
