#include "nodescale/plan/claims/claim_scheduler.h"

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <set>

#include "nodescale/plan/claims/claim_topology.h"
#include "nodescale/plan/claims/pool_catalogue.h"
#include "nodescale/plan/claims/preferences.h"
#include "nodescale/plan/simulation/node_templates.h"
#include "nodescale/plan/simulation/predicates.h"

namespace propscaler::nodescale {
namespace {

// The amount of a spec.limits resource name in `r`.
int64_t AmountOf(const Resources& r, std::string_view name) {
  if (name == "cpu") return r.cpu_millis;
  if (name == "memory") return r.memory_bytes;
  if (name == "ephemeral-storage") return r.ephemeral_storage_bytes;
  if (name == "pods") return r.pods;
  return r.Extended(std::string(name));
}

// cpu, then memory, most first; the input's order among equals.
std::vector<size_t> KarpenterOrder(const ClusterSnapshot& snapshot) {
  std::vector<size_t> order;
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    const PodState& pod = snapshot.pods[i];
    if (IsPending(pod) && !IsDaemonSetPod(pod)) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Resources& ra = snapshot.pods[a].requests;
    const Resources& rb = snapshot.pods[b].requests;
    if (ra.cpu_millis != rb.cpu_millis) return ra.cpu_millis > rb.cpu_millis;
    return ra.memory_bytes > rb.memory_bytes;
  });
  return order;
}

class Scheduler {
 public:
  explicit Scheduler(const ClaimSchedulingInput& input)
      : snapshot_(*input.snapshot), pools_(*input.pools) {
    daemonset_pods_ = OnePodPerDaemonSet(snapshot_.pods);
    std::vector<size_t> by_weight(pools_.size());
    std::iota(by_weight.begin(), by_weight.end(), 0);
    std::stable_sort(by_weight.begin(), by_weight.end(),
                     [&](size_t a, size_t b) {
                       if (pools_[a].weight != pools_[b].weight) {
                         return pools_[a].weight > pools_[b].weight;
                       }
                       return pools_[a].name < pools_[b].name;
                     });
    for (size_t p : by_weight) {
      catalogues_.emplace_back(pools_[p], *input.catalogue, daemonset_pods_);
      pool_index_.push_back(p);
    }
    PreparePreferences();
    FindPreferNoSchedule();
    PrepareTopology();
    PrepareNodes();
  }

  ClaimPlan Run() {
    std::vector<size_t> queue = KarpenterOrder(snapshot_);
    std::map<size_t, std::map<std::string, std::string>> reasons;
    while (!queue.empty()) {
      std::vector<size_t> failed;
      bool relaxed = false;
      for (size_t pod : queue) {
        std::map<std::string, std::string> reason;
        if (Place(pod, &reason)) {
          reasons.erase(pod);
        } else {
          failed.push_back(pod);
          reasons[pod] = std::move(reason);
          relaxed = Relax(pod) || relaxed;
        }
      }
      if (failed.size() == queue.size() && !relaxed) break;  // no progress
      queue = std::move(failed);
    }
    for (auto& [pod, reason] : reasons) {
      plan_.unschedulable.push_back({pod, std::move(reason)});
    }
    Launch();
    return std::move(plan_);
  }

 private:
  struct NodeSlot {
    size_t node = 0;
    Resources free;
    std::vector<const PodState*> pods;
    std::vector<size_t> placed;  // pending pods planned onto it
  };
  struct Claim {
    size_t catalogue = 0;  // into catalogues_
    CandidateSet set;
    Resources requests;
    Resources max_free;  // per amount, the most any candidate left offers
    std::vector<size_t> pods;
    std::vector<const PodState*> pod_states;
  };

  // The pod as it is planned: with what is left of what Karpenter relaxes
  // (preferences.h). Its counts (Record) are the pod's own.
  const PodState& PodAt(size_t i) const {
    return preferring_[i] ? *preferring_[i] : snapshot_.pods[i];
  }

