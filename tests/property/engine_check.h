// Runs a random case on the gs CPU engine and on the reference, each on its own copy of the
// buffers, and reports every way the engine broke the contract.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gs/gs.h"
#include "random_desc.h"
#include "reference.h"

namespace gs::plan {
struct MachineInfo;  // src/plan/machine.h
}  // namespace gs::plan

namespace gs_property {

struct ReferenceResult {
  bool ok = false;                 // false: checked mode found an out-of-range index
  gs_reference::BadIndex bad;      // the first one, when !ok
  std::vector<uint8_t> output;     // the whole output buffer after the run
};

ReferenceResult RunReferenceOn(const RandomCase& c);

// "" on success, else the status and the case.
// True when every element of the buffer that the tensor's view does not cover still holds
// its bytes from `before` (a failed gather may have written its view, nothing else).
bool OutsideViewUnchanged(const gs_reference::OwnedTensor& tensor, const uint8_t* now,
                          const std::vector<uint8_t>& before);

// Compiles for `machine`, or for this one when it is null.
std::string CompileCase(const RandomCase& c, gs::CompiledOperator* compiled,
                        const gs::plan::MachineInfo* machine = nullptr);

// Runs a compiled operator on bound host buffers: another engine than the CPU one (the
// D3D12 path's parity tests check it the same way).
using Executor = std::function<gs::Status(const gs::CompiledOperator&, const gs::TensorBindings&,
                                          gs::IndexChecking)>;

struct EngineOptions {
  int thread_count = 0;
  tbb::task_arena* arena = nullptr;
  Executor execute = nullptr;  // empty: ExecuteOnCpu with the options above
};

// The floating-point control register as far as the engine must restore it (MXCSR without its
// flags, FPCR; 0 elsewhere).
unsigned FloatControlState();

// While alive on this thread: the settings a host process may have left there for its own
// arithmetic (flush-to-zero, denormals-are-zero, default NaN, alternative half precision,
// rounding toward zero), none of which may change the engine's bytes; restores them after.
class HostileFloatControl {
 public:
  HostileFloatControl();
  ~HostileFloatControl();
  HostileFloatControl(const HostileFloatControl&) = delete;
  HostileFloatControl& operator=(const HostileFloatControl&) = delete;

 private:
  unsigned saved_;
};

// Executes `compiled` (compiled from c's desc) on guarded copies of c's buffers and compares
// with `expected`: the whole output buffer byte for byte (bytes outside a strided view
// included), guard bytes around every buffer, read-only buffers untouched, and on a checked
// index error the code, the message and the untouched output. Returns "" when all hold, else
// a report naming the case, the desc and the first differing byte. Thread-safe.
std::string CheckEngine(const RandomCase& c, const ReferenceResult& expected,
                        const gs::CompiledOperator& compiled, const EngineOptions& options);

}  // namespace gs_property
