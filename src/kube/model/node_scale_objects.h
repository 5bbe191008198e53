// Pods and nodes as node-scale mode keeps them: only the fields scheduling
// and scale-down read, decoded by snapshot_json (files) and pod_decode
// (lists and watches). Plain structs, no I/O.
#ifndef PROPSCALER_KUBE_MODEL_NODE_SCALE_OBJECTS_H_
#define PROPSCALER_KUBE_MODEL_NODE_SCALE_OBJECTS_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "common/frozen.h"
#include "common/label_selector.h"
#include "kube/model/resources.h"

namespace propscaler::kube {

// The label that puts a node in a node group.
inline constexpr std::string_view kHostnameLabel = "kubernetes.io/hostname";
// The pod annotations a node-scale decision reads, named here (not with
// the rest of node-scale's marks, nodescale/domain/node_marks.h) because
// the pod decoders keep these and drop every other (IsKeptPodAnnotation).
inline constexpr std::string_view kSafeToEvictAnnotation =
    "cluster-autoscaler.kubernetes.io/safe-to-evict";
inline constexpr std::string_view kMirrorPodAnnotation =
    "kubernetes.io/config.mirror";
// The ProvisioningRequest whose room the pod lands in
// (kube/model/provisioning_request.h), and the first proposal's spelling.
inline constexpr std::string_view kConsumeProvisioningRequestAnnotation =
    "autoscaling.x-k8s.io/consume-provisioning-request";
inline constexpr std::string_view kDeprecatedConsumeAnnotation =
    "cluster-autoscaler.kubernetes.io/consume-provisioning-request";

// Karpenter's opt-out, on a pod or a node: "true" blocks voluntary
// disruption; on a pod a duration ("30m") blocks while the pod is younger.
// propscaler reads its own spelling the same way.
inline constexpr std::string_view kDoNotDisruptAnnotation =
    "karpenter.sh/do-not-disrupt";
inline constexpr std::string_view kOwnDoNotDisruptAnnotation =
    "propscaler.io/do-not-disrupt";
inline constexpr std::string_view kPodDeletionCostAnnotation =
    "controller.kubernetes.io/pod-deletion-cost";

enum class TaintEffect { kNoSchedule, kPreferNoSchedule, kNoExecute };

struct Taint {
  std::string key;
  std::string value;
  TaintEffect effect = TaintEffect::kNoSchedule;
  auto operator<=>(const Taint&) const = default;
};

struct Toleration {
  enum class Op { kEqual, kExists };
  std::string key;  // empty with kExists: tolerates every key
  Op op = Op::kEqual;
  std::string value;
  bool any_effect = true;  // effect "" in the API
  TaintEffect effect = TaintEffect::kNoSchedule;
  auto operator<=>(const Toleration&) const = default;
};

// One requirement of a required node affinity term.
struct NodeSelectorRequirement {
  enum class Op { kIn, kNotIn, kExists, kDoesNotExist, kGt, kLt };
  std::string key;
  Op op = Op::kIn;
  std::vector<std::string> values;
  auto operator<=>(const NodeSelectorRequirement&) const = default;
};

// Requirements are ANDed; an empty term matches no node, as in Kubernetes.
struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> requirements;
  auto operator<=>(const NodeSelectorTerm&) const = default;
};

inline constexpr std::string_view kZoneLabel = "topology.kubernetes.io/zone";

// A requiredDuringSchedulingIgnoredDuringExecution pod affinity or
// anti-affinity term: pods matching `selector` (in `namespaces`, or the
// owner's own when empty) in the same topology domain, i.e. on nodes with
// the same value of `topology_key`. (namespaceSelector is not read.)
struct PodAffinityTerm {
  LabelSelector selector;
  std::vector<std::string> namespaces;
  std::string topology_key = std::string(kHostnameLabel);
  auto operator<=>(const PodAffinityTerm&) const = default;
};

// A topologySpreadConstraints entry with whenUnsatisfiable DoNotSchedule
// (ScheduleAnyway ones are only preferences, not kept, as in Cluster
// Autoscaler): in the owner's namespace, the pods matching `selector` in a
// domain of `topology_key`, with this pod, may exceed the fewest in any
// eligible domain by at most `max_skew`.
struct SpreadConstraint {
  int64_t max_skew = 1;
  std::string topology_key;
  LabelSelector selector;
  int64_t min_domains = 0;  // 0: not set
  auto operator<=>(const SpreadConstraint&) const = default;
};

