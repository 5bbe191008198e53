#include "checks/claim_plan_checks.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "checks/final_placement.h"
#include "checks/node_count_bound.h"
#include "nodescale/plan/simulation/node_templates.h"
#include "nodescale/plan/simulation/predicates.h"

namespace propscaler::bench {
namespace {

using namespace ::propscaler::nodescale;  // NOLINT: the checks' subject

// The existing nodes, then the claims.
Hosts HostsOf(const ClusterSnapshot& snapshot, const ClaimPlan& plan) {
  Hosts hosts = ExistingHosts(snapshot);
  for (const ExistingPlacement& e : plan.existing_nodes) {
    for (size_t pod : e.pods) hosts.of_pod[pod] = e.node;
  }
  for (const PlannedClaim& claim : plan.claims) {
    const size_t host = hosts.Add(&claim.labels, claim.name);
    for (size_t pod : claim.pods) hosts.of_pod[pod] = host;
  }
  return hosts;
}

void CheckEveryPodOnce(const ClusterSnapshot& snapshot, const ClaimPlan& plan,
                       Failures* failures) {
  std::vector<int> seen(snapshot.pods.size(), 0);
  for (size_t pod : plan.placement_order) ++seen[pod];
  std::vector<int> placed(snapshot.pods.size(), 0);
  for (const PlannedClaim& c : plan.claims) {
    for (size_t pod : c.pods) ++placed[pod];
  }
  for (const ExistingPlacement& e : plan.existing_nodes) {
    for (size_t pod : e.pods) ++placed[pod];
  }
  for (const UnplacedPod& u : plan.unschedulable) ++seen[u.pod];
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    const PodState& pod = snapshot.pods[i];
    const bool wanted = IsPending(pod) && !IsDaemonSetPod(pod);
    if (seen[i] != (wanted ? 1 : 0)) {
      failures->push_back("pod " + pod.Key() + " is in the plan " +
                          std::to_string(seen[i]) + " times");
    }
  }
  size_t total_placed = 0;
  for (int p : placed) {
    if (p > 1) failures->push_back("a pod is on more than one node");
    total_placed += p > 0;
  }
  if (total_placed != plan.placement_order.size()) {
    failures->push_back("the placement order has " +
                        std::to_string(plan.placement_order.size()) +
                        " pods, the nodes " + std::to_string(total_placed));
  }
}

void CheckClaims(const ClusterSnapshot& snapshot,
                 const std::vector<NodePoolSpec>& pools,
                 const std::vector<InstanceType>& catalogue,
                 const ClaimPlan& plan, Failures* failures) {
  const std::vector<const PodState*> daemons =
      OnePodPerDaemonSet(snapshot.pods);
  for (const PlannedClaim& claim : plan.claims) {
    const std::string name = "claim " + claim.name;
    if (claim.pool >= pools.size() || claim.instance_type >= catalogue.size() ||
        claim.offering >= catalogue[claim.instance_type].offerings.size()) {
      failures->push_back(name + " names no pool, type or offering");
      continue;
    }
    const NodePoolSpec& pool = pools[claim.pool];
    const InstanceType& type = catalogue[claim.instance_type];
    for (const PoolRequirement& r : pool.requirements) {
      if (!MatchesNodeSelectorRequirement(r.requirement, claim.labels)) {
        failures->push_back(name + ": labels break NodePool " + pool.name +
                            "'s requirement on " + r.requirement.key);
      }
    }
    auto carries = [&](const Labels& labels) {
      for (const auto& [k, v] : labels) {
        auto it = claim.labels.find(k);
        if (it == claim.labels.end() || it->second != v) return false;
      }
      return true;
    };
    if (!carries(type.labels) ||
        !carries(type.offerings[claim.offering].labels)) {
      failures->push_back(name + ": labels are not " + type.name + "'s");
    }
    Resources requests;
    for (size_t i : claim.pods) {
      const PodState& pod = snapshot.pods[i];
      requests += pod.requests;
      if (CheckNodeConstraints(pod, claim.labels, pool.taints) !=
          Unfit::kNone) {
        failures->push_back(
            name + ": pod " + pod.Key() + " does not fit: " +
            DescribeNodeConstraintFailure(pod, claim.labels, pool.taints));
      }
    }
    const Resources free = FreeOnNewNode(
        {type.Allocatable(), claim.labels, pool.taints, {}, {}}, daemons);
    if (!Fits(requests, free)) {
      failures->push_back(name + " (" + type.name +
                          "): its pods ask for more " +
                          FirstShortResource(requests, free) + " than it has");
    }
  }
}

void CheckExistingNodes(const ClusterSnapshot& snapshot, const ClaimPlan& plan,
                        Failures* failures) {
  for (const ExistingPlacement& e : plan.existing_nodes) {
    const NodeState& node = snapshot.nodes[e.node];
    Resources used;
    for (const PodState& pod : snapshot.pods) {
      if (!pod.terminated && pod.node_name == node.name) used += pod.requests;
    }
    for (size_t i : e.pods) {
      const PodState& pod = snapshot.pods[i];
      used += pod.requests;
      if (CheckNodeConstraints(pod, node.labels, node.taints) != Unfit::kNone) {
        failures->push_back("node " + node.name + ": pod " + pod.Key() +
                            " does not fit its labels or taints");
      }
    }
    if (!Fits(used, node.allocatable)) {
      failures->push_back("node " + node.name + ": its pods ask for more " +
                          FirstShortResource(used, node.allocatable) +
                          " than it has");
    }
  }
}

// One spread's pods per domain, as pods land.
struct SpreadGroup {
  std::string key;
  LabelSelector selector;
  std::string namespace_;
  std::map<std::string, int64_t> counts;
};

void CheckSpreads(const ClusterSnapshot& snapshot, const Hosts& hosts,
                  const ClaimPlan& plan, Failures* failures) {
  std::vector<SpreadGroup> groups;
  std::map<std::string, size_t> index;
  auto group_of = [&](const PodState& pod, const SpreadConstraint& s) {
    const std::string id =
        s.topology_key + "|" + s.selector.ToString() + "|" + pod.namespace_;
    auto [it, added] = index.try_emplace(id, groups.size());
    if (added)
      groups.push_back({s.topology_key, s.selector, pod.namespace_, {}});
    return it->second;
  };
  for (const PodState& pod : snapshot.pods) {
    for (const SpreadConstraint& s : *pod.spread) group_of(pod, s);
  }
  if (groups.empty()) return;
  auto count = [&](size_t pod) {
    if (hosts.of_pod[pod] == kNone) return;
    const PodState& p = snapshot.pods[pod];
    for (SpreadGroup& g : groups) {
      if (g.namespace_ == p.namespace_ && g.selector.Matches(p.labels)) {
        const std::string d = hosts.DomainOf(hosts.of_pod[pod], g.key);
        if (!d.empty()) ++g.counts[d];
      }
    }
  };
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    if (!snapshot.pods[i].node_name.empty() && hosts.of_pod[i] != kNone) {
      count(i);
    }
  }
  // The domains of each key the pod may land in, by its node terms.
  std::map<std::tuple<const void*, const void*, std::string>,
           std::set<std::string>>
      eligible;
  auto eligible_of =
      [&](const PodState& pod,
          const std::string& key) -> const std::set<std::string>& {
    auto k = std::make_tuple(pod.node_selector.identity(),
                             pod.node_affinity.identity(), key);
    auto it = eligible.find(k);
    if (it != eligible.end()) return it->second;
    std::set<std::string> domains;
    for (size_t h = 0; h < hosts.names.size(); ++h) {
      if (MatchesNodeSelector(pod, *hosts.labels[h]) &&
          MatchesNodeAffinity(pod, *hosts.labels[h])) {
        if (std::string d = hosts.DomainOf(h, key); !d.empty()) {
          domains.insert(std::move(d));
        }
      }
    }
    return eligible.emplace(k, std::move(domains)).first->second;
  };
  for (size_t pod : plan.placement_order) {
    if (hosts.of_pod[pod] == kNone) continue;  // reported as not placed
    const PodState& p = snapshot.pods[pod];
    for (const SpreadConstraint& s : *p.spread) {
      const SpreadGroup& g = groups[group_of(p, s)];
      const std::set<std::string>& domains = eligible_of(p, s.topology_key);
      int64_t least = 0;
      if (static_cast<int64_t>(domains.size()) >= s.min_domains) {
        size_t counted = 0;
        int64_t min_count = INT64_MAX;
        for (const auto& [d, c] : g.counts) {
          if (domains.contains(d)) {
            ++counted;
            min_count = std::min(min_count, c);
          }
        }
        least = counted < domains.size() ? 0 : min_count;
      }
      const std::string d = hosts.DomainOf(hosts.of_pod[pod], s.topology_key);
      auto it = g.counts.find(d);
      const int64_t here = (it == g.counts.end() ? 0 : it->second) +
                           (s.selector.Matches(p.labels) ? 1 : 0);
      if (d.empty() || here - least > s.max_skew) {
        failures->push_back("pod " + p.Key() + " breaks its spread over " +
                            s.topology_key + " (" + s.selector.ToString() +
                            ") in " + (d.empty() ? "no domain" : d) + ": " +
                            std::to_string(here) + " there, fewest " +
                            std::to_string(least) + ", maxSkew " +
                            std::to_string(s.max_skew));
      }
    }
    count(pod);
  }
}

