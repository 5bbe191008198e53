// The one seam between propscaler's loops and the Kubernetes API: typed calls
// for everything the loops do, in roles of a few calls each (a part takes
// the roles it uses). KubeApi implements every role over HTTP; tests use an
// in-memory cluster (tests/memcluster/). No URL and no JSON crosses it.
//
// Errors follow KubeApi's codes: kNotFound, kConflict (a stale
// resourceVersion), kGone, kUnauthenticated, kPermissionDenied, kUnavailable
// (429, 5xx, transport), kInvalidArgument (400, 422).
#ifndef PROPSCALER_KUBE_CLIENT_CLIENT_H_
#define PROPSCALER_KUBE_CLIENT_CLIENT_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "common/taint_filter.h"
#include "kube/model/capacity_buffer.h"
#include "kube/model/cluster_api.h"
#include "kube/model/counted_pod.h"
#include "kube/model/event.h"
#include "kube/model/lease.h"
#include "kube/model/list_watch.h"
#include "kube/model/live_objects.h"
#include "kube/model/node_taint_edit.h"
#include "kube/model/node_template.h"
#include "kube/model/objects.h"
#include "kube/model/pod_template.h"
#include "kube/model/provisioning_request.h"
#include "kube/model/raw_object.h"
#include "kube/model/request_pod_template.h"
#include "kube/model/resized_pod.h"
#include "kube/model/scale_target.h"
#include "kube/model/volumes.h"

namespace propscaler::kube {

// Replica and vertical mode: the nodes they count.
class CountedNodeClient {
 public:
  virtual ~CountedNodeClient() = default;

  // The nodes matching `label_selector` (passed to the server as is), as
  // replica and vertical mode count them: `excluded` taints mark a node
  // excluded; `cpu` is the CPU figure counted.
  virtual std::unique_ptr<ListWatch<NodeInfo>> CountedNodes(
      const std::string& label_selector, const TaintFilter& excluded,
      CountedCpu cpu) const = 0;
};

// The pods replica mode counts for podsPerReplica.
class CountedPodClient {
 public:
  virtual ~CountedPodClient() = default;

  // The pods matching `label_selector` (passed to the server as is) in
  // namespace `ns` ("": every namespace), each only its key and whether
  // its phase counts.
  virtual std::unique_ptr<ListWatch<CountedPod>> CountedPods(
      const std::string& ns, const std::string& label_selector) const = 0;
};

// ConfigMaps: params, CPVA config, node groups, status.
class ConfigMapClient {
 public:
  virtual ~ConfigMapClient() = default;

  // The ConfigMap `name` in `ns` (a collection of at most one).
  virtual std::unique_ptr<ListWatch<ConfigMap>> ConfigMapNamed(
      const std::string& ns, const std::string& name) const = 0;

  virtual Result<ConfigMap> GetConfigMap(const std::string& ns,
                                         const std::string& name) const = 0;
  virtual Result<ConfigMap> CreateConfigMap(
      const ConfigMap& config_map) const = 0;
  // Replaces the map's data and sets its annotations, keeping every other
  // field as stored, under config_map.resource_version: kConflict when the
  // map changed since that version.
  virtual Result<ConfigMap> UpdateConfigMap(
      const ConfigMap& config_map) const = 0;
};

// The scale subresource of a workload (or a Cluster API group).
class ScaleClient {
 public:
  virtual ~ScaleClient() = default;

