// The one place node-scale mode's decisions become writes. Each action
// (plan/node_scale_action.h) is carried out through the provider, the API
// roles it needs, or the drain (the removal queue, its stage for nodes on
// their way out), and only while this process may act (it holds the
// lease): asked before every action, so losing the lease stops at once.
// A list runs in order; an all-or-nothing list stops at its first failure
// and the rest are not run. Each action's outcome comes back, for the
// decision that asked for it. Nothing here decides what to write; it logs
// the failures it meets, naming the object.
#ifndef PROPSCALER_NODESCALE_RUN_ACTION_EXECUTOR_H_
#define PROPSCALER_NODESCALE_RUN_ACTION_EXECUTOR_H_

#include <functional>
#include <vector>

#include "common/clock.h"
#include "kube/client/client.h"
#include "nodescale/plan/node_scale_action.h"
#include "nodescale/provider/provider.h"
#include "nodescale/run/cluster_view.h"
#include "nodescale/run/removal_queue.h"

namespace propscaler::nodescale {

// The API roles the executor writes through.
struct ExecutorClients {
  const kube::NodeActionClient* nodes;  // taints, evictions
  const kube::ProvisioningRequestClient* requests;
  const kube::ClusterStateClient* buffers;  // CapacityBuffers' status
};

class ActionExecutor {
 public:
  enum class OnFailure { kContinue, kStop };

  // `latest_pods`: the store's pods now, which a drain starts from (a pod
  // bound since the iteration read them is evicted too).
  ActionExecutor(ExecutorClients api, Provider* provider,
                 std::function<SharedPods()> latest_pods,
                 const NodeScaleReporter* reporter, const Clock* clock,
                 std::function<bool()> may_act,
                 Duration max_graceful_termination);

  bool MayAct() const { return may_act_(); }
  // One outcome per action, in order.
  std::vector<ActionOutcome> Run(const std::vector<NodeScaleAction>& actions,
                                 const ClusterView& view,
                                 OnFailure on_failure = OnFailure::kContinue);
  ActionOutcome Run(const NodeScaleAction& action, const ClusterView& view);
  // The drain's pass: stale ToBeDeleted taints cleared, then the draining
  // nodes' pods evicted and the empty ones deleted.
  RemovalProgress AdvanceDrain(const ClusterView& view);
  // The nodes on their way out, for the decisions.
  const RemovalQueue& drain() const { return drain_; }

 private:
  ActionOutcome Do(const IncreaseSize& action, const ClusterView& view);
  ActionOutcome Do(const DeleteNodes& action, const ClusterView& view);
  ActionOutcome Do(const DecreaseTarget& action, const ClusterView& view);
  ActionOutcome Do(const SetSoftTaints& action, const ClusterView& view);
  ActionOutcome Do(const StartRemoval& action, const ClusterView& view);
  ActionOutcome Do(const WriteRequestConditions& action, const ClusterView&);
  ActionOutcome Do(const DeleteRequest& action, const ClusterView&);
  ActionOutcome Do(const PatchBufferStatus& action, const ClusterView& view);

  const ExecutorClients api_;
  Provider* provider_;
  std::function<SharedPods()> latest_pods_;
  const Clock* clock_;
  std::function<bool()> may_act_;
  RemovalQueue drain_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_ACTION_EXECUTOR_H_