  void PreparePreferences() {
    preferring_.resize(snapshot_.pods.size());
    relaxable_.resize(snapshot_.pods.size());
    for (size_t i = 0; i < snapshot_.pods.size(); ++i) {
      const PodState& pod = snapshot_.pods[i];
      if (pod.terminated || !pod.node_name.empty() || !HasRelaxable(pod)) {
        continue;
      }
      relaxable_[i] = RelaxableOf(pod);
      preferring_[i] = std::make_unique<PodState>(Preferring(i));
    }
  }

  // Pods alike share their node terms' copy, so that a NodePool works out
  // once which candidates admit them.
  PodState Preferring(size_t i) {
    PodState out = AsPlanned(snapshot_.pods[i], relaxable_[i]);
    auto [it, fresh] =
        node_terms_.try_emplace(out.node_affinity.get(), out.node_affinity);
    out.node_affinity = it->second;
    return out;
  }

  // Drops one of the pod's relaxable constraints (Karpenter's order); false
  // when none is left.
  bool Relax(size_t i) {
    if (preferring_[i]) {
      if (std::optional<std::string> dropped = RelaxOne(&relaxable_[i])) {
        topology_.Forget(*preferring_[i]);
        *preferring_[i] = Preferring(i);
        plan_.relaxed.push_back({i, std::move(*dropped)});
        return true;
      }
    }
    if (!any_prefer_no_schedule_ || tolerates_prefer_no_schedule_[i]) {
      return false;
    }
    tolerates_prefer_no_schedule_[i] = true;
    plan_.relaxed.push_back({i, "its intolerance of PreferNoSchedule taints"});
    return true;
  }

  // Karpenter's taint check, PreferNoSchedule included until relaxed.
  bool TaintsAllow(size_t i, const std::vector<Taint>& taints) const {
    return !any_prefer_no_schedule_ || tolerates_prefer_no_schedule_[i] ||
           ToleratesPreferNoSchedule(PodAt(i), taints);
  }

  void FindPreferNoSchedule() {
    tolerates_prefer_no_schedule_.assign(snapshot_.pods.size(), 0);
    auto any = [](const std::vector<Taint>& taints) {
      return std::any_of(taints.begin(), taints.end(), [](const Taint& t) {
        return t.effect == TaintEffect::kPreferNoSchedule;
      });
    };
    for (const NodePoolSpec& pool : pools_) {
      any_prefer_no_schedule_ = any_prefer_no_schedule_ || any(pool.taints);
    }
    for (const NodeState& node : snapshot_.nodes) {
      any_prefer_no_schedule_ = any_prefer_no_schedule_ || any(node.taints);
    }
  }
  size_t HostOfClaim(size_t claim) const { return nodes_.size() + claim; }

  void PrepareTopology() {
    for (size_t i = 0; i < snapshot_.pods.size(); ++i) {
      if (!snapshot_.pods[i].terminated) topology_.AddTerms(PodAt(i));
    }
    for (size_t s = 0; s < topology_.slots(); ++s) {
      if (topology_.IsHostname(s)) continue;
      const std::string& key = topology_.KeyOf(s);
      for (const PoolCatalogue& c : catalogues_) {
        for (const std::string& v : c.ValuesOf(key)) {
          topology_.AddDomain(key, v);
        }
      }
      for (const NodeState& node : snapshot_.nodes) {
        if (auto it = node.labels.find(key); it != node.labels.end()) {
          topology_.AddDomain(key, it->second);
        }
      }
    }
  }

  void PrepareNodes() {
    std::map<std::string, size_t, std::less<>> index;
    for (size_t n = 0; n < snapshot_.nodes.size(); ++n) {
      index[snapshot_.nodes[n].name] = n;
      nodes_.push_back({n, snapshot_.nodes[n].allocatable, {}, {}});
    }
    for (const PodState& pod : snapshot_.pods) {
      if (pod.terminated || pod.node_name.empty()) continue;
      auto it = index.find(pod.node_name);
      if (it == index.end()) continue;
      NodeSlot& slot = nodes_[it->second];
      slot.free -= pod.requests;
      slot.pods.push_back(&pod);
      RecordOnNode(pod, it->second);
    }
    // Ready nodes first, then those still coming; cordoned ones never.
    for (size_t n = 0; n < nodes_.size(); ++n) {
      if (!snapshot_.nodes[n].unschedulable) node_order_.push_back(n);
    }
    std::stable_sort(
        node_order_.begin(), node_order_.end(), [&](size_t a, size_t b) {
          return snapshot_.nodes[a].ready && !snapshot_.nodes[b].ready;
        });
    for (const NodeState& node : snapshot_.nodes) CountPoolNode(node);
  }

