// best-effort-atomic-scale-up ProvisioningRequests in the node-scale loop:
// the due request's pods planned all or nothing (plan/provisioning_requests/
// provreq_atomic.h) and the plan's increases handed to the executor as one
// all-or-nothing list; then each such scale-up followed until its nodes are
// Ready (atomic_scale_up.h), or given back when they do not all come: kwok
// and Cluster API have no atomic resize, so a half-filled scale-up is
// undone here instead (Cluster Autoscaler leaves it).
#ifndef PROPSCALER_NODESCALE_RUN_ATOMIC_SCALE_UP_STAGE_H_
#define PROPSCALER_NODESCALE_RUN_ATOMIC_SCALE_UP_STAGE_H_

#include "nodescale/expander/chain.h"
#include "nodescale/plan/atomic_pass.h"
#include "nodescale/run/loop_context.h"
#include "nodescale/run/provisioning_request_stage.h"

namespace propscaler::nodescale {

class AtomicScaleUpStage {
 public:
  // `requests` writes the requests' conditions.
  AtomicScaleUpStage(LoopContext context, ProvisioningRequestStage* requests);

  // The iteration's due request (it->atomic) planned and asked for;
  // whether a node was asked for (the iteration's other scale-up then waits
  // for the next, as Cluster Autoscaler alternates them).
  bool ScaleUp(ExpanderChain* expander, LoopIteration* it);
  // Each atomic scale-up in flight advanced as its progress says.
  void Advance(LoopIteration* it);

 private:
  // Takes the nodes that never registered off their groups' targets, hands
  // the ones that came to the drain, and tells the request.
  void GiveBack(const AtomicGiveBack& give_back, const LoopIteration& it);

  LoopContext c_;
  ProvisioningRequestStage* requests_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_ATOMIC_SCALE_UP_STAGE_H_
