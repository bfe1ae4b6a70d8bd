// What every execute call checks before it touches memory, on both engines: the checking
// mode, and the caller's bindings against the plan (present, large enough, aligned, not
// wrapping, and no output overlapping an input except a scatter in place). Each engine only
// turns its own kind of binding into BoundTensor.
#pragma once

#include <cstdint>

#include "gs/cpu.h"  // TensorBindings, IndexChecking
#include "gs/status.h"
#include "plan/plan.h"

namespace gs::plan {

// Checked or Unchecked; any other value is the caller's error, naming `field` (the option as
// the caller's API spells it).
Status UnknownIndexChecking(const Plan& plan, const char* field);
inline Status CheckIndexChecking(const Plan& plan, IndexChecking checking, const char* field) {
  if (checking == IndexChecking::Checked || checking == IndexChecking::Unchecked) return Status::Ok();
  return UnknownIndexChecking(plan, field);
}

// Where the bindings of an engine live, which is also how its errors name a place.
enum class BindingSpace {
  HostAddresses,   // host pointers: one address space, places are addresses
  D3D12Resources,  // D3D12 buffers: places are byte offsets within a resource
};

// One bound tensor: the memory it lives in (the D3D12 resource; nullptr for host pointers, which
// share one address space), where in it the tensor starts, and the bytes the caller bound.
struct BoundTensor {
  const void* resource = nullptr;
  uint64_t offset = 0;  // host: the address
  uint64_t sizeInBytes = 0;
  // D3D12: the resource's size (its desc's Width); the binding must lie inside it. Host
  // pointers carry no size: the caller's SizeInBytes is all there is to check.
  uint64_t resourceSizeInBytes = UINT64_MAX;
};

// `tensors` by TensorRole. *inPlace: a scatter whose Output is its own Input view. Allocates
// only for an error message (a small call must not allocate).
Status CheckBoundTensors(const Plan& plan, BindingSpace space, const BoundTensor (&tensors)[kTensorRoleCount],
                         bool* inPlace);

// The caller's host buffers, checked (ExecuteOnCpu, and D3D12Engine::ExecuteOnHost before it
// uploads them).
struct HostBuffers {
  const uint8_t* input = nullptr;
  const uint8_t* indices = nullptr;
  const uint8_t* updates = nullptr;
  uint8_t* output = nullptr;
  bool inPlace = false;  // a scatter whose Output is bound to its Input buffer
};

Status CheckHostBindings(const Plan& plan, const TensorBindings& bindings, HostBuffers* buffers);

}  // namespace gs::plan
