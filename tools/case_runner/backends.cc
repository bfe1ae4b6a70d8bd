// The backends gs-cases knows. D3D12 answers SKIP in a build without the D3D12 path
// (GS_CASES_D3D12 undefined) or on a machine where no device can be made.
#include "backend.h"

#ifdef GS_CASES_D3D12
#include "gs/d3d12.h"
#endif

namespace gs::cases {
namespace {

class CpuBackend final : public Backend {
 public:
  std::string name() const override { return "cpu"; }

  Status Execute(const CompiledOperator& op, const TensorBindings& bindings,
                 IndexChecking checking) override {
    CpuExecuteOptions options;
    options.Checking = checking;
    return ExecuteOnCpu(op, bindings, options);
  }
};

// A backend this build does not have: every case is skipped, with the reason.
class AbsentBackend final : public Backend {
 public:
  AbsentBackend(std::string name, std::string reason)
      : name_(std::move(name)), reason_(std::move(reason)) {}

  std::string name() const override { return name_; }
  std::string Unavailable() const override { return reason_; }

  Status Execute(const CompiledOperator&, const TensorBindings&, IndexChecking) override {
    return Status(StatusCode::Unsupported, reason_);
  }

 private:
  std::string name_;
  std::string reason_;
};

#ifdef GS_CASES_D3D12
// Every case through D3D12Engine::ExecuteOnHost on one engine (its own device).
class D3D12Backend final : public Backend {
 public:
  D3D12Backend() {
    const Status status = D3D12Engine::Create(nullptr, &engine_);
    if (!status.ok()) reason_ = "d3d12 device not available: " + status.message();
  }

  std::string name() const override { return "d3d12"; }
  std::string Unavailable() const override { return reason_; }

  Status Execute(const CompiledOperator& op, const TensorBindings& bindings,
                 IndexChecking checking) override {
    if (!engine_) return Status(StatusCode::Unsupported, reason_);
    return engine_->ExecuteOnHost(op, bindings, checking);
  }

 private:
  std::unique_ptr<D3D12Engine> engine_;
  std::string reason_;
};
#endif

}  // namespace

const std::vector<std::string>& BackendNames() {
  static const std::vector<std::string> kNames = {"cpu", "d3d12"};
  return kNames;
}

std::unique_ptr<Backend> MakeBackend(const std::string& name) {
  if (name == "cpu") return std::make_unique<CpuBackend>();
  if (name == "d3d12") {
#ifdef GS_CASES_D3D12
    return std::make_unique<D3D12Backend>();
#else
    return std::make_unique<AbsentBackend>("d3d12", "d3d12 backend not present (not built)");
#endif
  }
  return nullptr;
}

}  // namespace gs::cases
