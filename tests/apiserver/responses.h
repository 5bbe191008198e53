// Writing JSON answers and Kubernetes Status errors into httplib responses.
#ifndef PROPSCALER_TESTS_APISERVER_RESPONSES_H_
#define PROPSCALER_TESTS_APISERVER_RESPONSES_H_

#include <httplib.h>

#include <string>

#include "apiserver/api_error.h"

namespace propscaler::sim {

void WriteJson(httplib::Response& res, int code, std::string body);
void WriteError(httplib::Response& res, const ApiError& error);

// A string body or its error.
void WriteResult(httplib::Response& res, int ok_code,
                 const ApiResult<std::string>& result);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_RESPONSES_H_
