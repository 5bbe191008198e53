// PersistentVolumes, PersistentVolumeClaims, StorageClasses, CSINodes,
// CSIDrivers and CSIStorageCapacities as node-scale mode keeps them: only
// the fields kube-scheduler's volume filters read (VolumeBinding, VolumeZone,
// NodeVolumeLimits). Plain structs, no I/O.
#ifndef PROPSCALER_KUBE_MODEL_VOLUMES_H_
#define PROPSCALER_KUBE_MODEL_VOLUMES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/label_selector.h"
#include "kube/model/node_scale_objects.h"

namespace propscaler::kube {

// The PV controller sets it once a claim and its volume are bound both ways.
inline constexpr std::string_view kBindCompletedAnnotation =
    "pv.kubernetes.io/bind-completed";
// The scheduler's choice for a WaitForFirstConsumer claim, set before the
// volume is provisioned.
inline constexpr std::string_view kSelectedNodeAnnotation =
    "volume.kubernetes.io/selected-node";
// The class of a claim made before spec.storageClassName existed.
inline constexpr std::string_view kBetaStorageClassAnnotation =
    "volume.beta.kubernetes.io/storage-class";
// A class that provisions nothing: its claims bind only to existing PVs.
inline constexpr std::string_view kNoProvisioner =
    "kubernetes.io/no-provisioner";

struct PersistentVolume {
  std::string name;
  std::string storage_class;  // spec.storageClassName
  std::string claim;          // spec.claimRef as "namespace/name"; "": none
  bool deleting = false;
  int64_t capacity_bytes = 0;  // spec.capacity.storage
  std::vector<std::string> access_modes;
  // spec.nodeAffinity.required.nodeSelectorTerms (ORed); empty: any node.
  std::vector<NodeSelectorTerm> node_affinity;
  // Only the legacy zone and region labels (VolumeZone reads them).
  Labels topology_labels;
  // Every label, but only while no claim is bound or pre-bound to it: an
  // unbound claim's selector reads them.
  Labels labels_while_free;
  bool block = false;      // spec.volumeMode Block (else Filesystem)
  std::string csi_driver;  // spec.csi.driver; "": not a CSI volume
  std::string csi_handle;  // spec.csi.volumeHandle
};

struct PersistentVolumeClaim {
  std::string namespace_;
  std::string name;
  std::string volume_name;      // spec.volumeName
  bool bind_completed = false;  // kBindCompletedAnnotation
  std::string storage_class;    // spec.storageClassName, else the annotation
  std::string selected_node;    // kSelectedNodeAnnotation
  bool lost = false;            // status.phase Lost
  bool deleting = false;
  int64_t request_bytes = 0;  // spec.resources.requests.storage
  std::vector<std::string> access_modes;
  LabelSelector selector;  // spec.selector: the PVs it may bind; {}: any
  bool block = false;      // spec.volumeMode Block (else Filesystem)
  // The controller owner's kind and name (ephemeral claims: the pod).
  std::string owner_kind;
  std::string owner_name;

  std::string Key() const { return namespace_ + "/" + name; }
};

struct StorageClass {
  std::string name;
  std::string provisioner;
  bool wait_for_first_consumer = false;  // volumeBindingMode
  // allowedTopologies, each term's matchLabelExpressions as In
  // requirements (ORed); empty: anywhere.
  std::vector<NodeSelectorTerm> allowed_topologies;
};

// A CSINode: the attach limits of its node's drivers.
struct CsiNode {
  std::string name;  // the node's
  VolumeLimits limits;
};

// A CSIDriver: whether the scheduler checks CSIStorageCapacity before it
// provisions the driver's volumes.
struct CsiDriver {
  std::string name;
  bool storage_capacity = false;  // spec.storageCapacity
};

// A CSIStorageCapacity: room for new volumes of a class on the nodes its
// topology selects.
struct CsiStorageCapacity {
  std::string namespace_;
  std::string name;
  std::string storage_class;  // storageClassName
  // nodeTopology; nullopt: it selects no node.
  std::optional<LabelSelector> node_topology;
  std::optional<int64_t> capacity_bytes;
  std::optional<int64_t> maximum_volume_size_bytes;
};

// Immutable objects by key, shared with the store that holds them (one
// copy of each object however many loops read it).
template <typename T>
using SharedObjects =
    std::map<std::string, std::shared_ptr<const T>, std::less<>>;

// The volume objects a snapshot resolves pods' claims against.
struct VolumeObjects {
  SharedObjects<PersistentVolume> volumes;      // by name
  SharedObjects<PersistentVolumeClaim> claims;  // by "namespace/name"
  SharedObjects<StorageClass> classes;          // by name
  // Each node's limits, by node name (CSINodes with none left out).
  std::map<std::string, VolumeLimits, std::less<>> node_limits;
  // CSIDrivers whose volumes need a CSIStorageCapacity to be provisioned.
  std::set<std::string, std::less<>> capacity_checked_drivers;
  SharedObjects<CsiStorageCapacity> capacities;  // by "namespace/name"
  // The volume kinds RBAC keeps from being read ("persistentvolumeclaims"),
  // with why: pods with claims cannot be placed until they are granted.
  std::map<std::string, std::string, std::less<>> unreadable;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_VOLUMES_H_
