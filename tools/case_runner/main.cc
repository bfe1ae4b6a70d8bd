// gs-cases: runs case files (../shared/cases/README.md) against the gs backends.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "command_line.h"
#include "supervisor.h"

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    return gs::cases::RunCommandLine(args, std::cout, std::cerr, gs::cases::kDefaultTimeLimitSeconds);
  } catch (const std::exception& e) {
    std::cerr << "gs-cases: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "gs-cases: unknown error\n";
  }
  return gs::cases::kExitMalformed;
}
