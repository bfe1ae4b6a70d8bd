// Fuzzes the case-file reader of gs-cases with arbitrary text: it must never crash, leak or
// hang, and every entry it returns is either a case or a reason.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "case_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const gs::cases::CaseFile file = gs::cases::ParseCaseFile(text, "fuzz.json");
  if (!file.error.empty() && !file.entries.empty()) {
    std::fprintf(stderr, "a malformed file still returned %zu entries\n", file.entries.size());
    std::abort();
  }
  for (const auto& entry : file.entries) {
    if (entry.value.has_value() != entry.error.empty()) {  // exactly one of the two
      std::fprintf(stderr, "entry %s has both or neither of a case and a reason\n",
                   entry.label.c_str());
      std::abort();
    }
    if (entry.label.empty()) {
      std::fprintf(stderr, "an entry has no label\n");
      std::abort();
    }
  }
  return 0;
}
