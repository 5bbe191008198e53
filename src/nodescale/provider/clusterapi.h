// The Cluster API provider, as Cluster Autoscaler's clusterapi provider
// finds node groups: MachineDeployments, and MachineSets no
// MachineDeployment owns, with a max size above 0 in
// cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size (min-size
// defaults to 0) and not cluster.x-k8s.io/paused; each named as CA names
// it, "MachineDeployment/NS/NAME" (so CA's priority-expander patterns
// match). Sizes are read from spec.replicas and changed through the /scale
// subresource (the watched copy changed by the delta, written under its
// resourceVersion; on a 409 a fresh read of the scale, so another writer's
// change is added to, never overwritten). The objects are held by watches
// (clusterapi_objects.h): a loop at rest sends nothing, and the groups are
// worked out again only when an object changed.
// A node's Machine is named by the node's cluster.x-k8s.io/machine
// annotation (with cluster.x-k8s.io/cluster-namespace), or else has its
// normalised spec.providerID; the Machine's group is its owning MachineSet,
// or that set's owning MachineDeployment (a Machine without owners: its
// deployment-name / set-name labels). Nodes are removed by annotating their
// Machines cluster.x-k8s.io/delete-machine, then lowering replicas once.
// Scale from zero builds the template as CA does (clusterapi_template.h)
// from the infrastructure machine template's status (read when the groups
// are worked out, kept while its reference stays, read again each minute
// while it lacks cpu or memory) and the group's annotations. Pools, prices
// and capacity types for disruption come from propscaler.io/ annotations
// (clusterapi_pools.h); Cluster API rolls its own Machines when a template
// changes, so no node is ever drifted here.
#ifndef PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_H_
#define PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "common/clock.h"
#include "kube/client/client.h"
#include "kube/model/cluster_api.h"
#include "kube/model/scale_target.h"
#include "nodescale/provider/clusterapi_discovery.h"
#include "nodescale/provider/clusterapi_objects.h"
#include "nodescale/provider/clusterapi_pools.h"
#include "nodescale/provider/clusterapi_template.h"
#include "nodescale/provider/provider.h"

namespace propscaler::nodescale {

// Cluster Autoscaler's annotation keys in Cluster API's group (CAPI_GROUP,
// cluster.x-k8s.io by default renames them all).
struct ClusterApiKeys {
  explicit ClusterApiKeys(const std::string& group = "cluster.x-k8s.io");
  std::string min_size;           // on groups
  std::string max_size;           // on groups
  std::string delete_machine;     // on Machines
  std::string machine;            // on Nodes
  std::string cluster_namespace;  // on Nodes
  std::string cluster_name;       // a label on groups
  std::string options_prefix;     // GROUP/autoscaling-options-
};

// A group's own autoscaling options from Cluster Autoscaler's
// GROUP/autoscaling-options-* annotations (scaledownutilizationthreshold,
// scaledownunneededtime, scaledownunreadytime, maxnodeprovisiontime,
// maxnodestartuptime; values lower-cased). As in CA a bad value is not an
// error: the flag's value stays, and `*problems` says which annotation and
// value were skipped.
NodeGroupOptions ParseGroupOptions(const Labels& annotations,
                                   const ClusterApiKeys& keys,
                                   const std::string& object,
                                   std::vector<std::string>* problems);

struct ClusterApiProviderOptions {
  kube::ClusterApiVersion api;
  std::vector<ClusterApiDiscoverySpec>
      discovery;  // --node-group-auto-discovery
  // CAPI_SCALE_ZERO_DEFAULT_ARCH, checked (ScaleFromZeroDefaultArch).
  std::string scale_zero_default_arch = "amd64";
};

// A node group's size bounds from Cluster Autoscaler's annotations
// GROUP/cluster-api-autoscaler-node-group-{min,max}-size.
struct ScalingBounds {
  int64_t min = 0;
  int64_t max = 0;
};
// As Cluster Autoscaler reads them: decimal integers, a missing min is 0;
// nullopt (no node group) when max is missing or 0; an error naming
// `object`, the annotation and its value when one is not a non-negative
// integer or max is below min.
Result<std::optional<ScalingBounds>> ParseScalingBounds(
    const Labels& annotations, const std::string& object,
    const ClusterApiKeys& keys = ClusterApiKeys());

// A providerID as Cluster Autoscaler compares them: the part after the last
// slash (aws:///zone/i-1 and aws://zone/i-1 are one instance), but an Azure
// scale set's whole.
std::string NormalizedProviderId(std::string_view provider_id);

class ClusterApiProvider : public Provider {
 public:
  // `clock` stamps the delete-machine annotation; `objects` are kept
  // current by watches the caller runs.
  // `machines` marks Machines for deletion; `scales` resizes the groups.
  // `options.api`: the group and version the objects are served in (the
  // keys of its annotations follow the group); `options.discovery`: which
  // objects may be groups (none: every annotated one).
  ClusterApiProvider(const kube::ClusterApiClient* machines,
                     const kube::ScaleClient* scales, const Clock* clock,
                     ClusterApiObjects* objects,
                     ClusterApiProviderOptions options = {})
      : machines_(machines),
        scales_(scales),
        clock_(clock),
        objects_(objects),
        api_(std::move(options.api)),
        keys_(api_.group),
        discovery_(std::move(options.discovery)),
        default_arch_(std::move(options.scale_zero_default_arch)) {}

