// Executing a compiled operator on the CPU.
#pragma once

#include <cstdint>

#include "gs/compiled_operator.h"
#include "gs/status.h"

// oneTBB's task_arena, declared as oneTBB 2021 declares it (tbb::task_arena names
// tbb::detail::d1::task_arena), so that this header, and a consumer of gs::d3d12 that never
// runs on the CPU, needs no oneTBB header. A caller that passes an arena includes
// <oneapi/tbb/task_arena.h> itself.
namespace tbb {
namespace detail {
namespace d1 {
class task_arena;
}  // namespace d1
}  // namespace detail
inline namespace v1 {
using detail::d1::task_arena;
}  // namespace v1
}  // namespace tbb

namespace gs {

// A bound buffer: where the tensor's bytes live and how many bytes may be touched.
struct BufferBinding {
  const void* Data = nullptr;
  uint64_t SizeInBytes = 0;
};

struct OutputBinding {
  void* Data = nullptr;
  uint64_t SizeInBytes = 0;
};

// Named as the desc members. UpdatesTensor is only for the scatters.
// A scatter runs in place when OutputTensor.Data == InputTensor.Data (and the two descs
// describe the same view); any other overlap of the output with an input is an error.
struct TensorBindings {
  BufferBinding InputTensor;
  BufferBinding IndicesTensor;
  BufferBinding UpdatesTensor;
  OutputBinding OutputTensor;
};

enum class IndexChecking {
  // Every index is validated; the first bad one in row-major order fails the call with
  // InvalidArgument. A failed scatter leaves its output untouched; a failed gather may have
  // written its output view (never a byte outside it), as PyTorch and ONNX Runtime do.
  Checked,
  Unchecked,  // out-of-bounds gathers give zeros, out-of-bounds scatter updates are dropped
};

struct CpuExecuteOptions {
  IndexChecking Checking = IndexChecking::Checked;
  // 0: oneTBB's default (all cores, or Arena's concurrency). 1: the calling thread only.
  // N > 1: at most N threads (and no more than the machine's cores).
  int ThreadCount = 0;
  // Optional arena to run in (the caller's thread pool). Used when ThreadCount is not 1.
  tbb::task_arena* Arena = nullptr;
};

// Runs a compiled operator on host buffers, on the calling thread and oneTBB's. Returns:
// - Ok;
// - InvalidArgument: op is empty; options.ThreadCount is negative or options.Checking not an
//   IndexChecking; a binding is missing, too small for its view or overlaps another wrongly;
//   checked mode met an index out of range (the message names IndicesTensor, the first bad
//   position in row-major order, its value and the valid range; see IndexChecking::Checked
//   for what the output holds then);
// - OutOfMemory: an allocation failed during the call (a scatter then wrote nothing);
// - Internal: an unexpected failure inside the engine (a bug; the message says what).
Status ExecuteOnCpu(const CompiledOperator& op, const TensorBindings& bindings,
                    const CpuExecuteOptions& options = {});

}  // namespace gs