  void CountPoolNode(const NodeState& node) {
    auto it = node.labels.find(kNodePoolLabel);
    if (it == node.labels.end()) return;
    for (size_t c = 0; c < catalogues_.size(); ++c) {
      if (catalogues_[c].pool().name == it->second) {
        AddUse(c, node.allocatable);
      }
    }
  }

  void AddUse(size_t catalogue, const Resources& capacity) {
    if (used_.size() < catalogues_.size()) used_.resize(catalogues_.size());
    used_[catalogue].first += capacity;
    ++used_[catalogue].second;
  }

  void RecordOnNode(const PodState& pod, size_t n) {
    const Labels& labels = snapshot_.nodes[n].labels;
    topology_.Record(pod, n, [&](size_t slot) {
      auto it = labels.find(topology_.KeyOf(slot));
      return it == labels.end() ? std::string() : it->second;
    });
  }

  bool Place(size_t pod, std::map<std::string, std::string>* reason) {
    if (TryNodes(pod) || TryClaims(pod) || TryNewClaim(pod, reason)) {
      plan_.placement_order.push_back(pod);
      return true;
    }
    return false;
  }

  bool TryNodes(size_t i) {
    const PodState& pod = PodAt(i);
    for (size_t n : node_order_) {
      NodeSlot& slot = nodes_[n];
      const NodeState& node = snapshot_.nodes[n];
      if (!Fits(pod.requests, slot.free)) continue;
      if (CheckNodeConstraints(pod, node.labels, node.taints) != Unfit::kNone ||
          !TaintsAllow(i, node.taints)) {
        continue;
      }
      if (!HostPortsFree(pod, slot.pods) || !InlineDisksFree(pod, slot.pods) ||
          !AttachLimitsAllow(pod, slot.pods, node.volume_limits)) {
        continue;
      }
      if (!topology_.empty()) {
        std::vector<ClaimTopology::Pin> pins;
        auto possible = [&](size_t s) {
          auto it = node.labels.find(topology_.KeyOf(s));
          return it == node.labels.end() ? std::vector<std::string>{}
                                         : std::vector{it->second};
        };
        if (!topology_.Check(pod, n, possible, &pins)) continue;
      }
      slot.free -= pod.requests;
      slot.pods.push_back(&snapshot_.pods[i]);
      slot.placed.push_back(i);
      RecordOnNode(snapshot_.pods[i], n);
      return true;
    }
    return false;
  }

  bool TryClaims(size_t i) {
    for (auto it = by_pods_.begin(); it != by_pods_.end(); ++it) {
      const size_t c = it->second;
      if (TryClaim(i, c)) {
        by_pods_.erase(it);
        by_pods_.insert({claims_[c].pods.size(), c});
        return true;
      }
    }
    return false;
  }

  // The values of a slot's key the candidates in `set` have.
  std::vector<std::string> PossibleValues(PoolCatalogue& catalogue,
                                          const CandidateSet& set,
                                          size_t slot) {
    std::vector<std::string> out;
    const std::string& key = topology_.KeyOf(slot);
    for (const std::string& value : topology_.DomainsOf(slot)) {
      if (set.Intersects(catalogue.WithValue(key, value))) {
        out.push_back(value);
      }
    }
    return out;
  }

