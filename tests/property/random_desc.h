// Random valid operator cases for the property tests. Shapes are computed here from the spec's
// shape rules, independently of src/; every case is a pure function of (kind, seed).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gs/cpu.h"
#include "owned_desc.h"

namespace gs_property {

enum class CaseKind {
  Basic,       // every operator x element type x index type, random ranks and strides
  Reduction,   // scatters with many collisions and values that stress the reductions
  CheckedBad,  // checked mode with a few planted out-of-range indices: must fail cleanly
  Unchecked,   // unchecked mode with out-of-range indices: zeros / dropped updates
  InPlace,     // scatters with Output bound to the Input buffer
  Large,       // 100k+ output elements (or updates) so the parallel paths run
  Strips,      // GatherElements/ScatterElements with long rows along axis 0 (and some along
               // axis 1): the CPU engine's column-strip walks
  TupleRows,   // GatherND/GatherND1 element gathers (full-rank tuples) with rows of tuples of
               // every length: the CPU engine's tuple-row kernels
  Onnx,        // what ONNX and PyTorch accept beyond DirectML: empty tensors, elements indices
               // smaller than the input, empty tuples (q = 0); with bad indices mixed in
};

const char* CaseKindName(CaseKind kind);
bool ParseCaseKind(const std::string& name, CaseKind* kind);

struct RandomCase {
  CaseKind kind = CaseKind::Basic;
  uint64_t seed = 0;
  gs_reference::OwnedOperator op;
  // Whole backing buffers, TotalTensorSizeInBytes each; `output` is its content before the
  // call (a sentinel pattern). In place, `output` is unused and Output is bound to `input`.
  std::vector<uint8_t> input, indices, updates, output;
  bool in_place = false;
  gs::IndexChecking mode = gs::IndexChecking::Checked;
  int thread_count = 0;  // a suggestion for the runner: 1, 2 or 0 (default)

  // "kind:seed" plus the desc, for failure messages and GS_PROPERTY_REPRO.
  std::string Describe() const;
};

RandomCase GenerateCase(CaseKind kind, uint64_t seed);

// A sweep's count of seeds times GS_PROPERTY_SCALE (1 when unset or not positive), at least one:
// a longer soak (4, 20), or a shorter run under emulation (0.125 in the arm64 preset).
uint64_t ScaledSeedCount(uint64_t count);

}  // namespace gs_property
