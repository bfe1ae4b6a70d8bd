// Fuzzes execution: a small valid operator (the property tests' generator, picked by the
// input) run with index values and data taken from the input, in checked and unchecked modes.
// The engine must match the independent reference byte for byte, never touch a guard byte
// around any buffer, and in checked mode fail with the output untouched on a bad index
// (gs_property::CheckEngine checks all of that). The input also picks the machine the case is
// compiled for: this one, or this one with a tiny cache, where the plan streams stores and
// narrows a strip's indices ahead, as it does for large tensors.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cpu/machine.h"
#include "engine_check.h"
#include "random_desc.h"

namespace {

// Index values: the raw bytes, or each element a small signed value, mostly within range of
// the small shapes (and negative ones count from the end).
void FillIndices(FuzzedDataProvider& in, const gs_property::RandomCase& c,
                 std::vector<uint8_t>* indices) {
  const uint32_t width = gs_reference::ElementSize(c.op.indices.type);
  const bool raw = in.ConsumeBool();
  for (size_t at = 0; at + width <= indices->size(); at += width) {
    int64_t value = 0;
    if (raw) {
      const std::vector<uint8_t> bytes = in.ConsumeBytes<uint8_t>(width);
      if (!bytes.empty()) std::memcpy(&value, bytes.data(), bytes.size());
    } else {
      value = in.ConsumeIntegral<int8_t>() / 16;  // -8..7
    }
    std::memcpy(indices->data() + at, &value, width);  // little-endian: the low bytes
  }
}

void FillData(FuzzedDataProvider& in, std::vector<uint8_t>* bytes) {
  const std::vector<uint8_t> given = in.ConsumeBytes<uint8_t>(bytes->size());
  if (!given.empty()) std::memcpy(bytes->data(), given.data(), given.size());  // rest: as generated
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using gs_property::CaseKind;
  FuzzedDataProvider in(data, size);
  // Strips and tuple rows: the column-strip and tuple-row walks, which small cases never take.
  static const CaseKind kKinds[] = {CaseKind::Basic, CaseKind::Reduction, CaseKind::InPlace, CaseKind::Strips,
                                    CaseKind::TupleRows};
  const CaseKind kind = kKinds[in.ConsumeIntegral<uint8_t>() % 5];
  const uint64_t seed = in.ConsumeIntegral<uint16_t>();  // every operator x type x index type
  gs_property::RandomCase c = gs_property::GenerateCase(kind, seed);
  gs::plan::MachineInfo machine = gs::cpu::ThisMachine();  // picked before the fills use up the input
  if (in.ConsumeBool()) machine.llcBytes = 1;
  FillIndices(in, c, &c.indices);
  FillData(in, &c.input);
  FillData(in, &c.updates);

  gs::CompiledOperator compiled;
  const std::string compileProblem = gs_property::CompileCase(c, &compiled, &machine);
  if (!compileProblem.empty()) {
    std::fprintf(stderr, "a generated valid desc did not compile: %s\n", compileProblem.c_str());
    std::abort();
  }
  for (gs::IndexChecking mode : {gs::IndexChecking::Checked, gs::IndexChecking::Unchecked}) {
    c.mode = mode;
    const gs_property::ReferenceResult expected = gs_property::RunReferenceOn(c);
    // One thread: the calling thread runs everything, so ASan sees every access.
    const std::string problem = gs_property::CheckEngine(c, expected, compiled, {1});
    if (!problem.empty()) {
      std::fprintf(stderr, "%s\n", problem.c_str());
      std::abort();
    }
  }
  return 0;
}
