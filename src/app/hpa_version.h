// Which autoscaling version --hpa-floor writes HorizontalPodAutoscalers
// through: v2 where the server serves it (Kubernetes 1.23 and later), else
// v1 (served by every release). Asked once at start (GET /apis/autoscaling).
#ifndef PROPSCALER_APP_HPA_VERSION_H_
#define PROPSCALER_APP_HPA_VERSION_H_

#include <string>

#include "common/status.h"
#include "transport/api.h"

namespace propscaler {

// "v2" or "v1"; an error naming the request when discovery fails.
Result<std::string> ResolveHpaVersion(const kube::KubeApi& api);

}  // namespace propscaler

#endif  // PROPSCALER_APP_HPA_VERSION_H_