// Required pod affinity as each pod lands, as kube-scheduler judges it: a
// pod its term selects is already in its domain, or none is anywhere yet
// and the term selects the pod itself.
void CheckAffinities(const ClusterSnapshot& snapshot, const Hosts& hosts,
                     const ClaimPlan& plan, Failures* failures) {
  struct Counted {
    const PodState* owner;
    const PodAffinityTerm* term;
    std::map<std::string, int64_t> per_domain;
    int64_t total = 0;
  };
  std::map<std::string, Counted> terms;
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    const PodState& pod = snapshot.pods[i];
    for (const PodAffinityTerm& t : *pod.affinity) {
      terms.try_emplace(TermId(pod, t), Counted{&pod, &t, {}, 0});
    }
  }
  if (terms.empty()) return;
  auto count = [&](size_t i) {
    if (hosts.of_pod[i] == kNone) return;
    for (auto& [id, c] : terms) {
      if (TermSelects(c.term->selector, c.term->namespaces, snapshot.pods[i],
                      *c.owner)) {
        const std::string d =
            hosts.DomainOf(hosts.of_pod[i], c.term->topology_key);
        if (!d.empty()) ++c.per_domain[d];
        ++c.total;
      }
    }
  };
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    if (!snapshot.pods[i].node_name.empty()) count(i);
  }
  for (size_t i : plan.placement_order) {
    if (hosts.of_pod[i] == kNone) continue;
    const PodState& pod = snapshot.pods[i];
    for (const PodAffinityTerm& t : *pod.affinity) {
      const Counted& c = terms.at(TermId(pod, t));
      const std::string d = hosts.DomainOf(hosts.of_pod[i], t.topology_key);
      auto it = c.per_domain.find(d);
      const bool peer =
          !d.empty() && it != c.per_domain.end() && it->second > 0;
      const bool first =
          c.total == 0 && TermSelects(t.selector, t.namespaces, pod, pod);
      if (!peer && !first) {
        failures->push_back("pod " + pod.Key() + " has no pod its affinity (" +
                            t.selector.ToString() + ") selects in its " +
                            t.topology_key + (d.empty() ? "" : " " + d));
      }
    }
    count(i);
  }
}

}  // namespace

