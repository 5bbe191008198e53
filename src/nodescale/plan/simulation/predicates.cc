#include "nodescale/plan/simulation/predicates.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <set>
#include <string_view>

#include "kube/model/in_tree_volumes.h"

namespace propscaler::nodescale {
namespace {

std::optional<int64_t> ParseInt(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

// Gt and Lt compare the label and the single value as integers; anything
// unparsable does not match, as in Kubernetes.
bool MatchesNumeric(const NodeSelectorRequirement& req,
                    std::string_view label) {
  if (req.values.size() != 1) return false;
  std::optional<int64_t> have = ParseInt(label);
  std::optional<int64_t> want = ParseInt(req.values[0]);
  if (!have || !want) return false;
  return req.op == NodeSelectorRequirement::Op::kGt ? *have > *want
                                                    : *have < *want;
}

bool InNamespaces(const PodAffinityTerm& term,
                  const std::string& owner_namespace,
                  const std::string& other_namespace) {
  if (term.namespaces.empty()) return owner_namespace == other_namespace;
  return std::find(term.namespaces.begin(), term.namespaces.end(),
                   other_namespace) != term.namespaces.end();
}

// True when a term of `owner` selects `other`.
bool Repels(const PodState& owner, const PodState& other) {
  for (const PodAffinityTerm& term : owner.anti_affinity) {
    if (InNamespaces(term, owner.namespace_, other.namespace_) &&
        term.selector.Matches(other.labels)) {
      return true;
    }
  }
  return false;
}

bool Blocks(TaintEffect effect) {
  return effect == TaintEffect::kNoSchedule ||
         effect == TaintEffect::kNoExecute;
}

}  // namespace

bool MatchesNodeSelector(const PodState& pod, const Labels& node_labels) {
  for (const auto& [key, value] : pod.node_selector) {
    auto it = node_labels.find(key);
    if (it == node_labels.end() || it->second != value) return false;
  }
  return true;
}

bool MatchesNodeSelectorRequirement(const NodeSelectorRequirement& req,
                                    const Labels& node_labels) {
  using Op = NodeSelectorRequirement::Op;
  auto it = node_labels.find(req.key);
  const bool present = it != node_labels.end();
  auto listed = [&] {
    return std::find(req.values.begin(), req.values.end(), it->second) !=
           req.values.end();
  };
  switch (req.op) {
    case Op::kIn:
      return present && listed();
    case Op::kNotIn:
      return !present || !listed();
    case Op::kExists:
      return present;
    case Op::kDoesNotExist:
      return !present;
    case Op::kGt:
    case Op::kLt:
      return present && MatchesNumeric(req, it->second);
  }
  return false;
}

bool MatchesNodeSelectorTerm(const NodeSelectorTerm& term,
                             const Labels& node_labels) {
  if (term.requirements.empty()) return false;
  return std::all_of(term.requirements.begin(), term.requirements.end(),
                     [&](const NodeSelectorRequirement& req) {
                       return MatchesNodeSelectorRequirement(req, node_labels);
                     });
}

bool MatchesNodeAffinity(const PodState& pod, const Labels& node_labels) {
  if (pod.node_affinity.empty()) return true;
  return std::any_of(pod.node_affinity.begin(), pod.node_affinity.end(),
                     [&](const NodeSelectorTerm& term) {
                       return MatchesNodeSelectorTerm(term, node_labels);
                     });
}

const kube::VolumeNeed* FirstUnmetVolumeNeed(const PodState& pod,
                                             const Labels& node_labels) {
  for (const kube::VolumeNeed& need : pod.volume_needs) {
    const bool met =
        std::any_of(need.alternatives.begin(), need.alternatives.end(),
                    [&](const NodeSelectorTerm& term) {
                      return MatchesNodeSelectorTerm(term, node_labels);
                    });
    if (!met) return &need;
  }
  return nullptr;
}

bool Tolerates(const Toleration& toleration, const Taint& taint) {
  if (!toleration.any_effect && toleration.effect != taint.effect) {
    return false;
  }
  if (toleration.op == Toleration::Op::kExists) {
    return toleration.key.empty() || toleration.key == taint.key;
  }
  return toleration.key == taint.key && toleration.value == taint.value;
}

const Taint* FirstUntoleratedTaint(const PodState& pod,
                                   const std::vector<Taint>& taints) {
  for (const Taint& taint : taints) {
    if (!Blocks(taint.effect)) continue;
    const bool tolerated =
        std::any_of(pod.tolerations.begin(), pod.tolerations.end(),
                    [&](const Toleration& t) { return Tolerates(t, taint); });
    if (!tolerated) return &taint;
  }
  return nullptr;
}

bool AntiAffinityAllows(const PodState& pod,
                        const std::vector<const PodState*>& pods_on_node) {
  for (const PodState* other : pods_on_node) {
    if (Repels(pod, *other) || Repels(*other, pod)) return false;
  }
  return true;
}

bool HostPortsFree(const PodState& pod,
                   const std::vector<const PodState*>& pods_on_node) {
  if (pod.host_ports.empty()) return true;
  for (const PodState* other : pods_on_node) {
    for (const HostPort& port : other->host_ports) {
      if (std::find(pod.host_ports.begin(), pod.host_ports.end(), port) !=
          pod.host_ports.end()) {
        return false;
      }
    }
  }
  return true;
}

bool AttachLimitsAllow(const PodState& pod,
                       const std::vector<const PodState*>& pods_on_node,
                       const kube::VolumeLimits& limits) {
  if ((pod.attached_volumes.empty() && pod.inline_disks.empty()) ||
      limits.empty()) {
    return true;
  }
  for (const auto& entry : limits) {
    // (A plain name, not a structured binding: clang's C++20 does not let
    // the lambda capture those.)
    const std::string& driver = entry.first;
    const int64_t limit = entry.second;
    std::set<std::string_view> handles;
    auto count = [&](const PodState& each) {
      for (const kube::AttachedVolume& volume : each.attached_volumes) {
        if (volume.driver == driver) handles.insert(volume.handle);
      }
      for (const kube::InlineDisk& disk : each.inline_disks) {
        if (disk.driver == driver) handles.insert(disk.handle);
      }
    };
    count(pod);
    if (handles.empty()) continue;
    for (const PodState* other : pods_on_node) count(*other);
    if (static_cast<int64_t>(handles.size()) > limit) return false;
  }
  return true;
}

bool InlineDisksFree(const PodState& pod,
                     const std::vector<const PodState*>& pods_on_node) {
  for (const kube::InlineDisk& disk : pod.inline_disks) {
    for (const PodState* other : pods_on_node) {
      for (const kube::InlineDisk& used : other->inline_disks) {
        if (used.driver != disk.driver || used.handle != disk.handle) continue;
        const bool ebs =
            disk.driver == kube::MigratedDriverName("kubernetes.io/aws-ebs");
        if (ebs || !disk.read_only || !used.read_only) return false;
      }
    }
  }
  return true;
}

Unfit CheckNodeConstraints(const PodState& pod, const Labels& node_labels,
                           const std::vector<Taint>& taints) {
  if (!MatchesNodeSelector(pod, node_labels)) return Unfit::kNodeSelector;
  if (!MatchesNodeAffinity(pod, node_labels)) return Unfit::kNodeAffinity;
  if (FirstUntoleratedTaint(pod, taints) != nullptr) return Unfit::kTaint;
  if (FirstUnmetVolumeNeed(pod, node_labels) != nullptr) return Unfit::kVolume;
  return Unfit::kNone;
}

std::string DescribeNodeConstraintFailure(const PodState& pod,
                                          const Labels& node_labels,
                                          const std::vector<Taint>& taints) {
  for (const auto& [key, value] : pod.node_selector) {
    auto it = node_labels.find(key);
    if (it == node_labels.end() || it->second != value) {
      return "node selector " + key + "=" + value + " does not match";
    }
  }
  if (!MatchesNodeAffinity(pod, node_labels)) {
    return "node affinity does not match";
  }
  if (const Taint* taint = FirstUntoleratedTaint(pod, taints)) {
    return "taint " + taint->key + "=" + taint->value + ":" +
           std::string(TaintEffectName(taint->effect)) + " not tolerated";
  }
  if (const kube::VolumeNeed* need = FirstUnmetVolumeNeed(pod, node_labels)) {
    return need->Text();
  }
  return "";
}

}  // namespace propscaler::nodescale
