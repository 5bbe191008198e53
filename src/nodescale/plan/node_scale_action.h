// What node-scale mode asks of the provider and the API server, as values:
// what its decisions return, carried out in order by the executor
// (run/action_executor.h), whose outcome of each comes back to the
// decision that asked for it. Plain data: the nodes and groups by name, the
// objects to write as they were read (their resourceVersion is the
// precondition).
#ifndef PROPSCALER_NODESCALE_PLAN_NODE_SCALE_ACTION_H_
#define PROPSCALER_NODESCALE_PLAN_NODE_SCALE_ACTION_H_

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "common/status.h"
#include "kube/model/capacity_buffer.h"
#include "kube/model/provisioning_request.h"
#include "nodescale/plan/scale_down/soft_taints.h"

namespace propscaler::nodescale {

// `delta` more nodes in the group.
struct IncreaseSize {
  std::string group;
  int64_t delta = 0;
};

// These registered nodes of the group removed at once (not drained), its
// target lowered with them.
struct DeleteNodes {
  std::string group;
  std::vector<std::string> nodes;
};

// `delta` replicas asked for and never registered taken off the group's
// target; none of its registered nodes may go.
struct DecreaseTarget {
  std::string group;
  int64_t delta = 0;
};

// Cluster Autoscaler's DeletionCandidate taint put on (`taint`) or taken
// off each node, in order, while `budget` allows (the rest wait).
struct SetSoftTaints {
  struct Change {
    std::string node;
    bool taint = false;
  };
  std::vector<Change> changes;
  SoftTaintBudget budget;
};

// A node to remove and its group.
struct RemovalTarget {
  std::string node;
  std::string group;
};

// The nodes handed to the drain (taint ToBeDeleted, evict, delete) as one
// set; with `all_or_nothing`, one that cannot be tainted fails them all.
struct StartRemoval {
  std::vector<RemovalTarget> targets;
  bool all_or_nothing = false;
};

// `set` among the request's conditions.
struct WriteRequestConditions {
  kube::ProvisioningRequest request;
  std::vector<kube::ProvReqCondition> set;
};

struct DeleteRequest {
  kube::ProvisioningRequest request;
};

struct PatchBufferStatus {
  kube::CapacityBuffer buffer;
  kube::BufferStatus status;
};

using NodeScaleAction =
    std::variant<IncreaseSize, DeleteNodes, DecreaseTarget, SetSoftTaints,
                 StartRemoval, WriteRequestConditions, DeleteRequest,
                 PatchBufferStatus>;

// What the drain did in one call: its nodes deleted ("node of group") and
// how many it gave up on.
struct RemovalProgress {
  std::vector<std::string> deleted;
  int failed = 0;
  bool any_deleted() const { return !deleted.empty(); }
};

// What became of one action.
struct ActionOutcome {
  // False: not carried out (this process may not act, its group or nodes
  // are gone, or an earlier action of an all-or-nothing list failed).
  bool ran = false;
  Status status;
  // SetSoftTaints: how many of its changes were made.
  int changed = 0;
  // StartRemoval: what its first pass did.
  RemovalProgress removal;

  bool ok() const { return ran && status.ok(); }
};

// What an IncreaseSize came to: asked for, refused (the group backs off),
// or a conflict (another writer's change: no backoff, the next iteration
// plans again).
enum class IncreaseResult { kAsked, kRefused, kConflict };
inline IncreaseResult IncreaseResultOf(const Status& status) {
  if (status.code() == StatusCode::kConflict) return IncreaseResult::kConflict;
  return status.ok() ? IncreaseResult::kAsked : IncreaseResult::kRefused;
}

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_NODE_SCALE_ACTION_H_
