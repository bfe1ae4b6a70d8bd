// ExecuteOnHost moves only the bytes the views span, judges its limits on them before it
// allocates, and writes back only the output view's elements (issue 15, items 5 and 6). The
// host buffers live in address space reserved without access, with only the pages a call may
// touch opened: a touch anywhere else kills the test.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <thread>
#include <vector>

#include "gpu_test_environment.h"
#include "gs/gs.h"

namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;

gs::D3D12Engine* Engine() {
  std::string why;
  gs::D3D12Engine* engine = gs_gpu_test::SharedEngine(&why);
  EXPECT_NE(engine, nullptr) << why;
  return engine;
}

// `bytes` of address space that fault on any access, but for the pages opened.
class Reservation {
 public:
  explicit Reservation(uint64_t bytes) : bytes_(bytes) {
    void* base = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    base_ = base == MAP_FAILED ? nullptr : static_cast<uint8_t*>(base);
  }
  ~Reservation() {
    if (base_ != nullptr) munmap(base_, bytes_);
  }
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;

  uint8_t* base() const { return base_; }
  // Opens the whole pages around [offset, offset + bytes) with `protection`.
  bool Open(uint64_t offset, uint64_t bytes, int protection = PROT_READ | PROT_WRITE) {
    const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    const uint64_t first = offset / page * page;
    return mprotect(base_ + first, (offset + bytes - first + page - 1) / page * page, protection) == 0;
  }

 private:
  uint64_t bytes_;
  uint8_t* base_ = nullptr;
};

gs::CompiledOperator GatherElements(const gs::TensorDesc& input, const gs::TensorDesc& indices,
                                    const gs::TensorDesc& output) {
  const gs::GatherElementsOperatorDesc desc{&input, &indices, &output, 0};
  gs::CompiledOperator op;
  const gs::Status status = gs::CompileOperator({gs::OperatorType::GatherElements, &desc}, &op);
  EXPECT_TRUE(status.ok()) << status.message();
  return op;
}

// A 4-element input, 2 indices and a 2-element output, each bound as a 64 GiB buffer of which
// only the first page may be touched: the views' 16, 8 and 8 bytes go up and come back.
TEST(HostViews, SmallViewsOfHugeBuffersRun) {
  gs::D3D12Engine* engine = Engine();
  ASSERT_NE(engine, nullptr);
  const uint64_t huge = 64 * kGiB;
  Reservation input(huge), indices(huge), output(huge);
  ASSERT_TRUE(input.base() && indices.base() && output.base());
  ASSERT_TRUE(input.Open(0, 16) && indices.Open(0, 8) && output.Open(0, 8));
  const float values[] = {1.5f, -2, 3, 4.25f};
  const int32_t positions[] = {3, -4};
  std::memcpy(input.base(), values, 16);
  std::memcpy(indices.base(), positions, 8);
  std::memset(output.base(), 0xcd, 4096);

  const uint32_t four[] = {4}, two[] = {2};
  const gs::CompiledOperator op = GatherElements({gs::DataType::Float32, 1, four, nullptr, huge},
                                                 {gs::DataType::Int32, 1, two, nullptr, huge},
                                                 {gs::DataType::Float32, 1, two, nullptr, huge});
  const gs::Status status = engine->ExecuteOnHost(
      op, {{input.base(), huge}, {indices.base(), huge}, {}, {output.base(), huge}});
  ASSERT_TRUE(status.ok()) << status.message();
  const float expected[] = {4.25f, 1.5f};
  EXPECT_EQ(std::memcmp(output.base(), expected, 8), 0);
  std::vector<uint8_t> rest(output.base() + 8, output.base() + 4096);
  EXPECT_EQ(rest, std::vector<uint8_t>(4096 - 8, 0xcd));
}

