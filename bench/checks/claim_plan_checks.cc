#include "checks/claim_plan_checks.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "nodescale/plan/simulation/node_templates.h"
#include "nodescale/plan/simulation/predicates.h"

namespace propscaler::bench {
namespace {

using namespace ::propscaler::nodescale;  // NOLINT: the checks' subject

constexpr size_t kNone = static_cast<size_t>(-1);

// The nodes a plan leaves: the existing ones, then its claims; each with
// its labels and, for the hostname, its own name.
struct Hosts {
  std::vector<const Labels*> labels;
  std::vector<std::string> names;
  std::vector<size_t> of_pod;  // per snapshot pod; kNone: not on one

  std::string DomainOf(size_t host, const std::string& key) const {
    if (key == kHostnameLabel) return names[host];
    auto it = labels[host]->find(key);
    return it == labels[host]->end() ? std::string() : it->second;
  }
};

Hosts HostsOf(const ClusterSnapshot& snapshot, const ClaimPlan& plan) {
  Hosts hosts;
  std::map<std::string, size_t, std::less<>> by_name;
  for (const NodeState& node : snapshot.nodes) {
    by_name[node.name] = hosts.names.size();
    hosts.labels.push_back(&node.labels);
    hosts.names.push_back(node.name);
  }
  hosts.of_pod.assign(snapshot.pods.size(), kNone);
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    const PodState& pod = snapshot.pods[i];
    if (pod.terminated || pod.node_name.empty()) continue;
    if (auto it = by_name.find(pod.node_name); it != by_name.end()) {
      hosts.of_pod[i] = it->second;
    }
  }
  for (const ExistingPlacement& e : plan.existing_nodes) {
    for (size_t pod : e.pods) hosts.of_pod[pod] = e.node;
  }
  for (const PlannedClaim& claim : plan.claims) {
    for (size_t pod : claim.pods) hosts.of_pod[pod] = hosts.names.size();
    hosts.labels.push_back(&claim.labels);
    hosts.names.push_back(claim.name);
  }
  return hosts;
}

bool Selects(const LabelSelector& selector,
             const std::vector<std::string>& namespaces, const PodState& pod,
             const PodState& owner) {
  const bool in_namespace =
      namespaces.empty() ? pod.namespace_ == owner.namespace_
                         : std::find(namespaces.begin(), namespaces.end(),
                                     pod.namespace_) != namespaces.end();
  return in_namespace && selector.Matches(pod.labels);
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

std::string TermId(const PodState& owner, const PodAffinityTerm& t) {
  std::string id = t.topology_key + "|" + t.selector.ToString() + "|";
  if (t.namespaces.empty()) return id + owner.namespace_;
  for (const std::string& ns : t.namespaces) id += ns + ",";
  return id;
}

// Required pod anti-affinity over the final placement: no other pod its
// term selects in its domain (the other way round is the other pod's own
// check, or a term of a pod that selects it).
void CheckAntiAffinities(const ClusterSnapshot& snapshot, const Hosts& hosts,
                         Failures* failures) {
  std::map<std::string, std::pair<const PodState*, const PodAffinityTerm*>>
      terms;
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    if (hosts.of_pod[i] == kNone) continue;
    const PodState& pod = snapshot.pods[i];
    for (const PodAffinityTerm& t : *pod.anti_affinity) {
      terms.try_emplace(TermId(pod, t), &pod, &t);
    }
  }
  std::map<std::string, std::map<std::string, int64_t>> counts;
  for (const auto& [id, term] : terms) {
    auto& per_domain = counts[id];
    for (size_t i = 0; i < snapshot.pods.size(); ++i) {
      if (hosts.of_pod[i] == kNone) continue;
      if (Selects(term.second->selector, term.second->namespaces,
                  snapshot.pods[i], *term.first)) {
        const std::string d =
            hosts.DomainOf(hosts.of_pod[i], term.second->topology_key);
        if (!d.empty()) ++per_domain[d];
      }
    }
  }
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    if (hosts.of_pod[i] == kNone) continue;
    const PodState& pod = snapshot.pods[i];
    for (const PodAffinityTerm& t : *pod.anti_affinity) {
      const std::string d = hosts.DomainOf(hosts.of_pod[i], t.topology_key);
      const auto& per_domain = counts[TermId(pod, t)];
      auto it = per_domain.find(d);
      const int64_t n = it == per_domain.end() ? 0 : it->second;
      const int64_t self = Selects(t.selector, t.namespaces, pod, pod) ? 1 : 0;
      if (!d.empty() && n - self > 0) {
        failures->push_back("pod " + pod.Key() + " shares " + t.topology_key +
                            " " + d + " with a pod its anti-affinity (" +
                            t.selector.ToString() + ") selects");
      }
    }
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
      if (Selects(c.term->selector, c.term->namespaces, snapshot.pods[i],
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
          c.total == 0 && Selects(t.selector, t.namespaces, pod, pod);
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
  Resources total;
  for (const PodState& pod : snapshot.pods) {
    if (!IsPending(pod) || IsDaemonSetPod(pod)) continue;
    pending.push_back(&pod);
    total += pod.requests;
  }
  int64_t bound = 0;
  std::set<std::string> seen;
  for (const PodState* owner : pending) {
    for (const PodAffinityTerm& t : *owner->anti_affinity) {
      if (t.topology_key != kHostnameLabel) continue;
      const std::string id = t.selector.ToString() + "|" + owner->namespace_;
      if (!seen.insert(id).second) continue;
      int64_t apart = 0;
      for (const PodState* pod : pending) {
        const bool owns =
            std::find(pod->anti_affinity->begin(), pod->anti_affinity->end(),
                      t) != pod->anti_affinity->end();
        if (owns && Selects(t.selector, t.namespaces, *pod, *owner)) ++apart;
      }
      bound = std::max(bound, apart);
    }
  }
  Resources largest;
  for (const InstanceType& type : catalogue) {
    const Resources a = type.Allocatable();
    largest.cpu_millis = std::max(largest.cpu_millis, a.cpu_millis);
    largest.memory_bytes = std::max(largest.memory_bytes, a.memory_bytes);
  }
  auto ceil_div = [](int64_t a, int64_t b) {
    return b > 0 ? (a + b - 1) / b : 0;
  };
  bound = std::max(bound, ceil_div(total.cpu_millis, largest.cpu_millis));
  bound = std::max(bound, ceil_div(total.memory_bytes, largest.memory_bytes));
  return bound;
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
    const int64_t bound = ClaimLowerBound(snapshot, catalogue);
    if (static_cast<int64_t>(plan.claims.size()) < bound) {
      failures.push_back(std::to_string(plan.claims.size()) +
                         " claims, fewer than the lower bound " +
                         std::to_string(bound));
    }
  }
  return failures;
}

}  // namespace propscaler::bench
