// A removed device (GPU reset or lost) gives StatusCode::DeviceRemoved with a message, never a
// hang, a crash or bytes the GPU never wrote: before a call, while waiting for it, and when a
// recorded operator's result is asked for.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "d3d12/d3d12_api.h"
#include "d3d12/resources.h"
#include "device_removal.h"
#include "gpu_test_environment.h"
#include "gs/gs.h"

namespace {

using gs::d3d12::ComPtr;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// GATHER_ELEMENTS of a 4x8 float32 input along axis 1 with 4x8 int32 indices.
struct SmallGather {
  uint32_t sizes[2] = {4, 8};
  gs::TensorDesc input{gs::DataType::Float32, 2, sizes, nullptr, 128};
  gs::TensorDesc indices{gs::DataType::Int32, 2, sizes, nullptr, 128};
  gs::TensorDesc output{gs::DataType::Float32, 2, sizes, nullptr, 128};
  gs::GatherElementsOperatorDesc desc{&input, &indices, &output, 1};
  gs::CompiledOperator op;
  std::vector<float> inputData = std::vector<float>(32);
  std::vector<int32_t> indexData = std::vector<int32_t>(32);
  std::vector<uint32_t> outputData = std::vector<uint32_t>(32, 0xdeadbeef);

  SmallGather() {
    EXPECT_TRUE(gs::CompileOperator({gs::OperatorType::GatherElements, &desc}, &op).ok());
    for (int i = 0; i < 32; ++i) {
      inputData[i] = 0.5f * static_cast<float>(i);
      indexData[i] = (i * 5) % 8 - 4;  // negative and positive, all in range
    }
  }
  gs::TensorBindings Bindings() {
    return {{inputData.data(), 128}, {indexData.data(), 128}, {}, {outputData.data(), 128}};
  }
};

class DeviceRemoved : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    engine_ = gs_gpu_test::SharedEngine(&why);
    ASSERT_NE(engine_, nullptr) << why;
  }
  void TearDown() override {
    if (engine_ != nullptr) gs::test::RestoreDevice(engine_->device());
  }
  void ExpectRemovedStatus(const gs::Status& status, const char* call) {
    EXPECT_EQ(status.code(), gs::StatusCode::DeviceRemoved) << status.message();
    EXPECT_THAT(status.message(), StartsWith(std::string("GATHER_ELEMENTS: ") + call));
    EXPECT_THAT(status.message(), HasSubstr("the D3D12 device was removed (GetDeviceRemovedReason 0x887a0005)"));
  }
  gs::D3D12Engine* engine_ = nullptr;
};

TEST_F(DeviceRemoved, BeforeExecuteNothingRunsAndTheOutputIsUntouched) {
  SmallGather gather;
  gs::test::SimulateDeviceRemoval(engine_->device());
  ExpectRemovedStatus(engine_->ExecuteOnHost(gather.op, gather.Bindings()), "D3D12Engine::ExecuteOnHost");
  EXPECT_EQ(gather.outputData, std::vector<uint32_t>(32, 0xdeadbeef));
}

// On an engine of its own: removal while a call is in flight is final for that engine.
TEST_F(DeviceRemoved, WhileWaitingTheCallGivesUpWithoutReadingBackAndLaterCallsFail) {
  SmallGather gather;
  std::unique_ptr<gs::D3D12Engine> own;
  ASSERT_TRUE(gs::D3D12Engine::Create(nullptr, &own).ok());
  gs::test::SimulateDeviceRemoval(own->device(), /*healthyAnswers=*/1);  // removed after submitting
  ExpectRemovedStatus(own->ExecuteOnHost(gather.op, gather.Bindings()), "D3D12Engine::ExecuteOnHost");
  EXPECT_EQ(gather.outputData, std::vector<uint32_t>(32, 0xdeadbeef));
  gs::test::RestoreDevice(own->device());
  ExpectRemovedStatus(own->ExecuteOnHost(gather.op, gather.Bindings()), "D3D12Engine::ExecuteOnHost");
  EXPECT_EQ(gather.outputData, std::vector<uint32_t>(32, 0xdeadbeef));
}

TEST_F(DeviceRemoved, RecordRefusesAndResultReportsIt) {
  SmallGather gather;
  ID3D12Device* device = engine_->device();
  ComPtr<ID3D12CommandAllocator> allocator;
  ComPtr<ID3D12GraphicsCommandList> list;
  ASSERT_TRUE(SUCCEEDED(device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE,
                                                       ComPtr<ID3D12CommandAllocator>::Iid(), allocator.Receive())));
  ASSERT_TRUE(SUCCEEDED(device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, allocator.get(), nullptr,
                                                  ComPtr<ID3D12GraphicsCommandList>::Iid(), list.Receive())));
  ComPtr<ID3D12Resource> buffer = gs::d3d12::CreateBuffer(device, D3D12_HEAP_TYPE_DEFAULT, 512,
                                                          D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
                                                          D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
  ASSERT_NE(buffer.get(), nullptr);
  gs::D3D12Bindings bindings;
  bindings.InputTensor = {buffer.get(), 0, 128};
  bindings.IndicesTensor = {buffer.get(), 128, 128};
  bindings.OutputTensor = {buffer.get(), 256, 128};

  // Recorded on a healthy device, the device removed before the list ran: Result() says so
  // instead of decoding status words that were never written.
  std::unique_ptr<gs::D3D12Recording> recording;
  gs::Status status = engine_->Record(gather.op, list.get(), bindings, gs::IndexChecking::Checked, &recording);
  ASSERT_TRUE(status.ok()) << status.message();
  gs::test::SimulateDeviceRemoval(device);
  ExpectRemovedStatus(recording->Result(), "D3D12Recording::Result");

  // On a removed device nothing is recorded.
  std::unique_ptr<gs::D3D12Recording> refused;
  ExpectRemovedStatus(engine_->Record(gather.op, list.get(), bindings, gs::IndexChecking::Checked, &refused),
                      "D3D12Engine::Record");
  EXPECT_EQ(refused, nullptr);
  list->Close();
}

TEST_F(DeviceRemoved, TheEngineRunsAgainOnceTheDeviceAnswersHealthy) {
  SmallGather gather;
  gs::test::SimulateDeviceRemoval(engine_->device());
  ASSERT_EQ(engine_->ExecuteOnHost(gather.op, gather.Bindings()).code(), gs::StatusCode::DeviceRemoved);
  gs::test::RestoreDevice(engine_->device());
  const gs::Status status = engine_->ExecuteOnHost(gather.op, gather.Bindings());
  ASSERT_TRUE(status.ok()) << status.message();
  std::vector<uint32_t> expected(32, 0xdeadbeef);
  ASSERT_TRUE(gs::ExecuteOnCpu(gather.op, {{gather.inputData.data(), 128}, {gather.indexData.data(), 128}, {},
                                           {expected.data(), 128}})
                  .ok());
  EXPECT_EQ(gather.outputData, expected);
}

}  // namespace
