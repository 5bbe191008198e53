// The checks the real server makes of a workload's pod template that the
// simulated one makes too, so a write it accepts the real one accepts:
// every container has a name and an image, and no request exceeds its
// limit. Only objects that carry spec.template.spec.containers are checked.
#ifndef PROPSCALER_TESTS_APISERVER_POD_TEMPLATE_VALIDATION_H_
#define PROPSCALER_TESTS_APISERVER_POD_TEMPLATE_VALIDATION_H_

#include <rapidjson/document.h>

#include <optional>
#include <string>

#include "apiserver/api_error.h"
#include "apiserver/resources.h"

namespace propscaler::sim {

std::optional<ApiError> ValidatePodTemplate(const ResourceType& type,
                                            const std::string& name,
                                            const rapidjson::Value& object);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_POD_TEMPLATE_VALIDATION_H_
