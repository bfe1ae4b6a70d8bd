// Callers whose buffers another thread writes during the call (a sandboxed process sharing
// memory with a less trusted one): results are then undefined, but every write the library
// makes stays inside what it allocated and what the caller bound, and the call returns.
// Not part of the ThreadSanitizer run: the race on the caller's indices is the point.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "gs/gs.h"

namespace {

constexpr uint32_t kColumns = 1000;
constexpr uint32_t kUpdates = 262144;
constexpr size_t kGuardBytes = 256;
constexpr uint8_t kGuard = 0xa5;

// Flips every index between 0 and kColumns - 1 (always in range) until told to stop.
void FlipIndices(int32_t* indices, const std::atomic<bool>* stop) {
  int32_t value = 0;
  while (!stop->load(std::memory_order_relaxed)) {
    value = value == 0 ? static_cast<int32_t>(kColumns - 1) : 0;
    for (uint32_t i = 0; i < kUpdates; i += 7) __atomic_store_n(&indices[i], value, __ATOMIC_RELAXED);
  }
}

// The bucketed scatter schedule reads the indices twice (count, then fill): the fill must stay
// inside the slots the count reserved (it overflowed its move list before, corrupting the heap).
TEST(HostileCaller, IndicesChangingDuringAParallelScatterStayInsideTheSchedule) {
  const uint32_t inputSizes[] = {1, kColumns}, updateSizes[] = {1, kUpdates};
  const gs::TensorDesc input{gs::DataType::Float32, 2, inputSizes, nullptr, kColumns * 4};
  const gs::TensorDesc indices{gs::DataType::Int32, 2, updateSizes, nullptr, kUpdates * 4};
  const gs::TensorDesc updates{gs::DataType::Float32, 2, updateSizes, nullptr, kUpdates * 4};
  const gs::ScatterElementsOperatorDesc desc{&input, &indices, &updates, &input, 1,
                                             gs::Reduction::None};
  gs::CompiledOperator op;
  ASSERT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterElements, &desc}, &op).ok());

  std::vector<float> inputData(kColumns, 1.0f), updateData(kUpdates, 2.0f);
  std::vector<int32_t> indexData(kUpdates);
  for (uint32_t i = 0; i < kUpdates; ++i) indexData[i] = static_cast<int32_t>(i % kColumns);
  std::vector<uint8_t> output(kGuardBytes + kColumns * 4 + kGuardBytes, kGuard);
  uint8_t* view = output.data() + kGuardBytes;

  for (int round = 0; round < 24; ++round) {
    std::atomic<bool> stop{false};
    std::thread flipper(FlipIndices, indexData.data(), &stop);
    gs::CpuExecuteOptions options;
    options.ThreadCount = 2;
    options.Checking = round % 2 ? gs::IndexChecking::Checked : gs::IndexChecking::Unchecked;
    const gs::Status status = gs::ExecuteOnCpu(
        op, {{inputData.data(), kColumns * 4}, {indexData.data(), kUpdates * 4},
             {updateData.data(), kUpdates * 4}, {view, kColumns * 4}},
        options);
    stop.store(true);
    flipper.join();
    EXPECT_TRUE(status.ok()) << "round " << round << ": " << status.message();
    // Every written element is an input or an update value; nothing outside the view changed.
    for (uint32_t j = 0; j < kColumns; ++j) {
      float value;
      std::memcpy(&value, view + j * 4, 4);
      ASSERT_TRUE(value == 1.0f || value == 2.0f) << "round " << round << ", element " << j;
    }
    for (size_t b = 0; b < kGuardBytes; ++b) {
      ASSERT_EQ(output[b], kGuard) << "round " << round << ": wrote before the output";
      ASSERT_EQ(output[kGuardBytes + kColumns * 4 + b], kGuard) << "round " << round << ": wrote after it";
    }
  }
}

}  // namespace
