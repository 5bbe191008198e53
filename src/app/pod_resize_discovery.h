// Whether the server serves the pods/resize subresource of in-place pod
// resize (vertical mode's --resize=in-place): Kubernetes 1.33+ with the
// InPlacePodVerticalScaling gate on lists it in GET /api/v1.
#ifndef PROPSCALER_APP_POD_RESIZE_DISCOVERY_H_
#define PROPSCALER_APP_POD_RESIZE_DISCOVERY_H_

#include "common/status.h"
#include "transport/api.h"

namespace propscaler {

Result<bool> ServesPodResize(const kube::KubeApi& api);

}  // namespace propscaler

#endif  // PROPSCALER_APP_POD_RESIZE_DISCOVERY_H_
