// The pods, nodes, PodDisruptionBudgets, CapacityBuffers,
// ProvisioningRequests and their PodTemplates, Karpenter NodePools (as served)
// and volume objects (PersistentVolumes, their claims, StorageClasses,
// CSINodes) node-scale mode knows, kept compact and current by the reflectors.
// Each object is stored once, immutable and shared: a loop takes pointers to
// them (no copy of the cluster per loop), and an update replaces the pointer,
// so a loop still reading the old object keeps it alive. Lists arrive in pages
// and are staged beside the current copy until complete. What pods of one
// controller have in common is kept once (PodInterner), and each object's key
// is a view of its own namespace and name. Thread-safe.
#ifndef PROPSCALER_CLUSTER_LIVE_OBJECT_STORE_H_
#define PROPSCALER_CLUSTER_LIVE_OBJECT_STORE_H_

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/pod_interner.h"
#include "common/shared_list.h"
#include "kube/controllers/reflector.h"
#include "kube/model/capacity_buffer.h"
#include "kube/model/live_objects.h"
#include "kube/model/provisioning_request.h"
#include "kube/model/raw_object.h"
#include "kube/model/request_pod_template.h"
#include "kube/model/volumes.h"

namespace propscaler {

// The volume kinds, as RBAC names them.
inline constexpr char kPersistentVolumes[] = "persistentvolumes";
inline constexpr char kPersistentVolumeClaims[] = "persistentvolumeclaims";
inline constexpr char kStorageClasses[] = "storageclasses";
inline constexpr char kCsiNodes[] = "csinodes";
inline constexpr char kCsiDrivers[] = "csidrivers";
inline constexpr char kCsiStorageCapacities[] = "csistoragecapacities";

class LiveObjectStore {
 public:
  kube::ReflectorSink<kube::LivePod> PodSink();
  kube::ReflectorSink<kube::LiveNode> NodeSink();
  kube::ReflectorSink<kube::PdbState> PdbSink();
  kube::ReflectorSink<kube::CapacityBuffer> BufferSink();
  kube::ReflectorSink<kube::ProvisioningRequest> ProvisioningRequestSink();
  kube::ReflectorSink<kube::PodTemplate> PodTemplateSink();
  // Once made, Synced() waits for the NodePools' first list.
  kube::ReflectorSink<kube::RawObject> NodePoolSink();
  kube::ReflectorSink<kube::PersistentVolume> VolumeSink();
  kube::ReflectorSink<kube::PersistentVolumeClaim> ClaimSink();
  kube::ReflectorSink<kube::StorageClass> StorageClassSink();
  kube::ReflectorSink<kube::CsiNode> CsiNodeSink();
  kube::ReflectorSink<kube::CsiDriver> CsiDriverSink();
  kube::ReflectorSink<kube::CsiStorageCapacity> CsiStorageCapacitySink();

  SharedList<kube::LivePod> Pods() const;
  SharedList<kube::LiveNode> Nodes() const;
  // Pods, nodes and every volume collection with a sink were listed at
  // least once.
  bool Synced() const;
  // nullopt until PodDisruptionBudgets were listed: only disruption needs
  // them, and it waits for them rather than act without.
  std::optional<std::vector<kube::PdbState>> Pdbs() const;
  // The CapacityBuffers; none until they were listed.
  std::vector<kube::CapacityBuffer> Buffers() const;
  // The ProvisioningRequests, by namespace and name; none until listed.
  std::vector<kube::ProvisioningRequest> ProvisioningRequests() const;
  // The PodTemplates by "namespace/name"; nullopt until listed (the
  // requests naming them wait rather than fail).
  std::optional<kube::PodTemplateMap> PodTemplates() const;
  // The NodePools by name; none until listed.
  std::vector<kube::RawObject> NodePools() const;
  // The volume objects, one copy kept until one of them changes (the
  // same pointer while none does).
  std::shared_ptr<const kube::VolumeObjects> Volumes() const;
  // RBAC refuses volume kind `kind` ("persistentvolumeclaims"), `why`:
  // until it is listed, Synced() does not wait for it and Volumes() says it
  // is unreadable (node-scale mode serves the pods without claims).
  void MarkUnreadable(const std::string& kind, std::string why);
  // Each unreadable volume kind with why, "" when none: "kind: why; ...".
  std::string Unreadable() const;
  bool IsUnreadable(std::string_view kind) const;

  // An object's namespace and name, viewed in the object the map holds
  // (no copy of them per pod), ordered as "namespace/name" strings are.
  struct Key {
    std::string_view namespace_;  // empty for cluster-scoped objects
    std::string_view name;
    bool operator<(const Key& other) const;
  };

  template <typename T>
  struct Collection {
    std::map<Key, std::shared_ptr<const T>> items;
    std::map<Key, std::shared_ptr<const T>> staged;
    bool synced = false;
    // Synced() waits for it (a volume collection whose sink was made).
    bool required = false;
    // The items as a list, kept until they change: a loop at rest copies
    // a vector instead of walking the map (150,000 pods: a fifth of a
    // loop's CPU).
    mutable std::optional<SharedList<T>> list;
  };

 private:
  // Under mutex_: whether volume kind `kind` was listed; the kinds refused
  // and not listed since, with why.
  bool KindSynced(std::string_view kind) const;
  std::map<std::string, std::string, std::less<>> UnreadableLocked() const;

  mutable std::mutex mutex_;
  Collection<kube::LivePod> pods_;  // by namespace/name
  Collection<kube::LiveNode> nodes_;
  Collection<kube::PdbState> pdbs_;
  Collection<kube::CapacityBuffer> buffers_;
  Collection<kube::ProvisioningRequest> requests_;
  Collection<kube::PodTemplate> pod_templates_;
  Collection<kube::RawObject> node_pools_;
  Collection<kube::PersistentVolume> volumes_;
  Collection<kube::PersistentVolumeClaim> claims_;
  Collection<kube::StorageClass> classes_;
  Collection<kube::CsiNode> csi_nodes_;
  Collection<kube::CsiDriver> csi_drivers_;
  Collection<kube::CsiStorageCapacity> capacities_;
  mutable std::shared_ptr<const kube::VolumeObjects> volume_objects_;
  // Kinds RBAC refused, with why; one counts while it is not synced.
  std::map<std::string, std::string, std::less<>> refused_;
  PodInterner interner_;
};

}  // namespace propscaler

#endif  // PROPSCALER_CLUSTER_LIVE_OBJECT_STORE_H_
