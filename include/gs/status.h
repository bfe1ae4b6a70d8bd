// Errors cross the API as values, never as exceptions.
#pragma once

#include <string>
#include <utility>

namespace gs {

enum class StatusCode {
  Ok,
  InvalidArgument,  // the desc or the data break the contract; every backend says the same
  Unsupported,      // valid, but this backend cannot run it: the caller may fall back
  OutOfMemory,
  DeviceRemoved,    // the GPU device was removed (reset, lost): nothing ran; fall back or recreate
  Internal,
};

const char* StatusCodeName(StatusCode code);

class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::Ok; }
  StatusCode code() const { return code_; }
  // Names the operator, the tensor or field, the value and the rule.
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::Ok;
  std::string message_;
};

}  // namespace gs