// Two elements 8 GiB apart span more than the 8 views of 2^27 elements the path binds: the
// promised Unsupported, naming the span and the limit, before anything is allocated or read
// (only the two elements' pages are open, and the CPU engine, which reads just them, runs it).
TEST(HostViews, AViewSpanningMoreThanTheLimitIsUnsupportedFirst) {
  gs::D3D12Engine* engine = Engine();
  ASSERT_NE(engine, nullptr);
  const uint64_t huge = 64 * kGiB, stride = uint64_t{1} << 31;
  Reservation input(huge);
  ASSERT_TRUE(input.base() != nullptr);
  ASSERT_TRUE(input.Open(0, 4) && input.Open(stride * 4, 4));
  const float first = 7, second = -9;
  std::memcpy(input.base(), &first, 4);
  std::memcpy(input.base() + stride * 4, &second, 4);
  const int32_t positions[] = {1, 0};
  float gpu[2] = {0.5f, 0.5f}, cpu[2] = {};

  const uint32_t two[] = {2};
  const uint32_t inputStrides[] = {static_cast<uint32_t>(stride)};
  const gs::CompiledOperator op = GatherElements({gs::DataType::Float32, 1, two, inputStrides, huge},
                                                 {gs::DataType::Int32, 1, two, nullptr, 8},
                                                 {gs::DataType::Float32, 1, two, nullptr, 8});
  const gs::Status status = engine->ExecuteOnHost(op, {{input.base(), huge}, {positions, 8}, {}, {gpu, 8}});
  EXPECT_EQ(status.code(), gs::StatusCode::Unsupported);
  EXPECT_EQ(status.message(),
            "GATHER_ELEMENTS: D3D12: InputTensor spans 2147483649 elements, more than the 8 buffer views of "
            "134217728 elements (1073741824) the D3D12 path binds for it");
  EXPECT_EQ(gpu[0], 0.5f);
  EXPECT_EQ(gpu[1], 0.5f);
  ASSERT_TRUE(gs::ExecuteOnCpu(op, {{input.base(), huge}, {positions, 8}, {}, {cpu, 8}}).ok());
  EXPECT_EQ(cpu[0], second);
  EXPECT_EQ(cpu[1], first);
}

// Output rows two pages apart with a page between them that no access may touch: a gather
// reads none of its output's bytes and writes back only the view's elements; in place, a
// scatter uploads the span (the page may be read) and writes back only the elements.
TEST(HostViews, BytesBetweenOutputElementsAreNeverWritten) {
  gs::D3D12Engine* engine = Engine();
  ASSERT_NE(engine, nullptr);
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint32_t sizes[] = {2, 3}, strides[] = {static_cast<uint32_t>(2 * page / 4), 1};
  const uint64_t spanBytes = 2 * page + 12;
  const gs::TensorDesc packed{gs::DataType::Float32, 2, sizes, nullptr, 24};
  const gs::TensorDesc indices{gs::DataType::Int32, 2, sizes, nullptr, 24};
  const gs::TensorDesc strided{gs::DataType::Float32, 2, sizes, strides, spanBytes};
  const float rows[] = {1, 2, 3, 4, 5, 6};

  for (const bool scatter : {false, true}) {
    SCOPED_TRACE(scatter ? "SCATTER_ELEMENTS in place" : "GATHER_ELEMENTS");
    Reservation output(3 * page);
    ASSERT_TRUE(output.base() != nullptr);
    ASSERT_TRUE(output.Open(0, 3 * page));
    std::memset(output.base(), 0xcd, 3 * page);
    gs::CompiledOperator op;
    gs::TensorBindings bindings;
    bindings.OutputTensor = {output.base(), spanBytes};
    float expected[6];
    if (scatter) {  // out[i][idx[i][j]] = upd[i][j], the later update winning, on rows 1 2 3 / 4 5 6
      const gs::ScatterElementsOperatorDesc desc{&strided, &indices, &packed, &strided, 1};
      ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterElements, &desc}, &op).ok());
      static const int32_t positions[] = {2, 2, 0, 1, 1, 1};
      static const float updates[] = {10, 20, 30, 40, 50, 60};
      const float result[] = {30, 2, 20, 4, 60, 6};
      std::memcpy(expected, result, 24);
      std::memcpy(output.base(), rows, 12);
      std::memcpy(output.base() + 2 * page, rows + 3, 12);
      bindings.InputTensor = {output.base(), spanBytes};
      bindings.IndicesTensor = {positions, 24};
      bindings.UpdatesTensor = {updates, 24};
    } else {  // out[i][j] = in[i][idx[i][j]]
      const gs::GatherElementsOperatorDesc desc{&packed, &indices, &strided, 1};
      ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::GatherElements, &desc}, &op).ok());
      static const int32_t positions[] = {2, 0, 1, 1, 2, 0};
      const float result[] = {3, 1, 2, 5, 6, 4};
      std::memcpy(expected, result, 24);
      bindings.InputTensor = {rows, 24};
      bindings.IndicesTensor = {positions, 24};
    }
    // The page between the rows: unreadable for the gather, read-only for the in-place scatter.
    ASSERT_TRUE(output.Open(page, page, scatter ? PROT_READ : PROT_NONE));
    const gs::Status status = engine->ExecuteOnHost(op, bindings);
    ASSERT_TRUE(status.ok()) << status.message();
    ASSERT_TRUE(output.Open(page, page));
    std::vector<uint8_t> want(3 * page, 0xcd);
    std::memcpy(&want[0], expected, 12);
    std::memcpy(&want[2 * page], expected + 3, 12);
    EXPECT_EQ(std::vector<uint8_t>(output.base(), output.base() + 3 * page), want);
  }
}

