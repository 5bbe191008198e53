#include "nodescale/plan/claims/pool_catalogue.h"

#include <set>

#include "nodescale/plan/simulation/node_templates.h"
#include "nodescale/plan/simulation/predicates.h"

namespace propscaler::nodescale {
namespace {

// Every combination of one value per choice, added to `base`.
std::vector<Labels> Expand(
    const Labels& base,
    const std::vector<std::pair<std::string, std::vector<std::string>>>&
        choices) {
  std::vector<Labels> out = {base};
  for (const auto& [key, values] : choices) {
    if (base.contains(key)) continue;
    std::vector<Labels> next;
    for (const Labels& labels : out) {
      for (const std::string& value : values) {
        Labels with = labels;
        with[key] = value;
        next.push_back(std::move(with));
      }
    }
    out = std::move(next);
  }
  return out;
}

// The pool's requirements on keys no label source sets: one value of an In
// becomes the node's label, as Karpenter labels a node with what its
// requirements pin down.
std::vector<std::pair<std::string, std::vector<std::string>>> FreeChoices(
    const NodePoolSpec& pool, const Labels& labels) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const PoolRequirement& r : pool.requirements) {
    const NodeSelectorRequirement& req = r.requirement;
    if (req.op == NodeSelectorRequirement::Op::kIn &&
        !labels.contains(req.key)) {
      out.emplace_back(req.key, req.values);
    }
  }
  return out;
}

bool MeetsPool(const NodePoolSpec& pool, const Labels& labels) {
  for (const PoolRequirement& r : pool.requirements) {
    if (!MatchesNodeSelectorRequirement(r.requirement, labels)) return false;
  }
  return true;
}

}  // namespace

PoolCatalogue::PoolCatalogue(const NodePoolSpec& pool,
                             const std::vector<InstanceType>& catalogue,
                             const std::vector<const PodState*>& daemonset_pods)
    : pool_(&pool) {
  AddCandidates(catalogue, daemonset_pods);
  available_ = CandidateSet(candidates_.size(), false);
  for (size_t i = 0; i < candidates_.size(); ++i) {
    if (candidates_[i].available) available_.Add(i);
  }
}

void PoolCatalogue::AddCandidates(
    const std::vector<InstanceType>& catalogue,
    const std::vector<const PodState*>& daemonset_pods) {
  for (size_t t = 0; t < catalogue.size(); ++t) {
    const InstanceType& type = catalogue[t];
    Labels base = pool_->labels;
    for (const auto& [k, v] : type.labels) base[k] = v;
    base[std::string(kNodePoolLabel)] = pool_->name;
    const Resources allocatable = type.Allocatable();
    for (size_t o = 0; o < type.offerings.size(); ++o) {
      const Offering& offering = type.offerings[o];
      Labels with_offering = base;
      for (const auto& [k, v] : offering.labels) with_offering[k] = v;
      auto choices = type.choices;
      for (auto& free : FreeChoices(*pool_, with_offering)) {
        choices.push_back(std::move(free));
      }
      for (Labels& labels : Expand(with_offering, choices)) {
        if (!MeetsPool(*pool_, labels)) continue;
        NodeTemplate shape{allocatable, labels, pool_->taints, {}, {}};
        Candidate c;
        c.instance_type = t;
        c.offering = o;
        c.capacity = type.capacity;
        c.free = FreeOnNewNode(shape, daemonset_pods);
        c.labels = std::move(labels);
        c.price = offering.price;
        c.available = offering.available;
        candidates_.push_back(std::move(c));
      }
    }
  }
}

const CandidateSet& PoolCatalogue::Admitting(const PodState& pod) {
  const ConstraintKey key{
      pod.node_selector.identity(), pod.node_affinity.identity(),
      pod.tolerations.identity(), pod.volume_needs.identity()};
  auto it = admitting_.find(key);
  if (it != admitting_.end()) return it->second;
  CandidateSet set(candidates_.size(), false);
  for (size_t i = 0; i < candidates_.size(); ++i) {
    if (CheckNodeConstraints(pod, candidates_[i].labels, pool_->taints) ==
        Unfit::kNone) {
      set.Add(i);
    }
  }
  return admitting_.emplace(key, std::move(set)).first->second;
}

std::string PoolCatalogue::WhyNotAdmitted(const PodState& pod) const {
  if (candidates_.empty()) {
    return "NodePool " + pool_->name +
           ": no instance type meets its requirements";
  }
  return DescribeNodeConstraintFailure(pod, candidates_.front().labels,
                                       pool_->taints);
}

const CandidateSet& PoolCatalogue::WithValue(const std::string& key,
                                             const std::string& value) {
  auto it = with_value_.find(std::pair(key, value));
  if (it != with_value_.end()) return it->second;
  CandidateSet set(candidates_.size(), false);
  for (size_t i = 0; i < candidates_.size(); ++i) {
    auto label = candidates_[i].labels.find(key);
    if (label != candidates_[i].labels.end() && label->second == value) {
      set.Add(i);
    }
  }
  return with_value_.emplace(std::pair(key, value), std::move(set))
      .first->second;
}

std::vector<std::string> PoolCatalogue::ValuesOf(const std::string& key) const {
  std::set<std::string> values;
  for (const Candidate& c : candidates_) {
    auto label = c.labels.find(key);
    if (label != c.labels.end()) values.insert(label->second);
  }
  return {values.begin(), values.end()};
}

}  // namespace propscaler::nodescale
