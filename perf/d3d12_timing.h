// gs-bench's D3D12 rows: the operator recorded with D3D12Engine::Record into gs-bench's own
// command list on device buffers, timed by timestamp queries around the recorded passes (GPU
// time, not wall time), beside a GPU copy of the same bytes timed the same way.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "gs/compiled_operator.h"
#include "gs/cpu.h"

namespace gs_bench {

class D3D12Timing {
 public:
  // The engine on the default device (lavapipe when there is no GPU), made on first use;
  // nullptr with *why set when there is no D3D12 device.
  static D3D12Timing* Get(std::string* why);

  // Device buffers holding the host tensors of `bindings`; an OutputTensor on InputTensor's
  // data is a scatter in place, on one buffer. Replaces the previous case's buffers.
  std::string Upload(const gs::TensorBindings& bindings);
  // GPU seconds of one run of `op` on the uploaded buffers; "" or the error.
  std::string TimeOperator(const gs::CompiledOperator& op, bool checked, double* seconds);
  // GPU seconds of one copy of `bytes` between two device buffers, by CopyBufferRegion.
  std::string TimeCopy(uint64_t bytes, double* seconds);
  // The same by the copy kernel of 16-byte words (gpu/hlsl/copy_wide.hlsl) on `bytes` rounded
  // up to a whole word; its bytes were checked against the source once, in Get.
  std::string TimeCopyKernel(uint64_t bytes, double* seconds);

  struct State;
  explicit D3D12Timing(std::unique_ptr<State> state);
  ~D3D12Timing();

 private:
  std::unique_ptr<State> state_;
};

}  // namespace gs_bench
