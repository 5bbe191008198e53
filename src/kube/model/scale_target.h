// A workload whose replica count is set through its scale subresource, and
// the --target flag that lists them ("deployment/coredns,statefulset/x").
// Cluster API's MachineDeployments, MachineSets and MachinePools are scale
// targets too (node-scale mode's groups), but not --target kinds.
#ifndef PROPSCALER_KUBE_MODEL_SCALE_TARGET_H_
#define PROPSCALER_KUBE_MODEL_SCALE_TARGET_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace propscaler::kube {

struct ScaleTarget {
  enum class Kind {
    kDeployment,
    kReplicaSet,
    kReplicationController,
    kStatefulSet,
    kMachineDeployment,
    kMachineSet,
    kMachinePool
  };
  Kind kind = Kind::kDeployment;
  std::string name;
  // Cluster API's kinds: the group/version they are served in, when not
  // cluster.x-k8s.io/v1beta1 (kube/model/cluster_api.h).
  std::string group_version;

  // "deployment/coredns": the canonical kind/name form used in logs.
  std::string ToString() const;
  // The collection's path in `ns`, e.g.
  // /apis/apps/v1/namespaces/NS/deployments.
  std::string CollectionPath(const std::string& ns) const;
  std::string ScalePath(const std::string& ns) const;
  // The Kind as the API spells it, e.g. "Deployment"; and its apiVersion.
  std::string ApiKind() const;
  std::string ApiVersion() const;

  bool operator==(const ScaleTarget&) const = default;
};

// Parses a comma list of KIND/NAME, lower-cased whole first (kind and name,
// as cluster-proportional-autoscaler takes it). Kinds may be plural; an
// empty entry is an error, as in CPA. Errors name the entry and why it is
// wrong.
Result<std::vector<ScaleTarget>> ParseScaleTargets(std::string_view flag);

// --target-selector: every workload of `kind` in the namespace whose labels
// match `label_selector` is a target.
struct TargetSelector {
  ScaleTarget::Kind kind = ScaleTarget::Kind::kDeployment;
  std::string label_selector;  // valid and not empty

  // "deployment:k8s-app=kube-dns".
  std::string ToString() const;
  // A target of the kind named `name`.
  ScaleTarget Named(std::string name) const;
};

// Parses KIND:LABEL-SELECTOR (kinds as --target's, the kind case-blind, the
// selector as written). An empty or invalid selector is an error naming it:
// an empty one would make every workload of the kind a target.
Result<TargetSelector> ParseTargetSelector(std::string_view flag);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_SCALE_TARGET_H_
