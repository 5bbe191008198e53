// Status and Result: errors as values across module boundaries.
//
// A Status is either OK or carries a code and a message that says what
// failed, on which object, and what the bad value was. Result<T> holds a T
// or a non-OK Status. Both are cheap to move and never throw, and both are
// [[nodiscard]]: an error is handled, passed on, or dropped on purpose with
// a (void) cast that says why.
#ifndef PROPSCALER_COMMON_STATUS_H_
#define PROPSCALER_COMMON_STATUS_H_

#include <string>
#include <utility>
#include <variant>

namespace propscaler {

enum class StatusCode {
  kOk,
  kInvalidArgument,   // bad input: flags, params, quantities, files
  kNotFound,          // 404
  kConflict,          // 409: stale resourceVersion or already exists
  kGone,              // 410: resourceVersion too old, list again
  kUnavailable,       // network errors, 5xx, 429: worth retrying
  kUnauthenticated,   // 401: the credentials were refused
  kPermissionDenied,  // 403: RBAC does not allow the call
  kInternal,          // everything else
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }
  static Status Invalid(std::string m) {
    return Status(StatusCode::kInvalidArgument, std::move(m));
  }
  static Status NotFound(std::string m) {
    return Status(StatusCode::kNotFound, std::move(m));
  }
  static Status Internal(std::string m) {
    return Status(StatusCode::kInternal, std::move(m));
  }
  static Status Unavailable(std::string m) {
    return Status(StatusCode::kUnavailable, std::move(m));
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // Returns a copy whose message is "context: message".
  Status WithContext(const std::string& context) const {
    if (ok()) return *this;
    return Status(code_, context + ": " + message_);
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : value_(std::move(status)) {}  // NOLINT

  bool ok() const { return std::holds_alternative<T>(value_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(value_);
  }
  const T& value() const& { return std::get<T>(value_); }
  T& value() & { return std::get<T>(value_); }
  T&& value() && { return std::get<T>(std::move(value_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  std::variant<T, Status> value_;
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_STATUS_H_
