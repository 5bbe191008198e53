// The JSON of ProvisioningRequests (autoscaling.x-k8s.io/v1; CRDs serve no
// protobuf), their paths, and the merge patch of their conditions.
#ifndef PROPSCALER_KUBE_WIRE_PROVISIONING_REQUEST_JSON_H_
#define PROPSCALER_KUBE_WIRE_PROVISIONING_REQUEST_JSON_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "kube/model/list_watch.h"
#include "kube/model/node_scale_objects.h"
#include "kube/model/provisioning_request.h"
#include "kube/model/request_pod_template.h"

namespace propscaler::kube {

inline constexpr char kProvisioningRequestApi[] =
    "/apis/autoscaling.x-k8s.io/v1";

ListWatchCodec<ProvisioningRequest> ProvisioningRequestCodec();
// PodTemplates (core v1); a template whose pod cannot be read is kept with
// its error (kube/model/request_pod_template.h).
ListWatchCodec<PodTemplate> RequestPodTemplateCodec();
Result<ProvisioningRequest> DecodeProvisioningRequest(std::string_view body);

// What `propscaler simulate --provisioning-requests` reads: a List of
// ProvisioningRequests and PodTemplates, as `kubectl get
// provisioningrequests,podtemplates -A -o json` prints it.
struct ProvisioningRequestsFile {
  std::vector<ProvisioningRequest> requests;
  PodTemplateMap pod_templates;
};
Result<ProvisioningRequestsFile> DecodeProvisioningRequestsFile(
    std::string_view json);

// "/apis/autoscaling.x-k8s.io/v1/namespaces/NS/provisioningrequests/NAME".
std::string ProvisioningRequestPath(const ProvisioningRequest& request);

// A merge patch of the status subresource under the resourceVersion read:
// the request's conditions with each of `set` in place of the one of its
// type (or added), every other field untouched.
std::string EncodeProvisioningRequestConditions(
    const ProvisioningRequest& request,
    const std::vector<ProvReqCondition>& set);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_PROVISIONING_REQUEST_JSON_H_