int64_t ClaimLowerBound(const ClusterSnapshot& snapshot,
                        const std::vector<InstanceType>& catalogue) {
  std::vector<const PodState*> pending;
  for (const PodState& pod : snapshot.pods) {
    if (IsPending(pod) && !IsDaemonSetPod(pod)) pending.push_back(&pod);
  }
  Resources largest;
  for (const InstanceType& type : catalogue) {
    const Resources a = type.Allocatable();
    largest.cpu_millis = std::max(largest.cpu_millis, a.cpu_millis);
    largest.memory_bytes = std::max(largest.memory_bytes, a.memory_bytes);
    largest.pods = std::max(largest.pods, a.pods);
  }
  return NewNodesLowerBound(pending, largest);
}

Failures CheckClaimPlan(const ClusterSnapshot& snapshot,
                        const std::vector<NodePoolSpec>& pools,
                        const std::vector<InstanceType>& catalogue,
                        const ClaimPlan& plan) {
  Failures failures;
  CheckEveryPodOnce(snapshot, plan, &failures);
  CheckClaims(snapshot, pools, catalogue, plan, &failures);
  CheckExistingNodes(snapshot, plan, &failures);
  const Hosts hosts = HostsOf(snapshot, plan);
  CheckSpreads(snapshot, hosts, plan, &failures);
  CheckAntiAffinities(snapshot, hosts, &failures);
  CheckAffinities(snapshot, hosts, plan, &failures);
  if (snapshot.nodes.empty() && plan.unschedulable.empty()) {
    if (std::optional<std::string> miss =
            NodeCountMiss(static_cast<int64_t>(plan.claims.size()),
                          ClaimLowerBound(snapshot, catalogue))) {
      failures.push_back("claims: " + *miss);
    }
  }
  return failures;
}

}  // namespace propscaler::bench
