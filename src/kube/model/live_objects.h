// What the live loop keeps of each Pod and Node: the snapshot's compact
// state plus the few fields only the loop reads (whether the scheduler gave
// up on a pod, when an object was created). Plain structs, no I/O.
#ifndef PROPSCALER_KUBE_MODEL_LIVE_OBJECTS_H_
#define PROPSCALER_KUBE_MODEL_LIVE_OBJECTS_H_

#include <cstdint>
#include <string>

#include "common/clock.h"
#include "kube/model/node_scale_objects.h"
#include "kube/model/pod_phase.h"

namespace propscaler::kube {

struct LivePod {
  PodState state;
  std::string uid;
  // Condition PodScheduled=False with reason Unschedulable.
  bool unschedulable = false;
  PodPhase phase = PodPhase::kUnset;  // status.phase
  TimePoint created;
  // When PodScheduled last changed, while `unschedulable`; else the epoch.
  TimePoint unschedulable_since;
  // status.nominatedNodeName: the scheduler preempts pods there for it.
  std::string nominated_node;
  // Ready=True's lastTransitionTime; the epoch while not Ready.
  TimePoint ready_since;
  // Its cpu and memory limits (EffectivePodLimits); 0 where none is set.
  int64_t limit_cpu_millis = 0;
  int64_t limit_memory_bytes = 0;
};

struct LiveNode {
  NodeState state;  // its uid included
  TimePoint created;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_LIVE_OBJECTS_H_