  // Narrows `claim`'s candidates for `pod` into scratch_; false (and why)
  // when none is left.
  bool Narrow(const PodState& pod, const Claim& claim, size_t host,
              std::string* why) {
    PoolCatalogue& catalogue = catalogues_[claim.catalogue];
    const Resources wanted = claim.requests + pod.requests;
    if (!Fits(wanted, claim.max_free)) {
      if (why)
        *why = "no instance type has room (" +
               FirstShortResource(wanted, claim.max_free) + ")";
      return false;
    }
    scratch_ = claim.set;
    scratch_.Intersect(catalogue.Admitting(pod));
    if (scratch_.Empty()) {
      if (why) *why = catalogue.WhyNotAdmitted(pod);
      return false;
    }
    if (!topology_.empty()) {
      auto possible = [&](size_t s) {
        return PossibleValues(catalogue, scratch_, s);
      };
      if (!topology_.Check(pod, host, possible, &pins_)) {
        if (why) *why = "its pod affinity, anti-affinity or spread";
        return false;
      }
      for (const ClaimTopology::Pin& pin : pins_) {
        scratch_.Intersect(
            catalogue.WithValue(topology_.KeyOf(pin.slot), pin.value));
      }
    }
    scratch_max_ = Resources();
    const std::vector<PoolCandidate>& candidates = catalogue.candidates();
    CandidateSet fitting = scratch_;
    scratch_.ForEach([&](size_t c) {
      if (!Fits(wanted, candidates[c].free)) {
        fitting.Remove(c);
      } else {
        scratch_max_ = Max(scratch_max_, candidates[c].free);
      }
    });
    scratch_ = std::move(fitting);
    if (scratch_.Empty()) {
      if (why) *why = "no instance type has room for its requests";
      return false;
    }
    if (!MinValuesHold(catalogue)) {
      if (why) *why = "fewer instance types than its minValues";
      return false;
    }
    if (!HostPortsFree(pod, claim.pod_states) ||
        !InlineDisksFree(pod, claim.pod_states)) {
      if (why) *why = "a host port or disk of a pod already there";
      return false;
    }
    return true;
  }

  bool MinValuesHold(const PoolCatalogue& catalogue) const {
    for (const PoolRequirement& r : catalogue.pool().requirements) {
      if (r.min_values <= 0) continue;
      std::set<std::string_view> values;
      scratch_.ForEach([&](size_t c) {
        auto it = catalogue.candidates()[c].labels.find(r.requirement.key);
        if (it != catalogue.candidates()[c].labels.end()) {
          values.insert(it->second);
        }
      });
      if (static_cast<int64_t>(values.size()) < r.min_values) return false;
    }
    return true;
  }

  void Commit(size_t i, size_t c) {
    Claim& claim = claims_[c];
    const PodState& pod = snapshot_.pods[i];
    PoolCatalogue& catalogue = catalogues_[claim.catalogue];
    claim.set = scratch_;
    claim.max_free = scratch_max_;
    claim.requests += pod.requests;
    claim.pods.push_back(i);
    claim.pod_states.push_back(&pod);
    topology_.Record(pod, HostOfClaim(c), [&](size_t s) {
      std::vector<std::string> values = PossibleValues(catalogue, claim.set, s);
      return values.size() == 1 ? values.front() : std::string();
    });
  }

  bool TryClaim(size_t i, size_t c) {
    if (!TaintsAllow(i, catalogues_[claims_[c].catalogue].pool().taints) ||
        !Narrow(PodAt(i), claims_[c], HostOfClaim(c), nullptr)) {
      return false;
    }
    Commit(i, c);
    return true;
  }

  // The pool's available candidates within what its limits leave,
  // counting each claim's largest candidate.
  CandidateSet WithinLimits(size_t c) {
    const PoolCatalogue& catalogue = catalogues_[c];
    CandidateSet set = catalogue.available();
    const auto& limits = catalogue.pool().limits;
    if (limits.empty()) return set;
    if (used_.size() < catalogues_.size()) used_.resize(catalogues_.size());
    // (Not a structured binding: a lambda below uses it.)
    const Resources& used = used_[c].first;
    const int64_t nodes = used_[c].second;
    if (auto n = limits.find("nodes");
        n != limits.end() && nodes >= n->second) {
      return CandidateSet(set.size(), false);
    }
    set.ForEach([&](size_t k) {
      const Resources& capacity = catalogue.candidates()[k].capacity;
      for (const auto& [name, limit] : limits) {
        if (name == "nodes") continue;
        if (AmountOf(used, name) + AmountOf(capacity, name) > limit) {
          set.Remove(k);
          return;
        }
      }
    });
    return set;
  }

