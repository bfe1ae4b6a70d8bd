// A device without an optional feature the kernels need gets StatusCode::Unsupported naming
// it, never a pipeline that reads what the device cannot: the whole engine when the device
// cannot bind the kernels' 25 UAVs, and only a scatter's reduction on 1- and 2-byte elements
// when it lacks typed UAV loads of their formats (features.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "d3d12/d3d12_api.h"
#include "feature_masking.h"
#include "gpu_test_environment.h"
#include "gs/gs.h"

namespace {

using ::testing::HasSubstr;

// SCATTER_ELEMENTS of 8 elements of `type` along axis 0: updates 2 and 3 onto element 5.
struct SmallScatter {
  uint32_t sizes[1] = {8};
  uint32_t updateSizes[1] = {2};
  gs::TensorDesc data, indices, updates;
  gs::ScatterElementsOperatorDesc desc;
  gs::CompiledOperator op;
  std::vector<uint64_t> input = std::vector<uint64_t>(8, 0), update = {0, 0};
  std::vector<int32_t> index = {5, 5};
  std::vector<uint64_t> output = std::vector<uint64_t>(8, 0xa5a5a5a5a5a5a5a5u);
  uint64_t bytes;

  SmallScatter(gs::DataType type, uint32_t elementBytes, gs::Reduction reduction)
      : data{type, 1, sizes, nullptr, 8 * elementBytes},
        indices{gs::DataType::Int32, 1, updateSizes, nullptr, 8},
        updates{type, 1, updateSizes, nullptr, 2 * elementBytes},
        desc{&data, &indices, &updates, &data, 0, reduction},
        bytes(8 * elementBytes) {
    EXPECT_TRUE(gs::CompileOperator({gs::OperatorType::ScatterElements, &desc}, &op).ok());
    auto* in = reinterpret_cast<uint8_t*>(input.data());
    for (uint32_t i = 0; i < bytes; ++i) in[i] = static_cast<uint8_t>(i + 1);
    auto* up = reinterpret_cast<uint8_t*>(update.data());
    up[0] = 2, up[elementBytes] = 3;
  }
  gs::TensorBindings Bindings() {
    return {{input.data(), bytes}, {index.data(), 8}, {update.data(), updates.TotalTensorSizeInBytes}, {output.data(), bytes}};
  }
};

class DeviceFeatures : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    shared_ = gs_gpu_test::SharedEngine(&why);
    ASSERT_NE(shared_, nullptr) << why;
  }
  void TearDown() override {
    if (shared_ != nullptr) gs::test::RestoreDeviceFeatures(shared_->device());
  }
  // An engine made on the shared engine's device while it hides `hidden`.
  gs::Status CreateWithout(gs::test::HiddenFeatures hidden, std::unique_ptr<gs::D3D12Engine>* engine) {
    gs::test::HideDeviceFeatures(shared_->device(), hidden);
    const gs::Status status = gs::D3D12Engine::Create(shared_->device(), engine);
    gs::test::RestoreDeviceFeatures(shared_->device());
    return status;
  }
  // A runtime that takes the kernels and runs them wrong (here: its queue runs nothing, as
  // Wine 8.0's vkd3d 1.6 binds nothing on lavapipe) is refused at Create, not found out in the
  // bytes.
  void ExpectAQueueThatRunsNothingRefused() {
    gs::test::HiddenFeatures hidden;
    hidden.dispatches = true;
    std::unique_ptr<gs::D3D12Engine> engine;
    const gs::Status status = CreateWithout(hidden, &engine);
    EXPECT_EQ(status.code(), gs::StatusCode::Unsupported);
    // What comes back from a queue that ran nothing is whatever the read-back memory held: wrong
    // bytes, or a failure read from a pass that never ran.
    EXPECT_THAT(status.message(), HasSubstr("D3D12Engine: the device ran a known 8-element gather wrong ("));
    EXPECT_THAT(status.message(), HasSubstr("use ExecuteOnCpu"));
    EXPECT_EQ(engine, nullptr);
  }
  gs::D3D12Engine* shared_ = nullptr;
};

TEST_F(DeviceFeatures, ADeviceThatRunsTheKernelsWrongIsRefusedAtCreate) { ExpectAQueueThatRunsNothingRefused(); }

