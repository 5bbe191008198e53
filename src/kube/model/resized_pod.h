// A pod of vertical mode's target as in-place resize reads it: the
// containers' resources in its spec (what was asked), in its status (what
// the kubelet has applied), and where a resize stands (KEP-1287: the
// PodResizePending and PodResizeInProgress conditions of 1.33+, or
// status.resize of 1.27-1.32).
#ifndef PROPSCALER_KUBE_MODEL_RESIZED_POD_H_
#define PROPSCALER_KUBE_MODEL_RESIZED_POD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "kube/model/pod_template.h"

namespace propscaler::kube {

enum class ResizeState {
  kNone,        // no resize asked, or the last one done
  kInProgress,  // accepted by the kubelet, not yet applied (or proposed)
  kDeferred,    // the node has no room now; the kubelet retries
  kInfeasible,  // the node can never fit it
  kError,       // the kubelet failed to apply it
  kRefused,     // the API server refused it (e.g. the QoS class would change)
};

// "Deferred", "Infeasible", ...
const char* ResizeStateName(ResizeState state);

struct ResizedPod {
  std::string name;
  std::string uid;
  std::string resource_version;
  // metadata.generation and status.observedGeneration (1.34+; 0 and -1
  // where the server does not set them).
  int64_t generation = 0;
  int64_t observed_generation = -1;
  std::string phase;      // "Running", "Pending", ...
  std::string node_name;  // empty while unscheduled
  bool terminating = false;
  std::vector<ContainerResources> containers;  // spec.containers'
  // status.containerStatuses[].resources, by container; a resource absent
  // where the kubelet does not report it (before 1.27).
  std::vector<ContainerResources> applied;
  ResizeState resize = ResizeState::kNone;
  std::string resize_message;  // the condition's message, if any
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_RESIZED_POD_H_
