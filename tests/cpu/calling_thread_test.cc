// A call too small to be worth a second thread runs on the calling thread alone: it must not
// start oneTBB's workers (issue 24: GatherND1 with batch dims split 4 elements into a task per
// row). Its own executable, so that no earlier test has started the workers; threads are
// counted in /proc/self/task, so Linux only (under qemu-user too, which adds threads of its own:
// the count is compared with itself before the calls).
#include <gtest/gtest.h>

#include <dirent.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "gs/gs.h"

namespace gs {
namespace {

int ThreadsOfThisProcess() {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  int threads = 0;
  while (dirent* entry = readdir(dir)) threads += entry->d_name[0] != '.';
  closedir(dir);
  return threads;
}

// GATHER_ND1, FLOAT32 input 0, 1, 2, ... and INT64 indices; fails the test on an error.
std::vector<float> GatherNd1(const std::vector<uint32_t>& inputSizes,
                             const std::vector<uint32_t>& indicesSizes, const std::vector<int64_t>& indices,
                             const std::vector<uint32_t>& outputSizes, uint32_t batch) {
  auto count = [](const std::vector<uint32_t>& sizes) {
    uint64_t n = 1;
    for (uint32_t s : sizes) n *= s;
    return n;
  };
  std::vector<float> input(count(inputSizes)), output(count(outputSizes), -1.0f);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i);
  const auto rank = static_cast<uint32_t>(inputSizes.size());
  const TensorDesc in{DataType::Float32, rank, inputSizes.data(), nullptr, input.size() * 4};
  const TensorDesc idx{DataType::Int64, rank, indicesSizes.data(), nullptr, indices.size() * 8};
  const TensorDesc out{DataType::Float32, rank, outputSizes.data(), nullptr, output.size() * 4};
  const GatherNd1OperatorDesc desc{&in, &idx, &out, rank, rank, batch};
  CompiledOperator op;
  Status status = CompileOperator({OperatorType::GatherNd1, &desc}, &op);
  if (status.ok()) {
    status = ExecuteOnCpu(op, {{input.data(), in.TotalTensorSizeInBytes},
                               {indices.data(), idx.TotalTensorSizeInBytes},
                               {},
                               {output.data(), out.TotalTensorSizeInBytes}});
  }
  EXPECT_TRUE(status.ok()) << status.message();
  return output;
}

TEST(CallingThread, SmallTupleRowsStartNoThreads) {
  const int before = ThreadsOfThisProcess();
  ASSERT_GT(before, 0);
  // The shapes of ONNX Runtime's GatherND batch tests (tests/cases/onnxruntime_gather_nd1_batch.json).
  EXPECT_EQ(GatherNd1({2, 3, 4}, {2, 2, 2}, {0, 1, 0, 2, 1, 0, 0, 0}, {1, 2, 2}, 1),
            (std::vector<float>{1, 2, 16, 12}));
  EXPECT_EQ(GatherNd1({2, 1, 3, 5}, {2, 1, 3, 2}, {0, 0, 0, 1, 1, 0, 1, 1, 0, 4, 2, 4}, {1, 2, 1, 3}, 2),
            (std::vector<float>{0, 1, 5, 21, 19, 29}));
  // 1024 batches of 2 elements: 40 KiB of output and indices, still one task's worth.
  std::vector<int64_t> many(1024 * 2 * 2, 0);
  const std::vector<float> out = GatherNd1({1024, 3, 4}, {1024, 2, 2}, many, {1, 1024, 2}, 1);
  EXPECT_EQ(out[2 * 1023], 1023 * 12);
  EXPECT_EQ(ThreadsOfThisProcess(), before);
}

// The count above can tell: a call big enough to split does start workers, where there are
// cores for them.
TEST(CallingThread, ALargeCallStartsThreads) {
  const int before = ThreadsOfThisProcess();
  std::vector<int64_t> indices(1 << 20, 1);
  GatherNd1({1 << 19, 3, 4}, {1 << 19, 1, 2}, indices, {1, 1 << 19, 1}, 1);
  if (std::thread::hardware_concurrency() > 1) {
    EXPECT_GT(ThreadsOfThisProcess(), before);
  }
}

}  // namespace
}  // namespace gs
