#include "nodescale/plan/claims/pool_catalogue.h"

#include <algorithm>
#include <set>

#include "nodescale/plan/simulation/node_templates.h"
#include "nodescale/plan/simulation/predicates.h"

namespace propscaler::nodescale {
namespace {

using Choices = std::vector<std::pair<std::string, std::vector<std::string>>>;

// Every combination of one value per choice, added to `base`; a key `base`
// has already must have one of the choice's values.
std::vector<Labels> Expand(const Labels& base, const Choices& choices) {
  std::vector<Labels> out = {base};
  for (const auto& [key, values] : choices) {
    if (auto it = base.find(key); it != base.end()) {
      if (std::find(values.begin(), values.end(), it->second) == values.end()) {
        return {};
      }
      continue;
    }
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

// The pool's requirements on keys no label source sets (not the type, its
// choices nor the offering): one value of an In becomes the node's label,
// as Karpenter labels a node with what its requirements pin down.
Choices FreeChoices(const NodePoolSpec& pool, const Labels& labels,
                    const Choices& type_choices) {
  Choices out;
  for (const PoolRequirement& r : pool.requirements) {
    const NodeSelectorRequirement& req = r.requirement;
    const bool chosen = std::any_of(
        type_choices.begin(), type_choices.end(),
        [&](const auto& choice) { return choice.first == req.key; });
    if (req.op == NodeSelectorRequirement::Op::kIn &&
        !labels.contains(req.key) && !chosen) {
      out.emplace_back(req.key, req.values);
    }
  }
  return out;
}

// Adds `more` to `labels`; false when a key has another value there (a
// pool's template label the type or offering contradicts).
bool Merge(const Labels& more, Labels* labels) {
  for (const auto& [k, v] : more) {
    auto [it, added] = labels->try_emplace(k, v);
    if (!added && it->second != v) return false;
  }
  return true;
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
    base[std::string(kNodePoolLabel)] = pool_->name;
    if (!Merge(type.labels, &base)) continue;
    const Resources allocatable = type.Allocatable();
    for (size_t o = 0; o < type.offerings.size(); ++o) {
      const Offering& offering = type.offerings[o];
      Labels with_offering = base;
      if (!Merge(offering.labels, &with_offering)) continue;
      Choices choices = type.choices;
      for (auto& free : FreeChoices(*pool_, with_offering, type.choices)) {
        choices.push_back(std::move(free));
      }
      for (Labels& labels : Expand(with_offering, choices)) {
        if (!MeetsPool(*pool_, labels)) continue;
        NodeTemplate shape{allocatable, labels, pool_->taints, {}, {}};
        PoolCandidate c;
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
  for (const PoolCandidate& c : candidates_) {
    auto label = c.labels.find(key);
    if (label != c.labels.end()) values.insert(label->second);
  }
  return {values.begin(), values.end()};
}

}  // namespace propscaler::nodescale
