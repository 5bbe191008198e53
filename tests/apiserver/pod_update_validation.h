// The real server's refusal of a pod update that changes its containers'
// resources: outside the pods/resize subresource a pod's spec is immutable
// but for images, activeDeadlineSeconds, tolerations and
// terminationGracePeriodSeconds, so a PUT or PATCH of the pod itself that
// resizes a container is 422 (in-place resize goes through pods/resize:
// apiserver/pod_resize.h). Only the resources are checked here.
#ifndef PROPSCALER_TESTS_APISERVER_POD_UPDATE_VALIDATION_H_
#define PROPSCALER_TESTS_APISERVER_POD_UPDATE_VALIDATION_H_

#include <rapidjson/document.h>

#include <optional>
#include <string>

#include "apiserver/api_error.h"
#include "apiserver/resources.h"

namespace propscaler::sim {

std::optional<ApiError> ValidatePodUpdate(const ResourceType& type,
                                          const std::string& name,
                                          const rapidjson::Value& before,
                                          const rapidjson::Value& after);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_POD_UPDATE_VALIDATION_H_
