// Running one case on one backend and judging the result.
#pragma once

#include <string>

#include "backend.h"
#include "case_file.h"

namespace gs::cases {

enum class Verdict { Pass, Fail, Skip };

struct Outcome {
  Verdict verdict = Verdict::Pass;
  std::string reason;  // empty for a pass
};

// Builds the descs and guarded buffers, compiles, executes on backend, and checks: the
// expected output bit for bit (or the expected error), the bytes outside the output view,
// the inputs unchanged, and the guard bytes around every buffer. Never throws.
Outcome RunCase(const Case& c, Backend& backend);

}  // namespace gs::cases
