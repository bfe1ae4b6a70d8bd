// A program that keeps its D3D12Engine in a global static until the process ends, as a
// runtime keeps its device. The engine's exit hook (gpu/d3d12/engine.cc), registered after the
// driver's own exit handlers (they are registered when the loader opens the driver inside
// D3D12Engine::Create), must have destroyed the device before those handlers run; the static's
// destructor then touches nothing. This program's handler DriverTeardown, registered before
// Create, runs after a real driver's handlers (and plays them on lavapipe, which has none that
// matter): by then the device must be gone. It holds no reference of its own (an earlier form
// of this test released its own last reference there, after the NVIDIA driver's handlers on
// the H100, which may itself have been that run's crash at exit): it learns of the device's
// destruction from a private-data interface, which the device releases when it is destroyed.
// Exit status 0 only when the device was gone in time and its destructor touched nothing
// afterwards; the run's calls must also give the CPU's bytes.
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

#include "d3d12/d3d12_api.h"  // ID3D12Device::SetPrivateDataInterface
#include "gpu_test_environment.h"
#include "gs/d3d12.h"

namespace {

std::unique_ptr<gs::D3D12Engine> g_engine;  // destructor registered before main: runs last

// Set to the device with SetPrivateDataInterface: the device takes a reference to it and
// releases that reference when the device is destroyed. A static object: counts nothing.
struct DestructionWatch : IUnknown {
  bool deviceGone = false;
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID, void** object) override {
    *object = nullptr;
    return E_NOINTERFACE;
  }
  ULONG STDMETHODCALLTYPE AddRef() override { return 2; }
  ULONG STDMETHODCALLTYPE Release() override {
    deviceGone = true;
    return 1;
  }
};
DestructionWatch g_watch;
const GUID kWatchGuid = {0x6a1c3e52, 0x0b7d, 0x4f1e, {0x9a, 0x41, 0x2d, 0x5c, 0x77, 0x10, 0xe3, 0x08}};

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

// Runs after a driver's exit handlers (registered before them): the device must be gone.
void DriverTeardown() {
  if (!g_engine) return;  // no device was made: nothing to tear down
  if (!g_watch.deviceGone) Fail("the device still existed when the driver's exit handlers had run");
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
#ifdef SIGBUS  // not on Windows
  std::signal(SIGBUS, OnCrash);
#endif
  std::atexit(DriverTeardown);  // before Create: the engine's hook comes after, so runs first
  const gs::Status made = gs::D3D12Engine::Create(nullptr, &g_engine);
  if (!made.ok()) {
    std::fprintf(stderr, "static_engine_exit: no D3D12 device: %s\n", made.message().c_str());
    return 1;
  }
  if (g_engine->device()->SetPrivateDataInterface(kWatchGuid, &g_watch) != S_OK) {
    Fail("the device took no private-data interface");
  }

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
