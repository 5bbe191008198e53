#include "nodescale/plan/claim_scale_up.h"

#include <map>

#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/claims/claim_scheduler.h"
#include "nodescale/plan/scale_up/upcoming_nodes.h"
#include "nodescale/plan/simulation/template_hash.h"

namespace propscaler::nodescale {
namespace {

constexpr size_t kMaxLabelValue = 63;
constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kCapacityType = "karpenter.sh/capacity-type";

std::string LabelOr(const Labels& labels, const char* key,
                    const char* fallback) {
  auto it = labels.find(key);
  return it == labels.end() ? fallback : it->second;
}

// Characters a label value may not hold become '-'.
std::string LabelSafe(std::string text) {
  for (char& c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!ok) c = '-';
  }
  return text;
}

// The name of the group `name` stands for, when it is one.
const NodeGroup* GroupNamed(const std::vector<NodeGroup>& groups,
                            const std::string& name) {
  return FindGroup(groups, name);
}

// The catalogue with the offerings of backed-off groups unavailable.
NodePoolCatalogue WithoutBackedOff(const NodePoolCatalogue& catalogue,
                                   const ScaleUpMemory& memory) {
  NodePoolCatalogue out = catalogue;
  if (memory.backed_off_groups.empty()) return out;
  for (const NodePoolSpec& pool : catalogue.pools) {
    for (InstanceType& type : out.instance_types) {
      for (Offering& offering : type.offerings) {
        if (memory.backed_off_groups.contains(
                CandidateGroupName(pool, type, offering))) {
          offering.available = false;
        }
      }
    }
  }
  return out;
}

// The snapshot with each node still coming as a node that is not ready.
ClusterSnapshot WithUpcomingNodes(const ClusterSnapshot& snapshot,
                                  const std::vector<NodeGroup>& groups,
                                  const ScaleUpMemory& memory,
                                  const ScaleUpConfig& config) {
  ClusterSnapshot out = snapshot;
  const UpcomingNodes upcoming =
      UpcomingNodesOf(snapshot, groups, memory, config);
  for (size_t i = 0; i < upcoming.bins.size(); ++i) {
    const Bin& bin = upcoming.bins[i];
    NodeState node;
    node.name = "upcoming-" + std::to_string(i);
    node.allocatable = bin.free;
    node.labels = *bin.labels;
    node.taints = *bin.taints;
    out.nodes.push_back(std::move(node));
  }
  return out;
}

}  // namespace

std::string CandidateGroupName(const NodePoolSpec& pool,
                               const InstanceType& type,
                               const Offering& offering) {
  const std::string full =
      LabelSafe(pool.name + "." + type.name + "." +
                LabelOr(offering.labels, kZone, "any-zone") + "." +
                LabelOr(offering.labels, kCapacityType, "on-demand"));
  if (full.size() <= kMaxLabelValue) return full;
  NodeTemplate named;
  named.labels["name"] = full;
  const std::string hash = TemplateHash(named).substr(0, 12);
  return full.substr(0, kMaxLabelValue - hash.size() - 1) + "." + hash;
}

std::vector<NodeGroup> CatalogueGroups(const NodePoolCatalogue& catalogue) {
  std::vector<NodeGroup> groups;
  for (const NodePoolSpec& pool : catalogue.pools) {
    const PoolCatalogue candidates(pool, catalogue.instance_types, {});
    const std::string pool_hash = NodePoolHash(pool);
    for (const PoolCandidate& c : candidates.candidates()) {
      const InstanceType& type = catalogue.instance_types[c.instance_type];
      const Offering& offering = type.offerings[c.offering];
      NodeGroup group;
      group.name = CandidateGroupName(pool, type, offering);
      group.pool = pool.name;
      group.capacity_type = LabelOr(c.labels, kCapacityType, "on-demand");
      group.max_size = kNoGroupMax;
      group.price = c.price;
      group.declared_template =
          NodeTemplate{type.Allocatable(),
                       c.labels,
                       pool.taints,
                       {{std::string(kNodePoolHashAnnotation), pool_hash}},
                       {}};
      groups.push_back(std::move(group));
    }
  }
  return groups;
}

ScaleUpPlan PlanClaimScaleUp(const ClusterSnapshot& snapshot,
                             const std::vector<NodeGroup>& groups,
                             const ScaleUpMemory& memory,
                             const ScaleUpConfig& config,
                             const NodePoolCatalogue& catalogue) {
  const ClusterSnapshot with_upcoming =
      WithUpcomingNodes(snapshot, groups, memory, config);
  const NodePoolCatalogue usable = WithoutBackedOff(catalogue, memory);
  const ClaimPlan claims =
      ScheduleClaims({&with_upcoming, &usable.pools, &usable.instance_types});
  ScaleUpPlan plan;
  std::map<std::string, size_t> increase_of;
  for (const PlannedClaim& claim : claims.claims) {
    const NodePoolSpec& pool = usable.pools[claim.pool];
    const InstanceType& type = usable.instance_types[claim.instance_type];
    const std::string group =
        CandidateGroupName(pool, type, type.offerings[claim.offering]);
    if (GroupNamed(groups, group) == nullptr) continue;  // not declared
    auto [it, added] = increase_of.try_emplace(group, plan.increases.size());
    if (added) plan.increases.push_back({group, 0, {}, {}});
    GroupIncrease& increase = plan.increases[it->second];
    for (size_t pod : claim.pods) {
      increase.pods.push_back(with_upcoming.pods[pod].Key());
      increase.pod_nodes.push_back(increase.delta);
    }
    ++increase.delta;
  }
  for (const ExistingPlacement& e : claims.existing_nodes) {
    for (size_t pod : e.pods) {
      plan.fit_existing.push_back(with_upcoming.pods[pod].Key());
    }
  }
  for (const UnplacedPod& u : claims.unschedulable) {
    plan.unschedulable.push_back({with_upcoming.pods[u.pod].Key(),
                                  std::make_shared<const GroupReasons>(
                                      u.reasons.begin(), u.reasons.end())});
  }
  return plan;
}

}  // namespace propscaler::nodescale