// What a pod prefers but does not require: preferred node affinity, pod
// affinity and anti-affinity (each with its weight, 1..100) and
// ScheduleAnyway spreads. Cluster Autoscaler ignores them; Karpenter plans
// as if they were required and drops them one at a time when a pod fits
// nowhere (plan/claims).
struct WeightedNodeSelectorTerm {
  int64_t weight = 0;
  NodeSelectorTerm term;
  auto operator<=>(const WeightedNodeSelectorTerm&) const = default;
};
struct WeightedPodAffinityTerm {
  int64_t weight = 0;
  PodAffinityTerm term;
  auto operator<=>(const WeightedPodAffinityTerm&) const = default;
};
struct PodPreferences {
  std::vector<WeightedNodeSelectorTerm> node_affinity;
  std::vector<WeightedPodAffinityTerm> affinity;
  std::vector<WeightedPodAffinityTerm> anti_affinity;
  std::vector<SpreadConstraint> spread;  // whenUnsatisfiable ScheduleAnyway
  bool empty() const {
    return node_affinity.empty() && affinity.empty() && anti_affinity.empty() &&
           spread.empty();
  }
  auto operator<=>(const PodPreferences&) const = default;
};

// A containers[].ports[] entry with a hostPort: two pods asking for the
// same port and protocol cannot share a node. (hostIP is not told apart:
// treated as 0.0.0.0, which conflicts with every address.)
struct HostPort {
  int64_t port = 0;
  std::string protocol = "TCP";
  auto operator<=>(const HostPort&) const = default;
};

// A claim a pod's volumes use: spec.volumes[].persistentVolumeClaim's
// claimName; for a generic ephemeral volume the volume's name (its claim,
// made by the ephemeral volume controller, is "<pod name>-<volume name>":
// ClaimNameOf).
struct PodClaim {
  std::string name;
  bool ephemeral = false;
  auto operator<=>(const PodClaim&) const = default;
};

// What one of a pod's volumes asks of a node, resolved from its claim, the
// claim's PersistentVolume and StorageClass (plan/simulation/volume_needs.h): a
// node whose labels match one of `alternatives` can take it; with none, no node
// can, and `reason` says why in kube-scheduler's words, `detail` which
// claim and volume. Two needs are equal without their details: pods whose
// volumes ask the same of a node are placed alike (one pod class for a
// StatefulSet's pods whose disks are in one zone).
struct VolumeNeed {
  std::string reason;
  std::vector<NodeSelectorTerm> alternatives;  // ORed
  std::string detail;                          // "claim \"data\", volume ..."
  bool operator==(const VolumeNeed& other) const {
    return reason == other.reason && alternatives == other.alternatives;
  }
  // "reason (detail)".
  std::string Text() const {
    return detail.empty() ? reason : reason + " (" + detail + ")";
  }
};

// A volume as CSI attach limits count it: the driver and a handle unique
// to the volume (a PV's volumeHandle; for a claim still to be provisioned,
// the claim's "namespace/name").
struct AttachedVolume {
  std::string driver;
  std::string handle;
  auto operator<=>(const AttachedVolume&) const = default;
};

// A disk a pod names in its own volumes, not through a claim (in-tree
// awsElasticBlockStore, gcePersistentDisk, azureDisk, cinder; iscsi).
// kube-scheduler's VolumeRestrictions keeps two pods that use one off the
// same node (unless both only read it; an EBS volume attaches to one node
// however it is used), and NodeVolumeLimits counts a migratable one against
// the CSI driver it migrates to.
struct InlineDisk {
  std::string driver;  // the CSI driver it migrates to; kIscsiDisk for iSCSI
  std::string handle;  // volumeID, pdName, diskURI; an iSCSI IQN
  bool read_only = false;
  auto operator<=>(const InlineDisk&) const = default;
};
inline constexpr std::string_view kIscsiDisk = "iscsi";

// The most volumes of each CSI driver a node can attach
// (CSINode.spec.drivers[].allocatable.count); a driver not listed has no
// limit.
using VolumeLimits = std::map<std::string, int64_t, std::less<>>;

