// A program that keeps its D3D12Engine in a global static until the process ends, as a
// runtime keeps its device. On the H100 (2026-11-26) such a program segfaulted after main
// returned: the NVIDIA driver's own exit handlers, registered when the loader opened it inside
// D3D12Engine::Create, ran before the static's destructor (registered at start-up), which then
// released objects of a torn-down driver. lavapipe tolerates that order, so this program plays
// the driver: its handler, registered where a driver's are (before the engine's exit hook),
// requires the engine to hold no reference to the device any more, then destroys the device
// itself (the driver's teardown). Exit status 0 only when the engine gave everything back in time
// and its destructor touched nothing afterwards; the run's calls must also give the CPU's bytes.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unistd.h>
#if defined(__GLIBC__)
#include <execinfo.h>
#endif

#include "d3d12/d3d12_api.h"  // ID3D12Device's AddRef and Release
#include "gpu_test_environment.h"
#include "gs/d3d12.h"

namespace {

std::unique_ptr<gs::D3D12Engine> g_engine;  // destructor registered before main: runs last
ID3D12Device* g_device = nullptr;          // this program's own reference

void Fail(const char* what) {
  std::fprintf(stderr, "static_engine_exit: FAILED: %s\n", what);
  std::fflush(stderr);
  _exit(1);
}

// A crash at exit says where (on a real driver this test runs where no debugger is).
void OnCrash(int signal) {
  const char text[] = "static_engine_exit: crashed; the stack:\n";
  (void)!write(2, text, sizeof text - 1);
#if defined(__GLIBC__)
  void* frames[64];
  backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
#endif
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

// Runs where a driver's exit handlers run: after the engine's hook, before g_engine's destructor.
void DriverTeardown() {
  if (g_device == nullptr) return;  // no device was made: nothing to tear down
  g_device->AddRef();
  const unsigned long references = g_device->Release();
  if (references != 1) {
    std::fprintf(stderr, "static_engine_exit: the device has %lu references at the driver's teardown\n", references);
    Fail("the engine still held the device when the driver's exit handlers ran");
  }
  g_device->Release();  // the device goes while the driver still works
  g_device = nullptr;
  // Calls after the hook answer Unsupported rather than touch the released device.
  gs::TensorBindings none;
  gs::CompiledOperator op;
  const gs::Status late = g_engine->ExecuteOnHost(op, none);
  if (late.code() != gs::StatusCode::Unsupported || late.message().find("exiting") == std::string::npos) {
    Fail("a call after the exit hook did not answer Unsupported (the process is exiting)");
  }
}

}  // namespace

int main() {
  gs_gpu_test::ChooseLavapipeUnlessSet();
  std::signal(SIGSEGV, OnCrash);
  std::signal(SIGBUS, OnCrash);
  std::atexit(DriverTeardown);  // before Create: the engine's hook comes after, so runs first
  const gs::Status made = gs::D3D12Engine::Create(nullptr, &g_engine);
  if (!made.ok()) {
    std::fprintf(stderr, "static_engine_exit: no D3D12 device: %s\n", made.message().c_str());
    return 1;
  }
  g_device = g_engine->device();
  g_device->AddRef();

  const uint32_t inputSizes[] = {4, 3}, indexSizes[] = {2, 3};
  const gs::TensorDesc input{gs::DataType::Float32, 2, inputSizes, nullptr, 48};
  const gs::TensorDesc indices{gs::DataType::Int32, 2, indexSizes, nullptr, 24};
  const gs::TensorDesc output{gs::DataType::Float32, 2, indexSizes, nullptr, 24};
  const gs::GatherElementsOperatorDesc gather{&input, &indices, &output, 0};
  gs::CompiledOperator op;
  if (!gs::CompileOperator({gs::OperatorType::GatherElements, &gather}, &op).ok()) Fail("compiling the gather");
  float data[12], cpu[6], gpu[6];
  for (int i = 0; i < 12; ++i) data[i] = 1.5f * static_cast<float>(i);
  const int32_t rows[6] = {3, 0, 2, 1, 3, 0};
  std::memset(cpu, 0xcd, sizeof cpu);
  std::memset(gpu, 0xab, sizeof gpu);
  gs::TensorBindings b;
  b.InputTensor = {data, sizeof data};
  b.IndicesTensor = {rows, sizeof rows};
  b.OutputTensor = {cpu, sizeof cpu};
  if (!gs::ExecuteOnCpu(op, b).ok()) Fail("the CPU gather");
  b.OutputTensor = {gpu, sizeof gpu};
  const gs::Status ran = g_engine->ExecuteOnHost(op, b);
  if (!ran.ok()) Fail(ran.message().c_str());
  if (std::memcmp(cpu, gpu, sizeof cpu) != 0) Fail("the GPU gather's bytes differ from the CPU's");
  std::puts("static_engine_exit: the engine stays in its static until exit");
  return 0;
}