  Result<std::vector<NodeGroup>> NodeGroups(const SharedNodes& nodes) override;
  // Unavailable until every kind was listed.
  Status Ready() const override;
  std::string NodeGroupOf(const NodeState& node) const override;
  Status IncreaseSize(const NodeGroup& group, int64_t delta) override;
  Status DeleteNodes(const NodeGroup& group,
                     const std::vector<const NodeState*>& nodes) override;
  // Lowers replicas by `delta`: first the replicas no Machine was made for
  // yet, then as many of the group's machines without a node, marked for
  // deletion first (the MachineSet deletes those): never a machine with a
  // node; too few of both is an error and changes nothing.
  Status DecreaseTargetSize(
      const NodeGroup& group, int64_t delta,
      const std::vector<const NodeState*>& registered) override;
  // From the groups' propscaler.io/pool* annotations (clusterapi_pools.h),
  // as of the last NodeGroups().
  std::vector<NodePool> Pools() const override { return pools_; }

 private:
  struct GroupRef {
    std::string ns;
    kube::ScaleTarget target;  // a MachineDeployment or MachineSet
    ClusterApiObjects::Kind kind;
  };
  struct MachineRef {
    std::string ns;
    std::string name;
    std::string Key() const { return ns + "/" + name; }
  };
  Status ReadGroups(ClusterApiObjects::Kind kind, ClusterApiPools* pools,
                    std::vector<NodeGroup>* groups);
  // Cluster Autoscaler's group IDs: "MachineDeployment/NS/NAME".
  static std::string GroupName(ClusterApiObjects::Kind kind,
                               const std::string& ns, const std::string& name);
  // The group the Machine belongs to (its owners, else its labels); empty
  // when none.
  std::string GroupOfMachine(const kube::ClusterApiObject& machine) const;
  void MapMachines();
  // The MachinePool whose spec.providerIDList holds the node's
  // providerID; empty when none.
  std::string PoolOf(const NodeState& node) const;
  // The group's MachinePool; nullopt when the group is not one.
  std::optional<kube::ClusterApiObject> PoolObject(
      const NodeGroup& group) const;
  Status DeletePoolNodes(const NodeGroup& group,
                         const std::vector<const NodeState*>& nodes);
  // Fills deployment_of_set_ and rolling_out_ from the MachineSets.
  void IndexMachineSets();
  // The status of the infrastructure template `group` names; nullptr when
  // it names none or it cannot be read (the error logged).
  const kube::InfrastructureTemplate* Infrastructure(
      const kube::ClusterApiObject& group);
  // A template read without cpu or memory (or not read) is due to be read
  // again.
  bool InfrastructureRefreshDue() const;
  // The group's scale as the watch last brought it (or as this provider
  // last wrote it); nullopt when its replicas are not known.
  std::optional<kube::Scale> WatchedScale(const GroupRef& ref) const;
  // Adds `delta` (may be negative; never below 0) to a fresh read of the
  // group's replicas, under its resourceVersion.
  Status AdjustReplicas(const NodeGroup& group, int64_t delta);
  // The node's Machine from its annotations, else from its providerID;
  // nullopt when neither names one.
  std::optional<MachineRef> FindMachine(const NodeState& node) const;
  // FindMachine, or an error naming the node when it has none or the
  // Machine is not one of `group`'s.
  Result<MachineRef> MachineOf(const NodeState& node,
                               const NodeGroup& group) const;
  // Sets the delete-machine annotation to `value` (nullopt removes it).
  Status AnnotateMachine(const MachineRef& machine,
                         const std::optional<std::string>& value);
  void UnmarkMachines(const std::vector<MachineRef>& machines);
  // Marks the machines for deletion and lowers the group's replicas by
  // `decrease` (at least as many); on a failure the marks are taken off
  // again. `what` names each machine in errors ("of node x", "without a
  // node").
  Status RemoveMachines(const NodeGroup& group,
                        const std::vector<MachineRef>& machines,
                        const std::vector<std::string>& what, int64_t decrease);

  const kube::ClusterApiClient* machines_;
  const kube::ScaleClient* scales_;
  const Clock* clock_;
  ClusterApiObjects* objects_;
  const kube::ClusterApiVersion api_;
  const ClusterApiKeys keys_;
  const std::vector<ClusterApiDiscoverySpec> discovery_;
  const std::string default_arch_;
  struct ReadTemplate {
    std::optional<kube::InfrastructureTemplate> status;  // nullopt: failed
    TimePoint read_at;
    bool used = false;  // by the groups being worked out
  };
  // Infrastructure templates by namespace, group, kind and name.
  std::map<std::string, ReadTemplate> infrastructure_;
  // The groups as worked out from the objects at `groups_version_`.
  std::optional<std::vector<NodeGroup>> groups_;
  uint64_t groups_version_ = 0;
  std::map<std::string, GroupRef> refs_;                 // by group name
  std::map<std::string, std::string> machine_to_group_;  // ns/machine
  // The owning MachineDeployment's name of each MachineSet that has one,
  // by ns/set.
  std::map<std::string, std::string> deployment_of_set_;
  // MachineDeployments rolling out, as Cluster Autoscaler tells: a
  // MachineSet of it other than the one of the highest
  // machinedeployment.clusters.x-k8s.io/revision still has replicas (spec
  // or status). By ns/name.
  std::set<std::string> rolling_out_;
  std::vector<NodePool> pools_;
  // MachinePool groups by the normalized providerIDs of their instances.
  std::map<std::string, std::string> pool_by_provider_id_;
  // Machines of the groups with a deletionTimestamp, by ns/name.
  std::set<std::string> deleting_;
  // Machines of the groups by normalized providerID.
  std::map<std::string, MachineRef> machine_by_provider_id_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_H_
