#include "runner.h"

#include <array>
#include <cctype>
#include <cstring>

#include "buffers.h"
#include "gs/operators.h"
#include "gs/tensor.h"
#include "operator_desc.h"
#include "values.h"

namespace gs::cases {
namespace {

// One tensor of the case as bound for the call.
struct BoundTensor {
  const TensorSpec* spec = nullptr;  // null: the case has no such tensor
  TensorDesc desc;
  InitialBytes initial;  // the buffer's bytes before the call
  std::unique_ptr<GuardedBuffer> buffer;
};

Outcome Pass() { return {Verdict::Pass, {}}; }
Outcome Fail(std::string reason) { return {Verdict::Fail, std::move(reason)}; }

std::string Describe(const Status& status) {
  return std::string(StatusCodeName(status.code())) + ": " + status.message();
}

std::string Lower(std::string text) {
  for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return text;
}

TensorDesc DescOf(const TensorSpec& spec, uint64_t totalBytes) {
  TensorDesc desc;
  desc.DataType = spec.dataType;
  desc.DimensionCount = static_cast<uint32_t>(spec.sizes.size());
  desc.Sizes = spec.sizes.data();
  desc.Strides = spec.strides ? spec.strides->data() : nullptr;
  desc.TotalTensorSizeInBytes = totalBytes;
  return desc;
}

// The desc struct the operator names, pointing at the bound tensors; absent attributes are 0.
OperatorDesc BuildCaseDesc(const Case& c, const std::array<BoundTensor, kRoleCount>& tensors,
                           DescStorage* storage) {
  auto tensor = [&](Role role) -> const TensorDesc* {
    const BoundTensor& t = tensors[static_cast<int>(role)];
    return t.spec ? &t.desc : nullptr;
  };
  OperatorParts parts;
  parts.op = c.op;
  parts.attributes = c.attributes;
  parts.reduction = c.reduction;
  parts.input = tensor(Role::Input);
  parts.indices = tensor(Role::Indices);
  parts.updates = tensor(Role::Updates);
  parts.output = tensor(Role::Output);
  return BuildOperatorDesc(parts, storage);
}

// The first element of a buffer that differs from what it held, or empty.
std::string FirstChange(const uint8_t* now, const InitialBytes& before, uint32_t elementSize) {
  if (before.Same(now)) return {};
  uint64_t element = 0;
  while (std::memcmp(now + element * elementSize, before.At(element * elementSize), elementSize) == 0) ++element;
  const uint64_t start = element * elementSize;
  return "buffer element " + std::to_string(element) + " was " + FormatBits(before.At(start), elementSize) +
         ", now " + FormatBits(now + start, elementSize);
}

Outcome CheckErrorMessage(const Case& c, const Status& status) {
  if (!c.errorContains.empty() &&
      Lower(status.message()).find(Lower(c.errorContains)) == std::string::npos) {
    return Fail("the error does not mention \"" + c.errorContains + "\": " + Describe(status));
  }
  return Pass();
}

// The first buffer element not `covered` by the output view that differs from `initial`, or "".
std::string FirstChangeOutside(const std::vector<bool>& covered, const uint8_t* buffer,
                               const InitialBytes& initial, uint32_t elementSize) {
  for (uint64_t e = 0; e < covered.size(); ++e) {
    if (covered[e]) continue;
    const uint8_t* now = buffer + e * elementSize;
    const uint8_t* was = initial.At(e * elementSize);
    if (std::memcmp(now, was, elementSize) != 0) {
      return "OutputTensor buffer element " + std::to_string(e) + ", outside the view, changed: was " +
             FormatBits(was, elementSize) + ", now " + FormatBits(now, elementSize);
    }
  }
  return "";
}

// Reads the output view back: every logical element must hold its expected bits, and every
// byte of the buffer outside the view what it held before the call.
Outcome CheckOutput(const TensorSpec& spec, const uint8_t* buffer, const InitialBytes& initial) {
  const uint32_t elementSize = spec.ElementSize();
  const uint64_t bufferElements = initial.size() / elementSize;
  const std::vector<uint64_t> strides =
      spec.strides ? std::vector<uint64_t>(spec.strides->begin(), spec.strides->end())
                   : PackedStrides(spec.sizes);
  const std::vector<uint8_t>& expected = *spec.expected;

  std::vector<bool> covered(bufferElements, false);
  uint64_t index = 0;
  uint64_t mismatches = 0;
  std::string firstMismatch;
  std::string outOfBuffer;
  const bool walked = ForEachElementOffset(spec.sizes, strides, [&](uint64_t offset) {
    if (offset >= bufferElements) {
      outOfBuffer = "the OutputTensor view reaches element " + std::to_string(offset) +
                    ", beyond its buffer of " + std::to_string(bufferElements) + " elements";
      return false;
    }
    covered[offset] = true;
    const uint8_t* want = &expected[index * elementSize];
    const uint8_t* got = buffer + offset * elementSize;
    if (std::memcmp(want, got, elementSize) != 0 && mismatches++ == 0) {
      firstMismatch = "OutputTensor element " + std::to_string(index) + ": expected " +
                      FormatBits(want, elementSize) + ", got " + FormatBits(got, elementSize);
    }
    ++index;
    return true;
  });
  if (!walked) return Fail("the OutputTensor view's offsets overflow 64 bits");
  if (!outOfBuffer.empty()) return Fail(outOfBuffer);
  if (mismatches != 0) {
    return Fail(firstMismatch + " (" + std::to_string(mismatches) + " of " + std::to_string(index) +
                " elements differ)");
  }
  const std::string change = FirstChangeOutside(covered, buffer, initial, elementSize);
  return change.empty() ? Pass() : Fail(change);
}

// A gather that fails at execution may have written its output view (semantics.md): the
// first change of a buffer element outside the view, or "".
std::string FirstChangeOutsideView(const TensorSpec& spec, const uint8_t* buffer, const InitialBytes& initial) {
  const uint32_t elementSize = spec.ElementSize();
  const std::vector<uint64_t> strides =
      spec.strides ? std::vector<uint64_t>(spec.strides->begin(), spec.strides->end())
                   : PackedStrides(spec.sizes);
  std::vector<bool> covered(initial.size() / elementSize, false);
  ForEachElementOffset(spec.sizes, strides, [&](uint64_t offset) {
    if (offset < covered.size()) covered[offset] = true;
    return offset < covered.size();
  });
  return FirstChangeOutside(covered, buffer, initial, elementSize);
}

using BoundTensors = std::array<BoundTensor, kRoleCount>;

// Inputs hold the case's data (an input without data, in a case expecting an error, is an
// empty buffer). The output gets its desc now and its buffer only after compiling.
void BindTensors(const Case& c, bool inPlace, BoundTensors* tensors) {
  for (int r = 0; r < kRoleCount; ++r) {
    BoundTensor& t = (*tensors)[r];
    t.spec = c.tensors[r] ? &*c.tensors[r] : nullptr;
    if (!t.spec || static_cast<Role>(r) == Role::Output) continue;
    if (t.spec->data) t.initial = InitialBytes(*t.spec->data);
    t.buffer = std::make_unique<GuardedBuffer>(t.initial);
    t.desc = DescOf(*t.spec, t.initial.size());
  }
  BoundTensor& output = (*tensors)[static_cast<int>(Role::Output)];
  if (!output.spec) return;
  // InputTensor's buffer in place, else the fill, else the smallest buffer the view fits in.
  uint64_t bytes;
  if (inPlace) {
    bytes = (*tensors)[static_cast<int>(Role::Input)].initial.size();
  } else if (output.spec->data) {
    bytes = output.spec->data->size();
  } else {
    bytes = MinimumTensorSizeInBytes(DescOf(*output.spec, 0));
  }
  output.desc = DescOf(*output.spec, bytes);
}

// The output's own buffer, allocated only once the desc compiled: a desc the library rejects
// may describe an absurd size.
std::string AllocateOutput(BoundTensor* output) {
  const uint64_t bytes = output->desc.TotalTensorSizeInBytes;
  if (bytes > kMaxBufferBytes) {
    return "OutputTensor needs " + std::to_string(bytes) +
           " bytes, more than the runner allocates (" + std::to_string(kMaxBufferBytes) + ")";
  }
  output->initial = output->spec->data ? InitialBytes(*output->spec->data) : InitialBytes::Sentinel(bytes);
  output->buffer = std::make_unique<GuardedBuffer>(output->initial);
  return {};
}

// A buffer of 0 bytes (an empty tensor's) is bound as a null pointer, as the format says.
uint8_t* DataOf(GuardedBuffer& buffer) { return buffer.size() == 0 ? nullptr : buffer.data(); }

TensorBindings Bind(const BoundTensors& tensors, const BoundTensor& target) {
  TensorBindings bindings;
  BufferBinding* inputs[] = {&bindings.InputTensor, &bindings.IndicesTensor,
                             &bindings.UpdatesTensor};
  for (int r = 0; r < 3; ++r) {
    if (tensors[r].buffer) *inputs[r] = {DataOf(*tensors[r].buffer), tensors[r].buffer->size()};
  }
  bindings.OutputTensor = {DataOf(*target.buffer), target.buffer->size()};
  return bindings;
}

// Whatever the call returned, it must have stayed inside its buffers and left the inputs
// alone (all but target, the buffer the output lives in).
std::string CheckIntegrity(const BoundTensors& tensors, const BoundTensor& target) {
  for (int r = 0; r < kRoleCount; ++r) {
    if (tensors[r].buffer && !tensors[r].buffer->GuardsIntact()) {
      return std::string("wrote outside ") + RoleName(static_cast<Role>(r)) +
             " buffer (its guard bytes changed)";
    }
  }
  for (int r = 0; r < kRoleCount; ++r) {
    const BoundTensor& t = tensors[r];
    if (!t.buffer || &t == &target) continue;
    const std::string change = FirstChange(t.buffer->data(), t.initial, t.spec->ElementSize());
    if (!change.empty()) {
      return std::string("changed ") + RoleName(static_cast<Role>(r)) +
             ", which it only reads: " + change;
    }
  }
  return {};
}

Outcome Run(const Case& c, Backend& backend) {
  const std::string unavailable = backend.Unavailable();
  if (!unavailable.empty()) return {Verdict::Skip, unavailable};

  BoundTensors tensors;
  BoundTensor& input = tensors[static_cast<int>(Role::Input)];
  BoundTensor& output = tensors[static_cast<int>(Role::Output)];
  const bool inPlace = c.inPlace && c.tensor(Role::Input) && c.tensor(Role::Output);
  BindTensors(c, inPlace, &tensors);

  DescStorage storage;
  CompiledOperator compiled;
  Status status = CompileOperator(BuildCaseDesc(c, tensors, &storage), &compiled);
  if (!status.ok()) {
    if (c.expectError) return CheckErrorMessage(c, status);
    return Fail("CompileOperator failed: " + Describe(status));
  }
  // Past this point the library accepted the desc: it must describe something runnable.
  for (int r = 0; r < kRoleCount && c.expectError; ++r) {
    const auto role = static_cast<Role>(r);
    if (!tensors[r].spec && (role != Role::Updates || IsScatter(c.op))) {
      return Fail(std::string("expected an error, but CompileOperator accepted a desc without ") +
                  RoleName(role));
    }
  }
  if (!inPlace) {
    const std::string problem = AllocateOutput(&output);
    if (!problem.empty()) {
      return Fail(c.expectError
                      ? "expected an error, but CompileOperator accepted the desc; " + problem
                      : problem);
    }
  }
  const BoundTensor& target = inPlace ? input : output;

  status = backend.Execute(compiled, Bind(tensors, target),
                           c.unchecked ? IndexChecking::Unchecked : IndexChecking::Checked);
  const std::string damage = CheckIntegrity(tensors, target);
  if (!damage.empty()) return Fail(damage);

  if (!status.ok()) {
    if (!c.expectError) return Fail("execute failed: " + Describe(status));
    const std::string change =
        IsScatter(c.op) ? FirstChange(target.buffer->data(), target.initial, target.spec->ElementSize())
                        : FirstChangeOutsideView(*target.spec, target.buffer->data(), target.initial);
    if (!change.empty()) return Fail("the failing call changed the output: " + change);
    return CheckErrorMessage(c, status);
  }
  if (c.expectError) return Fail("expected an error, but compile and execute succeeded");
  return CheckOutput(*output.spec, target.buffer->data(), target.initial);
}

}  // namespace

Outcome RunCase(const Case& c, Backend& backend) {
  try {
    return Run(c, backend);
  } catch (const std::exception& e) {  // bad_alloc, or a backend that throws
    return Fail(std::string("runner error: ") + e.what());
  } catch (...) {
    return Fail("runner error: unknown exception");
  }
}

}  // namespace gs::cases
