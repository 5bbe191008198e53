#include "apiserver/api_error.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace propscaler::sim {
namespace {

std::string ReasonForCode(int code) {
  switch (code) {
    case 400:
      return "BadRequest";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "NotFound";
    case 405:
      return "MethodNotAllowed";
    case 409:
      return "Conflict";
    case 410:
      return "Expired";
    case 415:
      return "UnsupportedMediaType";
    case 422:
      return "Invalid";
    case 429:
      return "TooManyRequests";
    case 500:
      return "InternalError";
    case 503:
      return "ServiceUnavailable";
    case 504:
      return "Timeout";
    default:
      return "Unknown";
  }
}

}  // namespace

ApiError ApiError::BadRequest(std::string message) {
  return {400, "BadRequest", std::move(message)};
}

ApiError ApiError::NotFound(const std::string& resource,
                            const std::string& name) {
  return {404, "NotFound", resource + " \"" + name + "\" not found"};
}

ApiError ApiError::AlreadyExists(const std::string& resource,
                                 const std::string& name) {
  return {409, "AlreadyExists", resource + " \"" + name + "\" already exists"};
}

ApiError ApiError::Conflict(const std::string& resource,
                            const std::string& name, const std::string& why) {
  return {409, "Conflict",
          "Operation cannot be fulfilled on " + resource + " \"" + name +
              "\": " + why};
}

ApiError ApiError::Expired(std::string message) {
  return {410, "Expired", std::move(message)};
}

ApiError ApiError::Invalid(std::string message) {
  return {422, "Invalid", std::move(message)};
}

ApiError ApiError::MethodNotAllowed(std::string message) {
  return {405, "MethodNotAllowed", std::move(message)};
}

ApiError ApiError::Unauthorized() {
  return {401, "Unauthorized", "Unauthorized"};
}

ApiError ApiError::ForCode(int code, std::string message) {
  return {code, ReasonForCode(code), std::move(message)};
}

std::string ApiError::ToStatusJson() const {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("kind");
  w.String("Status");
  w.Key("apiVersion");
  w.String("v1");
  w.Key("metadata");
  w.StartObject();
  w.EndObject();
  w.Key("status");
  w.String("Failure");
  w.Key("message");
  w.String(message);
  w.Key("reason");
  w.String(reason);
  w.Key("code");
  w.Int(code);
  w.EndObject();
  return buffer.GetString();
}

Status ApiError::ToStatus() const {
  StatusCode status_code = StatusCode::kInternal;
  switch (code) {
    case 400:
    case 422:
      status_code = StatusCode::kInvalidArgument;
      break;
    case 401:
      status_code = StatusCode::kUnauthenticated;
      break;
    case 403:
      status_code = StatusCode::kPermissionDenied;
      break;
    case 404:
      status_code = StatusCode::kNotFound;
      break;
    case 409:
      status_code = StatusCode::kConflict;
      break;
    case 410:
      status_code = StatusCode::kGone;
      break;
    case 429:
    case 503:
      status_code = StatusCode::kUnavailable;
      break;
    default:
      break;
  }
  return Status(status_code, reason + ": " + message);
}

}  // namespace propscaler::sim
