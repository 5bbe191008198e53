#include "nodescale/plan/simulation/volume_needs.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "kube/model/in_tree_volumes.h"
#include "nodescale/plan/simulation/node_volume_limits.h"
#include "nodescale/plan/simulation/read_write_once_pod.h"

namespace propscaler::nodescale {
namespace {

using kube::PersistentVolume;
using kube::PersistentVolumeClaim;
using kube::StorageClass;
using Op = NodeSelectorRequirement::Op;

constexpr std::string_view kBetaZoneLabel =
    "failure-domain.beta.kubernetes.io/zone";
constexpr std::string_view kBetaRegionLabel =
    "failure-domain.beta.kubernetes.io/region";
constexpr std::string_view kRegionLabel = "topology.kubernetes.io/region";
// The labels VolumeZone compares, beta keys with their GA spelling.
constexpr std::array<std::pair<std::string_view, std::string_view>, 4>
    kTopologyLabels = {{{kBetaZoneLabel, kZoneLabel},
                        {kBetaRegionLabel, kRegionLabel},
                        {kZoneLabel, ""},
                        {kRegionLabel, ""}}};

std::string Quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

VolumeNeed Nowhere(std::string reason, std::string detail = "") {
  return {std::move(reason), {}, std::move(detail)};
}

NodeSelectorRequirement Requirement(std::string_view key, Op op,
                                    std::vector<std::string> values = {}) {
  return {std::string(key), op, std::move(values)};
}

// "a__b" -> {"a", "b"}: a PV label may name several zones.
std::vector<std::string> SplitZones(std::string_view value) {
  std::vector<std::string> out;
  while (true) {
    const size_t at = value.find("__");
    out.emplace_back(value.substr(0, at));
    if (at == std::string_view::npos) return out;
    value.remove_prefix(at + 2);
  }
}

// VolumeZone: the node's value for the PV's label must be one the PV
// lists (a beta key also matches the GA label when the beta one is
// missing); a node without any of the four labels passes.
VolumeNeed ZoneLabelNeed(std::string_view key, std::string_view ga_key,
                         std::string_view value, const std::string& what) {
  const std::vector<std::string> zones = SplitZones(value);
  VolumeNeed need{"node(s) had no available volume zone",
                  {},
                  what + ", " + std::string(key) + "=" + std::string(value)};
  need.alternatives.push_back({{Requirement(key, Op::kIn, zones)}});
  if (!ga_key.empty()) {
    need.alternatives.push_back({{Requirement(key, Op::kDoesNotExist),
                                  Requirement(ga_key, Op::kIn, zones)}});
  }
  NodeSelectorTerm unlabelled;
  for (const auto& [label, unused] : kTopologyLabels) {
    unlabelled.requirements.push_back(Requirement(label, Op::kDoesNotExist));
  }
  need.alternatives.push_back(std::move(unlabelled));
  return need;
}

void AddBoundNeeds(const PersistentVolume& volume, const std::string& what,
                   std::vector<VolumeNeed>* out) {
  if (!volume.node_affinity.empty()) {
    out->push_back({"node(s) had volume node affinity conflict",
                    volume.node_affinity, what});
  }
  for (const auto& [key, ga_key] : kTopologyLabels) {
    auto it = volume.topology_labels.find(key);
    if (it != volume.topology_labels.end()) {
      out->push_back(ZoneLabelNeed(key, ga_key, it->second, what));
    }
  }
}

bool HasAccessModes(const PersistentVolume& volume,
                    const PersistentVolumeClaim& claim) {
  return std::all_of(claim.access_modes.begin(), claim.access_modes.end(),
                     [&](const std::string& mode) {
                       return std::find(volume.access_modes.begin(),
                                        volume.access_modes.end(),
                                        mode) != volume.access_modes.end();
                     });
}

// An unbound PV the binder could give the claim: same class, free and
// matching the claim's selector (or pre-bound to it), the same volume
// mode, large enough, with its access modes.
bool CouldBind(const PersistentVolume& volume,
               const PersistentVolumeClaim& claim) {
  // A PV pre-bound to the claim is not held to its selector.
  const bool free_and_selected =
      volume.claim.empty() && claim.selector.Matches(volume.labels_while_free);
  return volume.storage_class == claim.storage_class && !volume.deleting &&
         (free_and_selected || volume.claim == claim.Key()) &&
         volume.block == claim.block &&
         volume.capacity_bytes >= claim.request_bytes &&
         HasAccessModes(volume, claim);
}

// The nodes a CSIStorageCapacity's topology selects, as a node selector
// term (its requirements ANDed; the selector is not empty).
NodeSelectorTerm TermOf(const LabelSelector& selector) {
  NodeSelectorTerm term;
  for (const LabelRequirement& r : selector.requirements()) {
    using LabelOp = LabelRequirement::Op;
    const Op op = r.op == LabelOp::kEquals || r.op == LabelOp::kIn ? Op::kIn
                  : r.op == LabelOp::kNotEquals || r.op == LabelOp::kNotIn
                      ? Op::kNotIn
                  : r.op == LabelOp::kExists ? Op::kExists
                                             : Op::kDoesNotExist;
    term.requirements.push_back({r.key, op, r.values});
  }
  return term;
}

// Two In requirements of the term on one key with no value in common:
// the term matches no node (an allowed zone without room, say).
bool NoValueMeetsBoth(const NodeSelectorTerm& term) {
  const std::vector<NodeSelectorRequirement>& all = term.requirements;
  for (size_t i = 0; i < all.size(); ++i) {
    for (size_t j = i + 1; j < all.size(); ++j) {
      if (all[i].op != Op::kIn || all[j].op != Op::kIn ||
          all[i].key != all[j].key) {
        continue;
      }
      const bool shared =
          std::ranges::any_of(all[i].values, [&](const std::string& value) {
            return std::ranges::find(all[j].values, value) !=
                   all[j].values.end();
          });
      if (!shared) return true;
    }
  }
  return false;
}

// Where the class's provisioner can make the claim's volume: its
// allowedTopologies and, when the provisioner's CSIDriver asks for
// capacity checks (VolumeBinding's hasEnoughCapacity), only where a
// CSIStorageCapacity of the class holds the claim's size. nullopt:
// anywhere; empty: nowhere.
std::optional<std::vector<NodeSelectorTerm>> ProvisioningTopology(
    const PersistentVolumeClaim& claim, const StorageClass& storage_class,
    const VolumeObjects& objects) {
  const std::vector<NodeSelectorTerm>& allowed =
      storage_class.allowed_topologies;
  auto anywhere_allowed =
      [&]() -> std::optional<std::vector<NodeSelectorTerm>> {
    if (allowed.empty()) return std::nullopt;
    return allowed;
  };
  if (claim.request_bytes == 0 ||
      !objects.capacity_checked_drivers.contains(storage_class.provisioner)) {
    return anywhere_allowed();
  }
  std::vector<NodeSelectorTerm> rooms;
  for (const auto& [key, capacity] : objects.capacities) {
    const std::optional<int64_t>& limit =
        capacity->maximum_volume_size_bytes
            ? capacity->maximum_volume_size_bytes
            : capacity->capacity_bytes;
    if (capacity->storage_class != storage_class.name || !limit ||
        *limit < claim.request_bytes || !capacity->node_topology) {
      continue;
    }
    if (capacity->node_topology->empty()) return anywhere_allowed();
    rooms.push_back(TermOf(*capacity->node_topology));
  }
  if (allowed.empty()) return rooms;
  std::vector<NodeSelectorTerm> crossed;
  for (const NodeSelectorTerm& a : allowed) {
    for (const NodeSelectorTerm& room : rooms) {
      NodeSelectorTerm both = a;
      both.requirements.insert(both.requirements.end(),
                               room.requirements.begin(),
                               room.requirements.end());
      if (!NoValueMeetsBoth(both)) crossed.push_back(std::move(both));
    }
  }
  return crossed;
}

// An unbound WaitForFirstConsumer claim: the node the scheduler already
// chose, else where a matching PV or the class's provisioner can put it.
// nullopt: any node will do.
std::optional<VolumeNeed> DelayedBindingNeed(const PersistentVolumeClaim& claim,
                                             const StorageClass& storage_class,
                                             const VolumeObjects& objects,
                                             const std::string& what) {
  if (!claim.selected_node.empty()) {
    return VolumeNeed{
        "node(s) didn't match the claim's selected node",
        {{{Requirement(kHostnameLabel, Op::kIn, {claim.selected_node})}}},
        what + ", " + std::string(kube::kSelectedNodeAnnotation) + "=" +
            claim.selected_node};
  }
  VolumeNeed need{"node(s) didn't find available persistent volumes to bind",
                  {},
                  what + ", storage class " + Quoted(storage_class.name)};
  for (const auto& [name, volume] : objects.volumes) {
    if (!CouldBind(*volume, claim)) continue;
    if (volume->node_affinity.empty()) return std::nullopt;
    need.alternatives.insert(need.alternatives.end(),
                             volume->node_affinity.begin(),
                             volume->node_affinity.end());
  }
  if (!storage_class.provisioner.empty() &&
      storage_class.provisioner != kube::kNoProvisioner) {
    std::optional<std::vector<NodeSelectorTerm>> where =
        ProvisioningTopology(claim, storage_class, objects);
    if (!where) return std::nullopt;
    if (where->empty() && need.alternatives.empty()) {
      need.reason = "node(s) did not have enough free storage";
    }
    need.alternatives.insert(need.alternatives.end(), where->begin(),
                             where->end());
  }
  return need;
}

// The claim's checks before any node is looked at (VolumeBinding's
// PreFilter); a reason when the claim fits no node.
std::optional<std::string> UnusableClaim(const PodState& pod,
                                         const kube::PodClaim& ref,
                                         const PersistentVolumeClaim* claim) {
  const std::string name = Quoted(kube::ClaimNameOf(pod, ref));
  if (claim == nullptr) {
    return ref.ephemeral ? "waiting for ephemeral volume controller to "
                           "create the persistentvolumeclaim " +
                               name
                         : "persistentvolumeclaim " + name + " not found";
  }
  if (claim->deleting) {
    return "persistentvolumeclaim " + name + " is being deleted";
  }
  if (claim->lost) {
    return "persistentvolumeclaim " + name +
           " bound to non-existent persistentvolume " +
           Quoted(claim->volume_name);
  }
  if (ref.ephemeral &&
      (claim->owner_kind != "Pod" || claim->owner_name != pod.name)) {
    return "persistentvolumeclaim " + name + " was not created for pod " +
           Quoted(pod.Key()) + " (pod is not owner)";
  }
  return std::nullopt;
}

void AddClaim(const PodState& pod, const kube::PodClaim& ref,
              const VolumeObjects& objects, ResolvedVolumes* out) {
  const std::string claim_name = kube::ClaimNameOf(pod, ref);
  auto found = objects.claims.find(kube::ClaimKeyOf(pod, ref));
  const PersistentVolumeClaim* claim =
      found == objects.claims.end() ? nullptr : found->second.get();
  if (std::optional<std::string> why = UnusableClaim(pod, ref, claim)) {
    out->needs.push_back(Nowhere(std::move(*why)));
    return;
  }
  const std::string what = "claim " + Quoted(claim_name);
  if (!claim->volume_name.empty() && claim->bind_completed) {
    auto volume = objects.volumes.find(claim->volume_name);
    if (volume == objects.volumes.end()) {
      out->needs.push_back(
          Nowhere("node(s) unavailable due to one or more pvc(s) bound to "
                  "non-existent pv(s)",
                  what + ", volume " + Quoted(claim->volume_name)));
      return;
    }
    AddBoundNeeds(*volume->second, what + ", volume " + Quoted(volume->first),
                  &out->needs);
    if (!volume->second->csi_driver.empty()) {
      out->attached.push_back(
          {volume->second->csi_driver, volume->second->csi_handle});
    }
    return;
  }
  auto storage_class = objects.classes.find(claim->storage_class);
  if (!claim->storage_class.empty() && claim->volume_name.empty() &&
      storage_class == objects.classes.end()) {
    out->needs.push_back(Nowhere("storageclass.storage.k8s.io " +
                                     Quoted(claim->storage_class) +
                                     " not found",
                                 what));
    return;
  }
  if (claim->volume_name.empty() && storage_class != objects.classes.end() &&
      storage_class->second->wait_for_first_consumer) {
    if (std::optional<VolumeNeed> need =
            DelayedBindingNeed(*claim, *storage_class->second, objects, what)) {
      out->needs.push_back(std::move(*need));
    }
    const std::string& provisioner = storage_class->second->provisioner;
    if (!provisioner.empty() && provisioner != kube::kNoProvisioner) {
      out->attached.push_back(
          {std::string(kube::MigratedDriverName(provisioner)), claim->Key()});
    }
    return;
  }
  out->needs.push_back(
      Nowhere("pod has unbound immediate PersistentVolumeClaims", what));
}

}  // namespace

std::string UnreadableVolumesReason(const VolumeObjects& objects) {
  if (objects.unreadable.empty()) return "";
  std::string kinds;
  for (const auto& [kind, why] : objects.unreadable) {
    kinds += (kinds.empty() ? "" : ", ") + kind;
  }
  return "propscaler cannot read " + kinds +
         " (forbidden): grant list and watch on " + kinds +
         " to place pods with claims";
}

ResolvedVolumes ResolveVolumes(const PodState& pod,
                               const VolumeObjects& objects) {
  ResolvedVolumes out;
  if (!pod.claims.empty() && !objects.unreadable.empty()) {
    out.needs.push_back(Nowhere(UnreadableVolumesReason(objects)));
    return out;
  }
  for (const kube::PodClaim& claim : pod.claims) {
    AddClaim(pod, claim, objects, &out);
  }
  return out;
}

namespace {

// Pod i's needs and attached volumes; whether it changed.
bool ResolvePod(const VolumeObjects& objects, size_t i, PodList* pods) {
  const PodState& pod = (*pods)[i];
  ResolvedVolumes resolved = ResolveVolumes(pod, objects);
  // Details too: a claim bound again names its new volume.
  const bool same_needs =
      std::ranges::equal(resolved.needs, pod.volume_needs.get(),
                         [](const VolumeNeed& a, const VolumeNeed& b) {
                           return a == b && a.detail == b.detail;
                         });
  if (same_needs && resolved.attached == pod.attached_volumes.get()) {
    return false;
  }
  PodState& copy = pods->Mutable(i);
  copy.volume_needs = std::move(resolved.needs);
  copy.attached_volumes = std::move(resolved.attached);
  return true;
}

void ApplyNodeLimits(const VolumeObjects& objects, ClusterSnapshot* snapshot) {
  for (NodeState& node : snapshot->nodes) {
    auto limits = objects.node_limits.find(node.name);
    const VolumeLimits* csi_node =
        limits == objects.node_limits.end() ? nullptr : &limits->second;
    if (HasAllocatableVolumeLimits(node.allocatable)) {
      VolumeLimits merged = NodeVolumeLimits(node.allocatable, csi_node);
      if (node.volume_limits != merged) node.volume_limits = std::move(merged);
    } else if (csi_node == nullptr) {
      node.volume_limits.clear();
    } else if (node.volume_limits != *csi_node) {
      node.volume_limits = *csi_node;
    }
  }
}

}  // namespace

bool FitsNowhere(const PodState& pod) {
  return std::ranges::any_of(
      pod.volume_needs.get(),
      [](const VolumeNeed& need) { return need.alternatives.empty(); });
}

void ResolveSnapshotVolumes(const VolumeObjects& objects,
                            ClusterSnapshot* snapshot) {
  for (size_t i = 0; i < snapshot->pods.size(); ++i) {
    if (!snapshot->pods[i].claims.empty()) {
      ResolvePod(objects, i, &snapshot->pods);
    }
  }
  MarkReadWriteOncePodConflicts(ReadWriteOncePodClaims(objects),
                                &snapshot->pods);
  ApplyNodeLimits(objects, snapshot);
}

ClaimCounts ResolveSnapshotVolumes(std::shared_ptr<const VolumeObjects> objects,
                                   ClusterSnapshot* snapshot,
                                   ResolvedPodCache* cache) {
  if (cache->objects != objects) {
    cache->by_source.clear();
    cache->read_write_once_pod = ReadWriteOncePodClaims(*objects);
  }
  cache->objects = objects;
  const uint64_t now = ++cache->resolutions;
  size_t used = 0;
  ClaimCounts counts;
  PodList& pods = snapshot->pods;
  for (size_t i = 0; i < pods.size(); ++i) {
    if (pods[i].claims.empty()) continue;
    ++used;
    auto hit = cache->by_source.find(&pods[i]);
    if (hit != cache->by_source.end()) {
      hit->second.seen = now;
      pods.ShareAt(i, hit->second.resolved);
    } else {
      PodList::Shared source = pods.SharedAt(i);
      ResolvePod(*objects, i, &pods);
      cache->by_source.emplace(
          source.get(), ResolvedPodCache::Entry{source, pods.SharedAt(i), now});
    }
    if (FitsNowhere(pods[i])) ++counts.fitting_nowhere;
  }
  counts.pods_with_claims = static_cast<int64_t>(used);
  // Not cached: it depends on the other pods too.
  counts.fitting_nowhere +=
      MarkReadWriteOncePodConflicts(cache->read_write_once_pod, &pods);
  // Entries of pods gone are forgotten; a loop at rest allocates nothing.
  if (used < cache->by_source.size()) {
    std::erase_if(cache->by_source, [now](const auto& entry) {
      return entry.second.seen != now;
    });
  }
  ApplyNodeLimits(*objects, snapshot);
  return counts;
}

}  // namespace propscaler::nodescale
