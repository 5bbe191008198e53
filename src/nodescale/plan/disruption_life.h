// What Karpenter's disruption knows of each node beyond the snapshot, kept
// between iterations: when a pod last came to it or left it (consolidateAfter
// counts from there, as Karpenter's lastPodEventTime), whether it was ever
// Ready (until then it is neither a candidate nor counted by budgets, as
// Karpenter's uninitialized nodes), and the candidates the last plan
// blocked; and the command between its choice and the drain (validating,
// or waiting for its replacement) with the lines /status shows of it. And
// the disruption plan's input made from it. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_DISRUPTION_LIFE_H_
#define PROPSCALER_NODESCALE_PLAN_DISRUPTION_LIFE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/clock.h"
#include "nodescale/expander/priority.h"
#include "nodescale/plan/disruption/command_progress.h"
#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/plan/disruption/disruption_command.h"
#include "nodescale/plan/health/live_snapshot.h"
#include "nodescale/plan/scale_up/group_backoff.h"

namespace propscaler::nodescale {

struct DisruptionMemory {
  // Per node: a fingerprint of its pods and when it last changed.
  struct PodEvents {
    uint64_t fingerprint = 0;
    TimePoint last_change;
  };
  std::map<std::string, PodEvents> pod_events;
  std::set<std::string> seen_ready;  // nodes Ready at least once
  std::vector<BlockedCandidate> blocked;
  std::optional<InFlightCommand> command;
  std::vector<std::string> lines;  // what waits, for /status
};

// The pods' moves noted: a node whose pods (DaemonSets' aside) changed
// since the last call had a pod event now; a node first seen, at its
// creation. Ready nodes are remembered as initialized; nodes gone are
// forgotten.
void NotePodEvents(const SharedNodes& nodes, const SharedPods& pods,
                   TimePoint now, DisruptionMemory* memory);

// What the disruption plan is made from, besides the memory.
struct DisruptionObservation {
  const ClusterSnapshot* snapshot = nullptr;
  const SharedNodes* nodes = nullptr;
  const GroupOfNode* group_of = nullptr;
  const std::vector<NodeGroup>* groups = nullptr;
  std::vector<NodePool> pools;
  const PriorityConfig* priorities = nullptr;
  // Nodes on their way out: draining, handed to the provider, or replaced
  // by the command in flight.
  std::set<std::string> removing;
  TaintKinds taints;
  bool csi_node_aware_scheduling = false;
  TimePoint now;
};

// Each snapshot node's life (created, last pod event, deleting,
// initialized), the Unready nodes that were Ready once per group, and the
// groups, pools, priorities and backed-off groups.
DisruptionInput DisruptionInputOf(const DisruptionObservation& observed,
                                  const DisruptionMemory& memory,
                                  const GroupBackoff& backoff);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_DISRUPTION_LIFE_H_
