#include "nodescale/plan/claims/preferences.h"

#include <algorithm>
#include <vector>

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

PodState WithPreferencesRequired(const PodState& pod,
                                 const PodPreferences& preferences) {
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
  if (!preferences.node_affinity.empty()) {
    const NodeSelectorTerm& preferred =
        Heaviest(preferences.node_affinity)->term;
    std::vector<NodeSelectorTerm> terms = pod.node_affinity;
    if (terms.empty()) terms.emplace_back();
    for (NodeSelectorTerm& term : terms) {
      term.requirements.insert(term.requirements.end(),
                               preferred.requirements.begin(),
                               preferred.requirements.end());
    }
    out.node_affinity = std::move(terms);
  }
  return out;
}

std::optional<std::string> RelaxOne(PodPreferences* preferences) {
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