// A driver that reuses memory unzeroed (lavapipe 25) may hold in that memory the answer an
// engine made just before on the same device gave to the same check: the check must refuse
// the queue all the same.
TEST_F(DeviceFeatures, AQueueThatRunsNothingIsRefusedRightAfterAnEngineThatPassed) {
  {
    std::unique_ptr<gs::D3D12Engine> passed;
    ASSERT_TRUE(gs::D3D12Engine::Create(shared_->device(), &passed).ok());
  }
  ExpectAQueueThatRunsNothingRefused();
}

TEST_F(DeviceFeatures, BindingTier1OnFeatureLevel11_0IsRefusedAtCreate) {
  gs::test::HiddenFeatures hidden;
  hidden.bindingTier1At11_0 = true;
  std::unique_ptr<gs::D3D12Engine> engine;
  const gs::Status status = CreateWithout(hidden, &engine);
  EXPECT_EQ(status.code(), gs::StatusCode::Unsupported);
  EXPECT_THAT(status.message(), HasSubstr("D3D12Engine: the device has D3D12_RESOURCE_BINDING_TIER_1 on feature level 11_0"));
  EXPECT_THAT(status.message(), HasSubstr("the kernels bind 25"));
  EXPECT_EQ(engine, nullptr);
}

TEST_F(DeviceFeatures, WithoutTypedUavLoadsReductionsOnSmallElementsAreRefused) {
  gs::test::HiddenFeatures hidden;
  hidden.typedUavLoads = true;
  std::unique_ptr<gs::D3D12Engine> engine;
  ASSERT_TRUE(CreateWithout(hidden, &engine).ok());
  const struct {
    gs::DataType type;
    uint32_t bytes;
    const char* format;
  } refused[] = {{gs::DataType::UInt8, 1, "DXGI_FORMAT_R8_UINT"},
                 {gs::DataType::Int16, 2, "DXGI_FORMAT_R16_UINT"}};
  for (const auto& c : refused) {
    SmallScatter scatter(c.type, c.bytes, gs::Reduction::Add);
    const gs::Status status = engine->ExecuteOnHost(scatter.op, scatter.Bindings());
    EXPECT_EQ(status.code(), gs::StatusCode::Unsupported) << c.format;
    EXPECT_THAT(status.message(), HasSubstr(std::string("SCATTER_ELEMENTS: D3D12: a scatter's reduction reads its "
                                                        "output through typed UAV loads of ") + c.format));
    EXPECT_THAT(status.message(), HasSubstr("TypedUAVLoadAdditionalFormats"));
    EXPECT_EQ(scatter.output, std::vector<uint64_t>(8, 0xa5a5a5a5a5a5a5a5u)) << "written: " << c.format;
  }
}

// What needs no optional typed load still runs there, with the CPU engine's bytes: R32 loads
// are core (8-byte outputs are read as two R32 words), and a scatter without reduction never
// reads its output.
TEST_F(DeviceFeatures, WithoutTypedUavLoadsTheRestRuns) {
  gs::test::HiddenFeatures hidden;
  hidden.typedUavLoads = true;
  std::unique_ptr<gs::D3D12Engine> engine;
  ASSERT_TRUE(CreateWithout(hidden, &engine).ok());
  const struct {
    gs::DataType type;
    uint32_t bytes;
    gs::Reduction reduction;
  } runs[] = {{gs::DataType::UInt32, 4, gs::Reduction::Add}, {gs::DataType::UInt64, 8, gs::Reduction::Add},
              {gs::DataType::Int64, 8, gs::Reduction::Max}, {gs::DataType::UInt8, 1, gs::Reduction::None}};
  for (const auto& c : runs) {
    SmallScatter gpu(c.type, c.bytes, c.reduction), cpu(c.type, c.bytes, c.reduction);
    const gs::Status status = engine->ExecuteOnHost(gpu.op, gpu.Bindings());
    ASSERT_TRUE(status.ok()) << status.message();
    ASSERT_TRUE(gs::ExecuteOnCpu(cpu.op, cpu.Bindings()).ok());
    EXPECT_EQ(gpu.output, cpu.output) << c.bytes << "-byte elements";
  }
}

}  // namespace
