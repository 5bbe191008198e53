#include "apiserver/responses.h"

namespace propscaler::sim {

void WriteJson(httplib::Response& res, int code, std::string body) {
  res.status = code;
  res.body = std::move(body);
  res.set_header("Content-Type", "application/json");
}

void WriteError(httplib::Response& res, const ApiError& error) {
  WriteJson(res, error.code, error.ToStatusJson());
}

void WriteResult(httplib::Response& res, int ok_code,
                 const ApiResult<std::string>& result) {
  if (!result.ok()) {
    WriteError(res, result.error());
    return;
  }
  WriteJson(res, ok_code, *result);
}

}  // namespace propscaler::sim