  // The workload `target` in `ns` (a collection of at most one, selected by
  // metadata.name), read as its scale subresource would be: a watched
  // target needs no GET of its scale.
  virtual std::unique_ptr<ListWatch<Scale>> TargetNamed(
      const std::string& ns, const ScaleTarget& target) const = 0;
  // The workloads of the selector's kind in `ns` whose labels match it,
  // each read as its scale (RBAC `list` and `watch` on the kind).
  virtual std::unique_ptr<ListWatch<Scale>> TargetsSelected(
      const std::string& ns, const TargetSelector& selector) const = 0;
  virtual Result<Scale> GetScale(const std::string& ns,
                                 const ScaleTarget& target) const = 0;
  // A merge patch of spec.replicas (RBAC `patch`).
  virtual Result<Scale> PatchScale(const std::string& ns,
                                   const ScaleTarget& target,
                                   int64_t replicas) const = 0;
  // A PUT under `read.resource_version` (RBAC `update`): kConflict when the
  // scale changed since it was read.
  virtual Result<Scale> UpdateScale(const std::string& ns,
                                    const ScaleTarget& target,
                                    const Scale& read,
                                    int64_t replicas) const = 0;
};

// Vertical mode: a workload's pod template and its resources.
class WorkloadClient {
 public:
  virtual ~WorkloadClient() = default;

  // A workload's pod template, and a strategic merge patch
  // of its containers' resources under `resource_version` (kConflict when
  // the workload changed since; RBAC `get` and `patch`).
  virtual Result<PodTemplateWorkload> GetPodTemplate(
      const std::string& ns, const WorkloadRef& target) const = 0;
  // The workload `target` in `ns` (a collection of at most one, selected by
  // metadata.name; RBAC `list` and `watch`).
  virtual std::unique_ptr<ListWatch<PodTemplateWorkload>> PodTemplateNamed(
      const std::string& ns, const WorkloadRef& target) const = 0;
  virtual Result<PodTemplateWorkload> PatchContainerResources(
      const std::string& ns, const WorkloadRef& target,
      const std::string& resource_version,
      const std::vector<ContainerResourcesEdit>& edits) const = 0;
};

// Vertical mode's in-place resize (--resize=in-place): the target's pods
// and their pods/resize subresource.
class PodResizeClient {
 public:
  virtual ~PodResizeClient() = default;

  // The pods in `ns` matching `label_selector` (RBAC list and watch on
  // pods).
  virtual std::unique_ptr<ListWatch<ResizedPod>> ResizablePods(
      const std::string& ns, const std::string& label_selector) const = 0;
  // A strategic merge patch of the pod's pods/resize under
  // `resource_version` (RBAC patch on pods/resize): kConflict when the pod
  // changed since, kNotFound where the server does not serve it.
  virtual Result<ResizedPod> ResizePod(
      const std::string& ns, const std::string& name,
      const std::string& resource_version,
      const std::vector<ContainerResourcesEdit>& edits) const = 0;
};

// Replica mode's HorizontalPodAutoscaler check.
class HpaClient {
 public:
  virtual ~HpaClient() = default;

  // The HorizontalPodAutoscalers in `ns`, listed (ListOnce) or listed and
  // watched.
  virtual std::unique_ptr<ListWatch<HpaRef>> HorizontalPodAutoscalers(
      const std::string& ns) const = 0;

  // --hpa-floor: the HPA `name` in `ns` through autoscaling/`version` ("v2"
  // or "v1"): watched (a collection of at most one, selected by
  // metadata.name), read, and its spec.minReplicas merge-patched under
  // `resource_version` (kConflict when the HPA changed since), every other
  // field left as it is.
  virtual std::unique_ptr<ListWatch<HpaRef>> HpaNamed(
      const std::string& ns, const std::string& name,
      const std::string& version) const = 0;
  virtual Result<HpaRef> GetHpa(const std::string& ns, const std::string& name,
                                const std::string& version) const = 0;
  virtual Result<HpaRef> PatchHpaMinReplicas(
      const std::string& ns, const std::string& name,
      const std::string& version, const std::string& resource_version,
      int64_t min_replicas) const = 0;
};

// Events, written by kube/event_recorder.
class EventClient {
 public:
  virtual ~EventClient() = default;

