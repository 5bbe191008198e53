// A node as replica mode keeps it: only what the replica arithmetic reads.
#ifndef PROPSCALER_KUBE_MODEL_NODE_INFO_H_
#define PROPSCALER_KUBE_MODEL_NODE_INFO_H_

#include <cstdint>
#include <string>

namespace propscaler::kube {

// Which of a node's CPU figures is counted: replica mode's (allocatable, as
// cluster-proportional-autoscaler) or vertical mode's by default (capacity,
// as cluster-proportional-vertical-autoscaler).
enum class CountedCpu { kAllocatable, kCapacity };

struct NodeInfo {
  std::string name;
  int64_t cpu_millis = 0;      // the counted CPU, rounded up to 1m
  bool unschedulable = false;  // spec.unschedulable
  bool ready = false;          // condition Ready is "True"
  // Carries a taint of --exclude-node-taints (the taints are not kept).
  bool excluded_by_taint = false;

  // Counted as schedulable by cluster-proportional-autoscaler, less the nodes
  // --exclude-node-taints excludes.
  bool schedulable() const {
    return !unschedulable && ready && !excluded_by_taint;
  }
  bool operator==(const NodeInfo&) const = default;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_NODE_INFO_H_
