// The workloads whose pod template vertical mode sizes (deployment,
// daemonset, replicaset, statefulset: apps/v1), as the --target flag names
// them, and what it reads and writes of them: each container's resource
// requests and limits, and a strategic merge patch that sets only the
// named containers' named resources under the resourceVersion that was
// read (the server answers 409 when the workload changed since): see
// wire/pod_template_json.h.
#ifndef PROPSCALER_KUBE_MODEL_POD_TEMPLATE_H_
#define PROPSCALER_KUBE_MODEL_POD_TEMPLATE_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace propscaler::kube {

struct WorkloadRef {
  enum class Kind { kDeployment, kDaemonSet, kReplicaSet, kStatefulSet };
  Kind kind = Kind::kDeployment;
  std::string name;

  // "deployment/coredns".
  std::string ToString() const;
  // "/apis/apps/v1/namespaces/NS/deployments/coredns".
  std::string Path(const std::string& ns) const;
  std::string Collection() const;  // "deployments"
  std::string ApiKind() const;     // "Deployment"
};

// cluster-proportional-vertical-autoscaler's --target: KIND/NAME with KIND
// deployment, daemonset, replicaset or statefulset, singular; the whole flag
// is lower-cased first (kind and name), as CPVA takes it.
// Errors name the value and what is wrong.
Result<WorkloadRef> ParseWorkloadRef(std::string_view flag);

// Quantities as the server wrote them, by resource name.
using ResourceList = std::map<std::string, std::string>;

struct ContainerResources {
  std::string name;
  ResourceList requests;
  ResourceList limits;
  bool operator==(const ContainerResources&) const = default;
};

// The container named `name` among `containers`; nullptr when absent.
const ContainerResources* FindContainer(
    const std::vector<ContainerResources>& containers, const std::string& name);

struct PodTemplateWorkload {
  std::string name;
  std::string uid;
  std::string resource_version;
  std::vector<ContainerResources> containers;  // spec.template.spec's
  // spec.selector in its string form ("k8s-app=kube-dns"); empty when the
  // workload has none or it cannot be read.
  std::string pod_selector;
  // spec.updateStrategy.type (daemonsets, statefulsets): "OnDelete",
  // "RollingUpdate", or empty.
  std::string update_strategy;
  // Its controller has not yet rolled out its newest template: it has not
  // observed its generation, or fewer pods are updated than wanted (false
  // where no controller has ever written its status).
  bool rolling_out = false;
};

// Whether a change to `kind`'s pod template replaces its running pods:
// always for deployments; for daemonsets and statefulsets unless their
// update strategy is OnDelete; never for replicasets.
bool TemplateChangeRolls(WorkloadRef::Kind kind,
                         const std::string& update_strategy);

// What to set on one container; resources not named keep their values.
struct ContainerResourcesEdit {
  std::string container;
  ResourceList requests;
  ResourceList limits;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_POD_TEMPLATE_H_