  // Creates the Event in EventNamespace(event.object), from `component`,
  // stamped `now`.
  virtual Status CreateEvent(const EventInfo& event,
                             const std::string& component,
                             TimePoint now) const = 0;
};

// Node-scale mode: what its planner reads, and CapacityBuffers' status.
class ClusterStateClient {
 public:
  virtual ~ClusterStateClient() = default;

  // Every pod and every node, as its planner sees them.
  virtual std::unique_ptr<ListWatch<LivePod>> Pods() const = 0;
  virtual std::unique_ptr<ListWatch<LiveNode>> LiveNodes() const = 0;
  // Every PodDisruptionBudget: policy/v1 where the server serves it,
  // policy/v1beta1 otherwise (Kubernetes before 1.21).
  virtual std::unique_ptr<ListWatch<PdbState>> PodDisruptionBudgets() const = 0;
  // PersistentVolumes, PersistentVolumeClaims (every namespace) and
  // StorageClasses (storage.k8s.io/v1): where pods' volumes may go.
  virtual std::unique_ptr<ListWatch<PersistentVolume>> PersistentVolumes()
      const = 0;
  virtual std::unique_ptr<ListWatch<PersistentVolumeClaim>>
  PersistentVolumeClaims() const = 0;
  virtual std::unique_ptr<ListWatch<StorageClass>> StorageClasses() const = 0;
  // CSINodes (storage.k8s.io/v1): each node's CSI attach limits.
  virtual std::unique_ptr<ListWatch<CsiNode>> CsiNodes() const = 0;
  // CSIDrivers (storage.k8s.io/v1) and CSIStorageCapacities (every
  // namespace) of storage.k8s.io/`version` (v1 from Kubernetes 1.24,
  // v1beta1 from 1.21): where new volumes have room.
  virtual std::unique_ptr<ListWatch<CsiDriver>> CsiDrivers() const = 0;
  virtual std::unique_ptr<ListWatch<CsiStorageCapacity>> CsiStorageCapacities(
      std::string_view version) const = 0;
  // CapacityBuffers (autoscaling.x-k8s.io/v1beta1) in every namespace.
  virtual std::unique_ptr<ListWatch<CapacityBuffer>> CapacityBuffers()
      const = 0;
  // Karpenter NodePools (karpenter.sh/v1, cluster-scoped) as served: the
  // kwok provider decodes them (nodescale/domain/node_pools_json.h).
  virtual std::unique_ptr<ListWatch<RawObject>> NodePools() const = 0;
  // The buffer's chunk from its PodTemplate or scalableRef (RBAC `get`).
  virtual Result<BufferChunk> GetBufferChunk(
      const CapacityBuffer& buffer) const = 0;
  // Sets the buffer's status subresource to `want` (a merge patch under
  // the buffer's resourceVersion; conditions whose status is unchanged keep
  // their transition time, others get `now`): kConflict when the buffer
  // changed since it was read.
  virtual Status PatchCapacityBufferStatus(const CapacityBuffer& buffer,
                                           const BufferStatus& want,
                                           TimePoint now) const = 0;
};

// Node-scale mode's ProvisioningRequests (autoscaling.x-k8s.io/v1), with
// --enable-provisioning-requests.
class ProvisioningRequestClient {
 public:
  virtual ~ProvisioningRequestClient() = default;

  // Every ProvisioningRequest, in every namespace (RBAC list and watch).
  virtual std::unique_ptr<ListWatch<ProvisioningRequest>> ProvisioningRequests()
      const = 0;
  // Every PodTemplate, in every namespace (RBAC list and watch on
  // podtemplates, as Cluster Autoscaler's informer): the requests' pods.
  virtual std::unique_ptr<ListWatch<PodTemplate>> PodTemplates() const = 0;
  // Sets `set` among the request's conditions (a merge patch of its status
  // under the resourceVersion read): kConflict when it changed since.
  virtual Status PatchProvisioningRequestConditions(
      const ProvisioningRequest& request,
      const std::vector<ProvReqCondition>& set) const = 0;
  // Deletes the request, if it is still the one read (its uid).
  virtual Status DeleteProvisioningRequest(
      const ProvisioningRequest& request) const = 0;
};

// Node-scale mode: what the removal queue does to nodes and pods.
class NodeActionClient {
 public:
  virtual ~NodeActionClient() = default;

