// Kubernetes API errors as the simulated server reports them: an HTTP code
// and a Status object ({"kind":"Status","status":"Failure","reason":...}).
//
// ApiResult<T> holds a T or an ApiError, like propscaler::Result but keeping
// the Kubernetes reason (AlreadyExists and Conflict are both 409).
#ifndef PROPSCALER_TESTS_APISERVER_API_ERROR_H_
#define PROPSCALER_TESTS_APISERVER_API_ERROR_H_

#include <string>
#include <utility>
#include <variant>

#include "common/status.h"

namespace propscaler::sim {

struct ApiError {
  int code = 500;
  std::string reason;  // "NotFound", "AlreadyExists", "Conflict", ...
  std::string message;

  static ApiError BadRequest(std::string message);
  static ApiError NotFound(const std::string& resource,
                           const std::string& name);
  static ApiError AlreadyExists(const std::string& resource,
                                const std::string& name);
  static ApiError Conflict(const std::string& resource, const std::string& name,
                           const std::string& why);
  static ApiError Expired(std::string message);
  static ApiError Invalid(std::string message);
  static ApiError MethodNotAllowed(std::string message);
  static ApiError Unauthorized();
  static ApiError ForCode(int code, std::string message);

  // The Status object, compact JSON.
  std::string ToStatusJson() const;
  // The same error as a propscaler::Status, for the C++ test API.
  Status ToStatus() const;
};

template <typename T>
class ApiResult {
 public:
  ApiResult(T value) : value_(std::move(value)) {}         // NOLINT: implicit
  ApiResult(ApiError error) : value_(std::move(error)) {}  // NOLINT: implicit

  bool ok() const { return std::holds_alternative<T>(value_); }
  const ApiError& error() const { return std::get<ApiError>(value_); }
  const T& value() const& { return std::get<T>(value_); }
  T& value() & { return std::get<T>(value_); }
  T&& value() && { return std::get<T>(std::move(value_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, ApiError> value_;
};

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_API_ERROR_H_