// Two threads gather into the even and the odd elements of one buffer (Strides {2}), round
// after round: each call writes back only its own elements, so both results stay.
TEST(HostViews, CallsOnInterleavedViewsOfOneBufferKeepEachOthersElements) {
  gs::D3D12Engine* engine = Engine();
  ASSERT_NE(engine, nullptr);
  constexpr uint32_t kCount = 1024;
  const uint32_t sizes[] = {kCount}, everyOther[] = {2};
  const gs::CompiledOperator op =
      GatherElements({gs::DataType::UInt16, 1, sizes, nullptr, kCount * 2},
                     {gs::DataType::Int32, 1, sizes, nullptr, kCount * 4},
                     {gs::DataType::UInt16, 1, sizes, everyOther, (2 * kCount - 1) * 2});
  std::vector<uint16_t> inputs[2] = {std::vector<uint16_t>(kCount), std::vector<uint16_t>(kCount)};
  std::vector<int32_t> positions(kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    inputs[0][i] = static_cast<uint16_t>(i);
    inputs[1][i] = static_cast<uint16_t>(0x8000 | i);
    positions[i] = static_cast<int32_t>((i * 7 + 3) % kCount);
  }
  std::vector<uint16_t> want(2 * kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    want[2 * i] = inputs[0][positions[i]];
    want[2 * i + 1] = inputs[1][positions[i]];
  }
  std::vector<uint16_t> buffer(2 * kCount);
  for (int round = 0; round < 40; ++round) {
    std::fill(buffer.begin(), buffer.end(), 0xcdcd);
    gs::Status statuses[2];
    std::thread threads[2];
    for (int t = 0; t < 2; ++t) {
      threads[t] = std::thread([&, t] {
        statuses[t] = engine->ExecuteOnHost(op, {{inputs[t].data(), kCount * 2},
                                                 {positions.data(), kCount * 4},
                                                 {},
                                                 {buffer.data() + t, (2 * kCount - 1) * 2}});
      });
    }
    for (std::thread& thread : threads) thread.join();
    ASSERT_TRUE(statuses[0].ok()) << statuses[0].message();
    ASSERT_TRUE(statuses[1].ok()) << statuses[1].message();
    ASSERT_EQ(buffer, want) << "round " << round;
  }
}

}  // namespace