struct PodState {
  std::string namespace_;
  std::string name;
  std::string node_name;    // empty while pending
  bool terminated = false;  // phase Succeeded or Failed
  Resources requests;       // EffectivePodRequests: includes one pod slot
  // What pods of one controller have in common is frozen: shared by every
  // pod with an equal value once the live store interns it.
  Frozen<Labels> labels;
  Frozen<Labels> annotations;
  Frozen<Labels> node_selector;
  Frozen<std::vector<NodeSelectorTerm>> node_affinity;  // ORed; empty: none
  Frozen<std::vector<Toleration>> tolerations;
  Frozen<std::vector<PodAffinityTerm>> affinity;
  Frozen<std::vector<PodAffinityTerm>> anti_affinity;
  Frozen<std::vector<SpreadConstraint>> spread;
  Frozen<PodPreferences> preferences;
  Frozen<std::vector<HostPort>> host_ports;
  // Of the controller owner reference; empty: none. Frozen: a controller's
  // pods share them once interned.
  Frozen<std::string> owner_kind;
  Frozen<std::string> owner_name;
  bool has_local_storage = false;  // an emptyDir or hostPath volume
  Frozen<std::vector<PodClaim>> claims;
  // Set where the snapshot is built (the claims' objects change apart from
  // the pod); every need must be met.
  Frozen<std::vector<VolumeNeed>> volume_needs;
  // Set with volume_needs: the CSI volumes it attaches.
  Frozen<std::vector<AttachedVolume>> attached_volumes;
  Frozen<std::vector<InlineDisk>> inline_disks;
  // spec.terminationGracePeriodSeconds (the API server's default: 30).
  int64_t termination_grace_seconds = 30;
  int32_t priority = 0;  // spec.priority
  TimePoint start_time;  // status.startTime; the epoch while unset

  std::string Key() const { return namespace_ + "/" + name; }
};

struct NodeState {
  std::string name;
  std::string uid;  // empty where the source has none (files, templates)
  Resources allocatable;
  Labels labels;
  Labels annotations;
  std::vector<Taint> taints;
  std::string provider_id;  // spec.providerID, e.g. aws:///us-east-1a/i-0abc
  TimePoint created;        // metadata.creationTimestamp
  bool ready = false;
  bool unschedulable = false;  // cordoned
  // From its CSINode, set where the snapshot is built; empty: no limits.
  VolumeLimits volume_limits;
};

// A PodDisruptionBudget as disruption reads it: which pods it covers and
// how many of them may go now.
struct PdbState {
  std::string namespace_;
  std::string name;
  LabelSelector selector;           // {} covers every pod of the namespace
  bool no_selector = false;         // a null selector covers none (policy/v1)
  int64_t disruptions_allowed = 0;  // status.disruptionsAllowed
  // maxUnavailable 0 or "0%", or minAvailable "100%": no pod may ever go.
  bool blocks_all = false;
};

// The name of the claim `claim` refers to.
std::string ClaimNameOf(const PodState& pod, const PodClaim& claim);
// Its "namespace/name", as PersistentVolumeClaim::Key spells it.
std::string ClaimKeyOf(const PodState& pod, const PodClaim& claim);

// Not bound to a node and not finished.
bool IsPending(const PodState& pod);
bool IsDaemonSetPod(const PodState& pod);
bool IsMirrorPod(const PodState& pod);
// The budget's selector matches the pod, in its namespace.
bool PdbCovers(const PdbState& pdb, const PodState& pod);
// The API server taints every new node not-ready; the node lifecycle
// controller lifts it once the node is Ready. Until then the node takes no
// pods: it is still coming, as Cluster Autoscaler counts it. Both node
// decoders (JSON and protobuf) end with this.
void NotReadyWhileTainted(NodeState* node);
// Whether a pod annotation is one a decision reads (safe-to-evict, the
// mirror pod's); decoders keep no other (a last-applied-configuration alone
// is often several KB per pod).
bool IsKeptPodAnnotation(std::string_view key);
// The annotation's value, or empty.
std::string_view AnnotationOf(const Labels& annotations, std::string_view key);

std::string_view TaintEffectName(TaintEffect effect);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_NODE_SCALE_OBJECTS_H_
