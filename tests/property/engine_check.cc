#include "engine_check.h"

#include <cstring>
#include <iomanip>
#include <memory>
#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "cpu/implementations.h"
#include "cpu/parallel.h"
#include "plan/machine.h"
#include "plan/plan.h"

namespace gs_property {
namespace {

constexpr size_t kGuardBytes = 64;

// A buffer with guard bytes on both sides. The data starts at a varying multiple of the
// element size past a 64-byte boundary, so the engine sees differently aligned buffers.
class GuardedBuffer {
 public:
  GuardedBuffer(const std::vector<uint8_t>& contents, uint32_t element_size, uint64_t seed)
      : size_(contents.size()),
        offset_(kGuardBytes + element_size * (seed % (64 / element_size))),
        storage_(new uint8_t[offset_ + size_ + kGuardBytes + 64]) {
    // Align the storage itself to 64 so that offset_ alone decides the alignment.
    base_ = storage_.get() + (64 - reinterpret_cast<uintptr_t>(storage_.get()) % 64) % 64;
    for (size_t i = 0; i < offset_ + size_ + kGuardBytes; ++i) base_[i] = GuardByte(i);
    if (size_) std::memcpy(data(), contents.data(), size_);
  }

  uint8_t* data() { return base_ + offset_; }
  const uint8_t* data() const { return base_ + offset_; }
  size_t size() const { return size_; }

  bool GuardsIntact() const {
    for (size_t i = 0; i < offset_; ++i) {
      if (base_[i] != GuardByte(i)) return false;
    }
    for (size_t i = offset_ + size_; i < offset_ + size_ + kGuardBytes; ++i) {
      if (base_[i] != GuardByte(i)) return false;
    }
    return true;
  }

  bool Equals(const std::vector<uint8_t>& bytes) const {
    return bytes.size() == size_ && (size_ == 0 || std::memcmp(data(), bytes.data(), size_) == 0);
  }

 private:
  static uint8_t GuardByte(size_t i) { return static_cast<uint8_t>(0xa7 ^ (i * 31)); }

  size_t size_;
  size_t offset_;
  std::unique_ptr<uint8_t[]> storage_;
  uint8_t* base_ = nullptr;
};

std::string Hex(const uint8_t* p, uint32_t size) {
  std::ostringstream s;
  s << "0x";
  for (uint32_t i = size; i-- > 0;) s << std::hex << std::setw(2) << std::setfill('0') << +p[i];
  return s.str();
}

// Where the first differing byte is, and what the element there should hold.
std::string DescribeMismatch(const RandomCase& c, const std::vector<uint8_t>& expected,
                             const uint8_t* got) {
  size_t first = 0;
  while (expected[first] == got[first]) ++first;
  const gs::TensorDesc desc = c.op.output.Desc();
  const uint32_t size = gs_reference::ElementSize(desc.DataType);
  const uint64_t element = first / size;
  std::ostringstream s;
  s << "first differing output byte " << first << " (buffer element " << element;
  const uint64_t count = gs_reference::ElementCount(desc);
  bool in_view = false;
  for (uint64_t flat = 0; flat < count && !in_view; ++flat) {
    if (gs_reference::ElementOffset(desc, flat) == element) {
      s << ", logical element " << flat << " of the view";
      in_view = true;
    }
  }
  if (!in_view) s << ", outside the view: must be left unchanged";
  size_t differing = 0;
  for (size_t i = 0; i < expected.size(); ++i) differing += expected[i] != got[i];
  s << "): expected " << Hex(expected.data() + element * size, size) << ", got "
    << Hex(got + element * size, size) << "; " << differing << " bytes differ";
  return s.str();
}

// True when `number` occurs in `text` as a whole number (not inside a longer one).
bool ContainsNumber(const std::string& text, const std::string& number) {
  auto digit = [](char ch) { return ch >= '0' && ch <= '9'; };
  for (size_t at = text.find(number); at != std::string::npos; at = text.find(number, at + 1)) {
    const bool starts = at == 0 || (!digit(text[at - 1]) && (number[0] == '-' || text[at - 1] != '-'));
    const size_t end = at + number.size();
    if (starts && (end == text.size() || !digit(text[end]))) return true;
  }
  return false;
}

}  // namespace

unsigned FloatControlState() {
#if defined(__x86_64__) || defined(__i386__)
  return _mm_getcsr() & 0xffc0u;  // rounding, FTZ, DAZ, exception masks; not the flags
#elif defined(__aarch64__)
  return static_cast<unsigned>(__builtin_aarch64_get_fpcr());  // FPCR holds no flags
#else
  return 0;
#endif
}

HostileFloatControl::HostileFloatControl() : saved_(FloatControlState()) {
#if defined(__x86_64__) || defined(__i386__)
  // MXCSR: flush-to-zero, denormals-are-zero, rounding toward zero.
  _mm_setcsr(_mm_getcsr() | 0x8000u | 0x0040u | 0x6000u);
#elif defined(__aarch64__)
  // FPCR: FZ, FZ16, default NaN, alternative half precision, rounding toward zero.
  __builtin_aarch64_set_fpcr(__builtin_aarch64_get_fpcr() | 1u << 24 | 1u << 19 | 1u << 25 | 1u << 26 | 3u << 22);
#endif
}

HostileFloatControl::~HostileFloatControl() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_setcsr((_mm_getcsr() & 0x3fu) | saved_);  // the flags raised meanwhile stay
#elif defined(__aarch64__)
  __builtin_aarch64_set_fpcr(saved_);
#endif
}