  bool TryNewClaim(size_t i, std::map<std::string, std::string>* reasons) {
    for (size_t c = 0; c < catalogues_.size(); ++c) {
      Claim claim;
      claim.catalogue = c;
      claim.set = WithinLimits(c);
      std::string why;
      if (claim.set.Empty()) {
        why = "its limits are reached";
      } else {
        claim.max_free = Resources();
        claim.set.ForEach([&](size_t k) {
          claim.max_free =
              Max(claim.max_free, catalogues_[c].candidates()[k].free);
        });
        const size_t index = claims_.size();
        if (!TaintsAllow(i, catalogues_[c].pool().taints)) {
          why = "it does not tolerate the NodePool's PreferNoSchedule taints";
        } else if (Narrow(PodAt(i), claim, HostOfClaim(index), &why)) {
          claims_.push_back(std::move(claim));
          Commit(i, index);
          AddUse(c, LargestCapacity(claims_[index]));
          by_pods_.insert({1, index});
          return true;
        }
      }
      (*reasons)[catalogues_[c].pool().name] = std::move(why);
    }
    return false;
  }

  Resources LargestCapacity(const Claim& claim) const {
    Resources most;
    const auto& candidates = catalogues_[claim.catalogue].candidates();
    claim.set.ForEach(
        [&](size_t k) { most = Max(most, candidates[k].capacity); });
    return most;
  }

  void Launch() {
    std::map<std::string, int64_t> opened;
    for (const Claim& claim : claims_) {
      const PoolCatalogue& catalogue = catalogues_[claim.catalogue];
      const auto& candidates = catalogue.candidates();
      PlannedClaim out;
      out.pool = pool_index_[claim.catalogue];
      out.name = catalogue.pool().name + "-" +
                 std::to_string(++opened[catalogue.pool().name]);
      size_t best = candidates.size();
      std::set<size_t> types;
      claim.set.ForEach([&](size_t k) {
        types.insert(candidates[k].instance_type);
        if (best == candidates.size() ||
            candidates[k].price < candidates[best].price) {
          best = k;
        }
      });
      out.instance_type = candidates[best].instance_type;
      out.offering = candidates[best].offering;
      out.labels = candidates[best].labels;
      out.price = candidates[best].price;
      out.compatible_instance_types = static_cast<int64_t>(types.size());
      out.pods = claim.pods;
      out.requests = claim.requests;
      plan_.claims.push_back(std::move(out));
    }
    for (const NodeSlot& slot : nodes_) {
      if (!slot.placed.empty()) {
        plan_.existing_nodes.push_back({slot.node, slot.placed});
      }
    }
  }

  const ClusterSnapshot& snapshot_;
  const std::vector<NodePoolSpec>& pools_;
  std::vector<const PodState*> daemonset_pods_;
  std::vector<PoolCatalogue> catalogues_;  // heaviest pool first
  std::vector<size_t> pool_index_;         // catalogue -> pool
  ClaimTopology topology_;
  // By pod: the pod as planned with what is left of its relaxable
  // constraints (null: it has none), and what is left.
  std::vector<std::unique_ptr<PodState>> preferring_;
  std::vector<Relaxable> relaxable_;
  // Whether any NodePool or node has a PreferNoSchedule taint; by pod,
  // whether it was relaxed to tolerate them.
  bool any_prefer_no_schedule_ = false;
  std::vector<char> tolerates_prefer_no_schedule_;
  std::map<std::vector<NodeSelectorTerm>, Frozen<std::vector<NodeSelectorTerm>>>
      node_terms_;
  std::vector<NodeSlot> nodes_;
  std::vector<size_t> node_order_;
  std::vector<Claim> claims_;
  std::set<std::pair<size_t, size_t>> by_pods_;      // (pods, claim)
  std::vector<std::pair<Resources, int64_t>> used_;  // per catalogue
  CandidateSet scratch_;
  Resources scratch_max_;
  std::vector<ClaimTopology::Pin> pins_;
  ClaimPlan plan_;
};

}  // namespace

ClaimPlan ScheduleClaims(const ClaimSchedulingInput& input) {
  return Scheduler(input).Run();
}

}  // namespace propscaler::nodescale
