// The checks the real server makes of a HorizontalPodAutoscaler's bounds,
// so a minReplicas the simulated server accepts the real one accepts too:
// spec.minReplicas at least 1 (without the HPAScaleToZero gate) and
// spec.maxReplicas at least 1 and at least minReplicas.
#ifndef PROPSCALER_TESTS_APISERVER_HPA_VALIDATION_H_
#define PROPSCALER_TESTS_APISERVER_HPA_VALIDATION_H_

#include <rapidjson/document.h>

#include <optional>
#include <string>

#include "apiserver/api_error.h"
#include "apiserver/resources.h"

namespace propscaler::sim {

std::optional<ApiError> ValidateHpaBounds(const ResourceType& type,
                                          const std::string& name,
                                          const rapidjson::Value& object);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_HPA_VALIDATION_H_
