// The checks the real server makes of every object's metadata.labels
// values (apimachinery's IsValidLabelValue): at most 63 characters,
// alphanumerics, '-', '_' and '.', starting and ending with an
// alphanumeric. A label the simulated server accepts, the real one does.
#ifndef PROPSCALER_TESTS_APISERVER_LABEL_VALIDATION_H_
#define PROPSCALER_TESTS_APISERVER_LABEL_VALIDATION_H_

#include <rapidjson/document.h>

#include <optional>
#include <string>

#include "apiserver/api_error.h"
#include "apiserver/resources.h"

namespace propscaler::sim {

std::optional<ApiError> ValidateLabelValues(const ResourceType& type,
                                            const std::string& name,
                                            const rapidjson::Value& object);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_LABEL_VALIDATION_H_
