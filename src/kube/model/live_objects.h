// What the live loop keeps of each Pod and Node: the snapshot's compact
// state plus the few fields only the loop reads (whether the scheduler gave
// up on a pod, when an object was created). Plain structs, no I/O.
#ifndef PROPSCALER_KUBE_MODEL_LIVE_OBJECTS_H_
#define PROPSCALER_KUBE_MODEL_LIVE_OBJECTS_H_

#include <string>

#include "common/clock.h"
#include "kube/model/node_scale_objects.h"

namespace propscaler::kube {

struct LivePod {
  PodState state;
  std::string uid;
  // Condition PodScheduled=False with reason Unschedulable.
  bool unschedulable = false;
  TimePoint created;
  // When PodScheduled last changed, while `unschedulable`; else the epoch.
  TimePoint unschedulable_since;
  // status.nominatedNodeName: the scheduler preempts pods there for it.
  std::string nominated_node;
};

struct LiveNode {
  NodeState state;  // its uid included
  TimePoint created;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_LIVE_OBJECTS_H_