ReferenceResult RunReferenceOn(const RandomCase& c) {
  ReferenceResult result;
  std::vector<uint8_t> input = c.input;
  result.output = c.in_place ? c.input : c.output;
  gs_reference::OwnedOperator op = c.op;
  gs_reference::RefBuffers buffers{c.in_place ? result.output.data() : input.data(),
                                   c.indices.data(), c.updates.data(), result.output.data()};
  result.ok = gs_reference::RunReference(op.Desc(), buffers, c.mode, nullptr, &result.bad);
  return result;
}

// True when every element of the buffer that the tensor's view does not cover still holds
// its bytes from `before`.
bool OutsideViewUnchanged(const gs_reference::OwnedTensor& tensor, const uint8_t* now,
                          const std::vector<uint8_t>& before) {
  const uint32_t element_size = gs_reference::ElementSize(tensor.type);
  const size_t rank = tensor.sizes.size();
  std::vector<uint64_t> strides(rank);
  uint64_t packed = 1, count = 1;
  for (size_t d = rank; d-- > 0;) {
    strides[d] = tensor.strides.empty() ? packed : tensor.strides[d];
    packed *= tensor.sizes[d];
    count *= tensor.sizes[d];
  }
  std::vector<bool> covered(before.size() / element_size, false);
  std::vector<uint64_t> coords(rank, 0);
  for (uint64_t n = 0; n < count; ++n) {
    uint64_t offset = 0;
    for (size_t d = 0; d < rank; ++d) offset += coords[d] * strides[d];
    if (offset < covered.size()) covered[offset] = true;
    for (size_t d = rank; d-- > 0;) {
      if (++coords[d] < tensor.sizes[d]) break;
      coords[d] = 0;
    }
  }
  for (size_t e = 0; e < covered.size(); ++e) {
    if (!covered[e] && std::memcmp(now + e * element_size, &before[e * element_size], element_size) != 0) {
      return false;
    }
  }
  return true;
}

std::string CompileCase(const RandomCase& c, gs::CompiledOperator* compiled,
                        const gs::plan::MachineInfo* machine) {
  gs_reference::OwnedOperator op = c.op;
  const gs::Status status = machine != nullptr ? gs::plan::CompileOperatorFor(op.Desc(), *machine, compiled)
                                               : gs::CompileOperator(op.Desc(), compiled);
  if (status.ok()) return "";
  return "CompileOperator rejected a valid desc: " + std::string(gs::StatusCodeName(status.code())) +
         ": " + status.message() + "\n" + c.Describe();
}

