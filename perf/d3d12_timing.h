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
  // The list holds one run of `op` on the uploaded buffers between two timestamps, recorded
  // once (D3D12Engine::Record) and then rerun as it is: no host work between runs, so the GPU
  // stays busy and at its working clocks, as under a runtime's stream of work
  // (perf/results/2026-11-26-h100-clocks.md). *record_seconds: the host time of Record.
  std::string RecordOperator(const gs::CompiledOperator& op, bool checked, double* record_seconds);
  // The list holds one copy of `bytes` between two device buffers, by CopyBufferRegion.
  std::string RecordCopy(uint64_t bytes);
  // The list holds the copy kernel of 16-byte words (gpu/hlsl/copy_wide.hlsl) on `bytes` rounded
  // up to a whole word, wordsPerThread (one of kCopyWordsPerThread) a thread; its bytes were
  // checked against the source once at each count, in Get. With CopiesFromCachedSource(bytes,
  // sourceBytes), it reads a source of sourceBytes / 16 words over and over instead: a gather
  // from a table of that size, whose rows may come from the GPU's cache.
  std::string RecordCopyKernel(uint64_t bytes, uint32_t wordsPerThread, uint64_t sourceBytes = 0);
  static bool CopiesFromCachedSource(uint64_t bytes, uint64_t sourceBytes);
  static constexpr uint32_t kCopyWordsPerThread[] = {1, 2, 4};
  // Runs the recorded list once and waits: its GPU seconds; "" or the error (an operator's
  // result included).
  std::string Rerun(double* seconds);
  // Reruns the recorded list, without timing, until `seconds` of wall time have passed (at
  // least once): the GPU raises its clocks only under load.
  std::string WarmUp(double seconds);

  struct State;
  explicit D3D12Timing(std::unique_ptr<State> state);
  ~D3D12Timing();

 private:
  std::unique_ptr<State> state_;
};

}  // namespace gs_bench
