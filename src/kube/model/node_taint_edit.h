// Changes what propscaler owns on a Node and nothing else. Nodes are written
// by many controllers (the node lifecycle controller's unreachable taints,
// maintenance tooling, a person's `kubectl cordon`), and propscaler's cached
// copy may lag, so every edit is a read-modify-write of a fresh copy: other
// taints are kept exactly as they are (every field), the patch carries the
// resourceVersion read (the server answers 409 if the node changed since),
// and a 409 reads again and re-applies. Nothing written is cached (the
// loops see nodes only through their watch), so a late answer cannot hide
// another writer's change: no runtime::WatchedObject is needed. The
// read-modify-write itself: wire/node_taint_patch.h.
//
// A cordon is propscaler's only if it set it: it then marks the node with the
// annotation propscaler.io/cordoned-by=propscaler, and it only ever uncordons
// a node carrying that mark, so a person's cordon (no mark) survives a
// scale-down that is called off, and a restart cannot mistake it for its own.
#ifndef PROPSCALER_KUBE_MODEL_NODE_TAINT_EDIT_H_
#define PROPSCALER_KUBE_MODEL_NODE_TAINT_EDIT_H_

#include <optional>
#include <string>
#include <vector>

namespace propscaler::kube {

inline constexpr char kCordonedByAnnotation[] = "propscaler.io/cordoned-by";

struct TaintToAdd {
  std::string key;
  std::string value;
  std::string effect;  // "NoSchedule", "PreferNoSchedule", "NoExecute"
};

struct NodeTaintEdit {
  std::vector<std::string> remove_keys;  // taints propscaler owns
  // Added unless a taint with its key and effect is already there (kept as
  // it is, so an unchanged node is not written).
  std::optional<TaintToAdd> add;
  enum class Cordon {
    kLeave,        // spec.unschedulable untouched
    kCordon,       // set it, and the mark, unless the node is cordoned already
    kUncordonOwn,  // clear it only where the mark says propscaler set it
  };
  Cordon cordon = Cordon::kLeave;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_NODE_TAINT_EDIT_H_
