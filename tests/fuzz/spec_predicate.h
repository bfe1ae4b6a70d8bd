// An independent yes/no answer to "does the spec accept this operator desc?", written from
// shared/spec/semantics.md without looking at src/plan: the desc fuzzer compares it with
// CompileOperator.
#pragma once

#include "gs/operators.h"

namespace gs_fuzz {

// True when every rule of the spec holds for `desc` (pointers, counts, types, sizes, byte
// sizes, the operator's shape rules, an output view that does not overlap itself). Whether
// an output view with interleaved strides, too many elements to list and too large an extent
// to mark, overlaps itself is not decided here: *decided is then false (the library may say
// either, having searched or having given up).
bool SpecAcceptsDesc(const gs::OperatorDesc& desc, bool* decided = nullptr);

}  // namespace gs_fuzz
