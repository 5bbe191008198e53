// A PodTemplate (core v1) as node-scale mode keeps it: the pod it
// describes, for the ProvisioningRequests whose podSets name it. Cluster
// Autoscaler reads them through an informer every loop
// (../shared/reference/provisioning-request.md); so does propscaler.
#ifndef PROPSCALER_KUBE_MODEL_REQUEST_POD_TEMPLATE_H_
#define PROPSCALER_KUBE_MODEL_REQUEST_POD_TEMPLATE_H_

#include <map>
#include <string>

#include "kube/model/node_scale_objects.h"

namespace propscaler::kube {

struct PodTemplate {
  std::string namespace_;
  std::string name;
  std::string resource_version;
  PodState pod;  // in the template's namespace
  // Why `pod` could not be read from the template, "" when it could: one
  // bad template fails the requests that name it, not the watch.
  std::string error;
  std::string Key() const { return namespace_ + "/" + name; }
};

// The PodTemplates by "namespace/name".
using PodTemplateMap = std::map<std::string, PodTemplate>;

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_REQUEST_POD_TEMPLATE_H_