  // Changes only what `edit` owns on node `name` (node_taint_edit.h).
  virtual Status EditNodeTaints(const std::string& name,
                                const NodeTaintEdit& edit) const = 0;
  // The Eviction of a pod (policy/v1); kNotFound when the pod is gone,
  // kUnavailable (429) when a PodDisruptionBudget refuses it.
  virtual Status EvictPod(const std::string& ns, const std::string& name,
                          int64_t grace_seconds) const = 0;
};

// The kwok provider's own calls: node objects made from a template, and
// deleted.
class SimulatedNodeClient {
 public:
  virtual ~SimulatedNodeClient() = default;

  // A kwok-style simulated Node (annotated kwok.x-k8s.io/node=fake) with
  // `shape`'s labels, taints and allocatable (also its capacity), Ready or
  // not.
  virtual Status CreateSimulatedNode(const std::string& name,
                                     const NodeTemplate& shape,
                                     bool ready) const = 0;
  // Deletes the node only if it is still the object with `uid` (empty:
  // any), so a node deleted and registered again under the same name since
  // it was chosen is not deleted: kConflict.
  virtual Status DeleteNode(const std::string& name,
                            const std::string& uid) const = 0;
};

// Leader election.
class LeaseClient {
 public:
  virtual ~LeaseClient() = default;

  // coordination.k8s.io/v1 Leases, for leader election. UpdateLease sends
  // `lease.resource_version`: kConflict when the lease changed since.
  virtual Result<Lease> GetLease(const std::string& ns,
                                 const std::string& name) const = 0;
  virtual Result<Lease> CreateLease(const Lease& lease) const = 0;
  virtual Result<Lease> UpdateLease(const Lease& lease) const = 0;
};

// The Cluster API provider's own calls (its replicas go through
// ScaleClient).
class ClusterApiClient {
 public:
  virtual ~ClusterApiClient() = default;

  // Cluster API: every object of `resource` (machinedeployments,
  // machinesets or machines) in every namespace, listed and watched in
  // `api`'s group and version. Their replicas go through
  // GetScale/UpdateScale with a kMachineDeployment or kMachineSet target.
  virtual std::unique_ptr<ListWatch<ClusterApiObject>> ClusterApiObjects(
      const ClusterApiVersion& api, const std::string& resource) const = 0;
  // Sets (nullopt: removes) one annotation of a Machine; nothing else of it
  // changes.
  virtual Status AnnotateMachine(
      const ClusterApiVersion& api, const std::string& ns,
      const std::string& name, const std::string& key,
      const std::optional<std::string>& value) const = 0;
  // The infrastructure machine template `ref` names in namespace `ns`, in
  // the version its apiVersion names, else (v1beta2 refs name only a group)
  // the first of the group's versions in discovery order that serves the
  // kind, as Cluster Autoscaler reads it for scale from zero.
  virtual Result<InfrastructureTemplate> GetInfrastructureTemplate(
      const InfrastructureRef& ref, const std::string& ns) const = 0;
};

// Every role: what KubeApi (HTTP) and the in-memory cluster implement. A
// part takes the roles it uses, not the whole client.
class Client : public CountedNodeClient,
               public CountedPodClient,
               public ConfigMapClient,
               public ScaleClient,
               public WorkloadClient,
               public PodResizeClient,
               public HpaClient,
               public EventClient,
               public ClusterStateClient,
               public ProvisioningRequestClient,
               public NodeActionClient,
               public SimulatedNodeClient,
               public LeaseClient,
               public ClusterApiClient {};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_CLIENT_CLIENT_H_
