#include "apiserver/responses.h"

namespace propscaler::sim {

// kube-apiserver gzips a response only for a client that accepts gzip and
// only when the body is over 128 KiB. httplib compresses every
// application/json body for such a client, so smaller ones get a JSON media
// type it leaves alone. (httplib answers a client accepting "br" with
// brotli where the real server sends gzip; propscaler accepts gzip only.)
constexpr size_t kGzipThresholdBytes = 128 * 1024;

void WriteJson(httplib::Response& res, int code, std::string body) {
  res.status = code;
  res.set_header("Content-Type", body.size() > kGzipThresholdBytes
                                     ? "application/json"
                                     : "application/json;charset=utf-8");
  res.body = std::move(body);
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
