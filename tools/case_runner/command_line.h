// gs-cases as a function, so tests can run it in-process as well as through the binary.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace gs::cases {

// Exit statuses of gs-cases.
inline constexpr int kExitPassed = 0;     // nothing failed
inline constexpr int kExitFailed = 1;     // some case failed
inline constexpr int kExitMalformed = 2;  // bad usage, or a file unreadable or malformed

// args excludes the program name. Report lines go to out, usage errors to err. Without
// --time-limit, cases run under defaultTimeLimitSeconds: gs-cases passes
// kDefaultTimeLimitSeconds (supervisor.h); in-process callers keep every case in their own
// process with 0.
int RunCommandLine(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                   double defaultTimeLimitSeconds = 0);

}  // namespace gs::cases
