// The backends gs-cases knows. D3D12 is not built yet: it answers SKIP until it is.
#include "backend.h"

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

}  // namespace

const std::vector<std::string>& BackendNames() {
  static const std::vector<std::string> kNames = {"cpu", "d3d12"};
  return kNames;
}

std::unique_ptr<Backend> MakeBackend(const std::string& name) {
  if (name == "cpu") return std::make_unique<CpuBackend>();
  if (name == "d3d12") {
    return std::make_unique<AbsentBackend>("d3d12", "d3d12 backend not present (not built)");
  }
  return nullptr;
}

}  // namespace gs::cases