std::string CheckEngine(const RandomCase& c, const ReferenceResult& expected,
                        const gs::CompiledOperator& compiled, const EngineOptions& options) {
  const uint32_t element_size = gs_reference::ElementSize(c.op.input.type);
  const uint32_t index_size = gs_reference::ElementSize(c.op.indices.type);
  GuardedBuffer input(c.input, element_size, c.seed);
  GuardedBuffer indices(c.indices, index_size, c.seed / 3);
  GuardedBuffer updates(c.updates, element_size, c.seed / 5);
  GuardedBuffer separate_output(c.output, element_size, c.seed / 7);
  GuardedBuffer& output = c.in_place ? input : separate_output;
  const std::vector<uint8_t>& output_before = c.in_place ? c.input : c.output;

  gs::TensorBindings bindings;
  bindings.InputTensor = {input.data(), input.size()};
  bindings.IndicesTensor = {indices.data(), indices.size()};
  if (c.op.IsScatter()) bindings.UpdatesTensor = {updates.data(), updates.size()};
  bindings.OutputTensor = {output.data(), output.size()};
  gs::CpuExecuteOptions cpu;
  cpu.Checking = c.mode;
  cpu.ThreadCount = options.thread_count;
  cpu.Arena = options.arena;

  const unsigned control_before = FloatControlState();
  const gs::Status status = options.execute ? options.execute(compiled, bindings, c.mode)
                                            : gs::ExecuteOnCpu(compiled, bindings, cpu);
  const unsigned control_after = FloatControlState();

  std::ostringstream problems;
  if (!input.GuardsIntact() || !indices.GuardsIntact() || !updates.GuardsIntact() ||
      !separate_output.GuardsIntact()) {
    problems << "\n- wrote outside a bound buffer (guard bytes changed)";
  }
  if (!c.in_place && !input.Equals(c.input)) problems << "\n- modified InputTensor";
  if (!indices.Equals(c.indices)) problems << "\n- modified IndicesTensor";
  if (!updates.Equals(c.updates)) problems << "\n- modified UpdatesTensor";
  if (control_before != control_after) {
    problems << "\n- left the floating-point control register changed (0x" << std::hex
             << control_before << " -> 0x" << control_after << std::dec << ")";
  }

  // The CPU engine ran the entry its plan chose for the call's thread count, as the entry's
  // own run function recorded it (on an index error too: the entry that found it).
  if (options.execute == nullptr && status.code() != gs::StatusCode::OutOfMemory) {
    const gs::plan::CpuChoice& choice = compiled.plan()->cpu;
    const bool many = gs::cpu::Parallel(cpu).concurrency() > 1;
    const gs::plan::CpuImplementation chosen = many ? choice.manyThreads : choice.oneThread;
    const gs::plan::CpuImplementation ran = gs::cpu::LastImplementationRun().implementation;
    if (ran != chosen) {
      problems << "\n- ran " << gs::plan::CpuImplementationName(ran) << " but the plan chose "
               << gs::plan::CpuImplementationName(chosen) << " for " << (many ? "several threads" : "one thread");
    }
  }
  if (expected.ok) {
    if (!status.ok()) {
      problems << "\n- failed: " << gs::StatusCodeName(status.code()) << ": " << status.message();
    } else if (!output.Equals(expected.output)) {
      problems << "\n- output differs from the reference: "
               << DescribeMismatch(c, expected.output, output.data());
    }
  } else {
    const std::string position = std::to_string(expected.bad.FlatPosition);
    if (status.code() != gs::StatusCode::InvalidArgument) {
      problems << "\n- expected InvalidArgument for IndicesTensor element " << position
               << " (value " << expected.bad.Value << "), got "
               << gs::StatusCodeName(status.code()) << ": " << status.message();
    } else if (status.message().find("IndicesTensor") == std::string::npos ||
               !ContainsNumber(status.message(), position) ||
               !ContainsNumber(status.message(), expected.bad.Value)) {
      problems << "\n- the error must name IndicesTensor, the first bad position " << position
               << " and its value " << expected.bad.Value << ": " << status.message();
    }
    // A failed scatter leaves its output alone; a failed gather may have written its view,
    // but no byte of the buffer outside it (semantics.md).
    if (c.op.IsScatter() ? !output.Equals(output_before)
                         : !OutsideViewUnchanged(c.op.output, output.data(), output_before)) {
      problems << "\n- changed the output on an index error"
               << (c.op.IsScatter() ? "" : " outside the output view");
    }
  }

  if (problems.str().empty()) return "";
  std::ostringstream report;
  report << c.Describe() << "\n  threads " << options.thread_count
         << (options.arena ? " in a caller's arena" : "") << problems.str();
  return report.str();
}

}  // namespace gs_property
