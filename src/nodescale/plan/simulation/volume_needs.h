// What a pod's persistent volumes ask of a node, as kube-scheduler's
// VolumeBinding and VolumeZone filters decide it, turned into node-label
// alternatives every placement checks (predicates.h): a bound claim's
// PersistentVolume node affinity and legacy zone labels; an unbound
// WaitForFirstConsumer claim's selected node, matching unbound PVs or its
// class's allowedTopologies; claims missing, lost, being deleted, bound to
// no volume or unbound with Immediate binding fit no node at all, as does
// a pending pod's ReadWriteOncePod claim a scheduled pod uses
// (read_write_once_pod.h). Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_VOLUME_NEEDS_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_VOLUME_NEEDS_H_

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kube/model/volumes.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

using kube::VolumeNeed;
using kube::VolumeObjects;

using kube::AttachedVolume;

struct ResolvedVolumes {
  std::vector<VolumeNeed> needs;
  // NodeVolumeLimits' count: a bound claim's CSI volume; an unbound one to
  // be provisioned by a CSI driver (the class's provisioner), by claim.
  std::vector<AttachedVolume> attached;
};

// Why pods with claims fit no node while RBAC keeps volume kinds from
// being read (objects.unreadable), naming the grant; "" when none is.
std::string UnreadableVolumesReason(const VolumeObjects& objects);

// What `pod`'s claims need and attach; nothing for a pod without claims.
// While a volume kind is unreadable, a pod with claims fits no node
// (UnreadableVolumesReason): it is held, not placed on a guess.
ResolvedVolumes ResolveVolumes(const PodState& pod,
                               const VolumeObjects& objects);
inline std::vector<VolumeNeed> ResolveVolumeNeeds(
    const PodState& pod, const VolumeObjects& objects) {
  return ResolveVolumes(pod, objects).needs;
}

// Some need of the pod's volumes no node meets.
bool FitsNowhere(const PodState& pod);

// The snapshot's pods with claims get their needs and attached volumes
// (copies of those pods; the others stay shared), and every node its CSI
// attach limits.
void ResolveSnapshotVolumes(const VolumeObjects& objects,
                            ClusterSnapshot* snapshot);

// One iteration's resolved copies, kept for the next: while the volume
// objects are the same and a pod is the same object, its copy is reused,
// not made again (a loop at rest resolved 15,000 claims and copied their
// pods every loop: bench/README.md, issue 43).
struct ResolvedPodCache {
  struct Entry {
    // The source pod is kept so that its address is not reused by another
    // pod while the entry lives.
    PodList::Shared source;
    PodList::Shared resolved;
    uint64_t seen = 0;  // the last resolution that used it
  };
  std::shared_ptr<const VolumeObjects> objects;
  std::unordered_map<const PodState*, Entry> by_source;
  // Of `objects` (read_write_once_pod.h).
  std::set<std::string, std::less<>> read_write_once_pod;
  uint64_t resolutions = 0;
};
// Returns how many of the snapshot's pods hold claims, and how many of
// those fit no node for one of them.
struct ClaimCounts {
  int64_t pods_with_claims = 0;
  int64_t fitting_nowhere = 0;
};
ClaimCounts ResolveSnapshotVolumes(std::shared_ptr<const VolumeObjects> objects,
                                   ClusterSnapshot* snapshot,
                                   ResolvedPodCache* cache);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_VOLUME_NEEDS_H_
