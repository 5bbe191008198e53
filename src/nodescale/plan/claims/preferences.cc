#include "nodescale/plan/claims/preferences.h"

#include <algorithm>
#include <vector>

#include "nodescale/plan/simulation/predicates.h"

namespace propscaler::nodescale {
namespace {

// The heaviest term first; equal weights keep their order (as Karpenter's
// stable sort).
template <typename Weighted>
typename std::vector<Weighted>::const_iterator Heaviest(
    const std::vector<Weighted>& terms) {
  return std::max_element(
      terms.begin(), terms.end(),
      [](const Weighted& a, const Weighted& b) { return a.weight < b.weight; });
}

template <typename Weighted>
std::optional<std::string> DropHeaviest(std::vector<Weighted>* terms,
                                        const char* what) {
  if (terms->empty()) return std::nullopt;
  auto heaviest = Heaviest(*terms);
  const std::string said =
      std::string(what) + " of weight " + std::to_string(heaviest->weight);
  terms->erase(heaviest);
  return said;
}

std::vector<PodAffinityTerm> With(
    const std::vector<PodAffinityTerm>& own,
    const std::vector<WeightedPodAffinityTerm>& more) {
  std::vector<PodAffinityTerm> out = own;
  for (const WeightedPodAffinityTerm& w : more) out.push_back(w.term);
  return out;
}

}  // namespace

bool ToleratesPreferNoSchedule(const PodState& pod,
                               const std::vector<Taint>& taints) {
  return std::all_of(taints.begin(), taints.end(), [&](const Taint& taint) {
    return taint.effect != TaintEffect::kPreferNoSchedule ||
           std::any_of(
               pod.tolerations.begin(), pod.tolerations.end(),
               [&](const Toleration& t) { return Tolerates(t, taint); });
  });
}

bool HasRelaxable(const PodState& pod) {
  return pod.node_affinity.size() > 1 || !pod.preferences.empty();
}

Relaxable RelaxableOf(const PodState& pod) {
  return {pod.node_affinity, pod.preferences};
}

PodState AsPlanned(const PodState& pod, const Relaxable& left) {
  const PodPreferences& preferences = left.preferences;
  PodState out = pod;
  out.preferences.clear();
  if (!preferences.affinity.empty()) {
    out.affinity = With(pod.affinity, preferences.affinity);
  }
  if (!preferences.anti_affinity.empty()) {
    out.anti_affinity = With(pod.anti_affinity, preferences.anti_affinity);
  }
  if (!preferences.spread.empty()) {
    std::vector<SpreadConstraint> spread = pod.spread;
    spread.insert(spread.end(), preferences.spread.begin(),
                  preferences.spread.end());
    out.spread = std::move(spread);
  }
  std::vector<NodeSelectorTerm> terms;
  if (!left.required_node_terms.empty()) {
    terms.push_back(left.required_node_terms.front());
  }
  if (!preferences.node_affinity.empty()) {
    const NodeSelectorTerm& preferred =
        Heaviest(preferences.node_affinity)->term;
    if (terms.empty()) terms.emplace_back();
    terms.front().requirements.insert(terms.front().requirements.end(),
                                      preferred.requirements.begin(),
                                      preferred.requirements.end());
  }
  out.node_affinity = std::move(terms);
  return out;
}

std::optional<std::string> RelaxOne(Relaxable* left) {
  if (left->required_node_terms.size() > 1) {
    left->required_node_terms.erase(left->required_node_terms.begin());
    return "the first of its required node affinity terms (" +
           std::to_string(left->required_node_terms.size()) + " left)";
  }
  PodPreferences* preferences = &left->preferences;
  if (auto said =
          DropHeaviest(&preferences->affinity, "preferred pod affinity term")) {
    return said;
  }
  if (auto said = DropHeaviest(&preferences->anti_affinity,
                               "preferred pod anti-affinity term")) {
    return said;
  }
  if (auto said = DropHeaviest(&preferences->node_affinity,
                               "preferred node affinity term")) {
    return said;
  }
  if (preferences->spread.empty()) return std::nullopt;
  const std::string said =
      "ScheduleAnyway spread over " + preferences->spread.front().topology_key;
  preferences->spread.erase(preferences->spread.begin());
  return said;
}

}  // namespace propscaler::nodescale
