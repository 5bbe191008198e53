// The writes scale-down makes to nodes and pods, as CA makes them: the
// DeletionCandidateOfClusterAutoscaler PreferNoSchedule taint on unneeded
// nodes, the ToBeDeletedByClusterAutoscaler NoSchedule taint plus cordon
// before draining, and pod eviction through the Eviction API (a 429 means a
// PodDisruptionBudget refused it). Taint values are unix seconds.
#ifndef PROPSCALER_NODESCALE_RUN_NODE_ACTIONS_H_
#define PROPSCALER_NODESCALE_RUN_NODE_ACTIONS_H_

#include <string_view>

#include "common/clock.h"
#include "common/status.h"
#include "kube/client/client.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

// Adds or removes the PreferNoSchedule deletion-candidate taint.
Status SetDeletionCandidate(const kube::NodeActionClient& api,
                            const NodeState& node, bool candidate,
                            TimePoint now);
// Taints the node ToBeDeleted and cordons it.
Status MarkToBeDeleted(const kube::NodeActionClient& api, const NodeState& node,
                       TimePoint now);
// Undoes MarkToBeDeleted (and drops the candidate taint).
Status UnmarkToBeDeleted(const kube::NodeActionClient& api,
                         const NodeState& node);

// POSTs an Eviction for the pod that gives it `grace_seconds` to stop; a
// PDB refusal comes back as kUnavailable (HTTP 429). A pod already gone is
// not an error.
Status EvictPod(const kube::NodeActionClient& api, const PodState& pod,
                int64_t grace_seconds);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_NODE_ACTIONS_H_
