#include "nodescale/plan/simulation/template_hash.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "nodescale/domain/node_marks.h"

namespace propscaler::nodescale {
namespace {

class Fnv1a {
 public:
  void Add(std::string_view text) {
    for (unsigned char c : text) {
      hash_ = (hash_ ^ c) * 1099511628211ULL;
    }
    // A separator no label or quantity holds keeps "ab"+"c" from "a"+"bc".
    hash_ = (hash_ ^ 0xff) * 1099511628211ULL;
  }
  void Add(int64_t value) { Add(std::to_string(value)); }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 14695981039346656037ULL;
};

void AddTaints(const std::vector<Taint>& taints, Fnv1a* hash) {
  for (const Taint& taint : taints) {
    hash->Add(taint.key);
    hash->Add(taint.value);
    hash->Add(TaintEffectName(taint.effect));
  }
}

std::string Hex(const Fnv1a& hash) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx",
                static_cast<unsigned long long>(hash.value()));
  return text;
}

}  // namespace

std::string TemplateHash(const NodeTemplate& node_template) {
  Fnv1a hash;
  const Resources& r = node_template.allocatable;
  hash.Add(r.cpu_millis);
  hash.Add(r.memory_bytes);
  hash.Add(r.ephemeral_storage_bytes);
  hash.Add(r.pods);
  for (const auto& [name, amount] : r.extended) {
    hash.Add(name);
    hash.Add(amount);
  }
  hash.Add("labels");
  for (const auto& [key, value] : node_template.labels) {
    hash.Add(key);
    hash.Add(value);
  }
  hash.Add("taints");
  std::vector<Taint> taints = node_template.taints;
  std::sort(taints.begin(), taints.end());
  AddTaints(taints, &hash);
  return Hex(hash);
}

std::string NodePoolHash(const NodePoolSpec& pool) {
  Fnv1a hash;
  hash.Add("labels");
  for (const auto& [key, value] : pool.labels) {
    hash.Add(key);
    hash.Add(value);
  }
  for (const auto* taints : {&pool.taints, &pool.startup_taints}) {
    hash.Add("taints");
    std::vector<Taint> sorted = *taints;
    std::sort(sorted.begin(), sorted.end());
    AddTaints(sorted, &hash);
  }
  auto seconds = [](const std::optional<Duration>& d) -> std::string {
    if (!d) return "Never";
    return std::to_string(
        std::chrono::duration_cast<std::chrono::seconds>(*d).count());
  };
  hash.Add(seconds(pool.disruption.expire_after));
  hash.Add(pool.termination_grace_period
               ? seconds(pool.termination_grace_period)
               : "unset");
  return Hex(hash);
}

std::string DriftOf(const NodeState& node, const NodeGroup& group) {
  if (!group.retired.empty()) return "node " + node.name + ": " + group.retired;
  const std::string_view pool_stamp =
      AnnotationOf(node.annotations, nodescale::kNodePoolHashAnnotation);
  if (!pool_stamp.empty() && group.declared_template) {
    const std::string_view pool_now = AnnotationOf(
        group.declared_template->annotations, kNodePoolHashAnnotation);
    if (!pool_now.empty() && pool_now != pool_stamp) {
      return "node " + node.name + " was made from another version of " +
             "NodePool " + group.pool + " (nodepool-hash " +
             std::string(pool_stamp) + ", now " + std::string(pool_now) + ")";
    }
  }
  const std::string_view stamp =
      AnnotationOf(node.annotations, nodescale::kTemplateHashAnnotation);
  if (stamp.empty() || !group.declared_template) return "";
  const std::string now = TemplateHash(*group.declared_template);
  if (stamp == now) return "";
  return "node " + node.name + " was made from another template of group " +
         group.name + " (hash " + std::string(stamp) + ", now " + now + ")";
}

}  // namespace propscaler::nodescale
