// ProvisioningRequests in the node-scale loop (--enable-provisioning-
// requests), before the buffers: their consuming pods taken out of the
// plan; what each request's lifecycle says is done (plan/
// provisioning_requests/provreq_lifecycle.h): its conditions written, or it
// deleted; the due check-capacity requests checked on the nodes there are
// and those coming (provreq_capacity.h); the due best-effort-atomic one
// taken for the atomic stage (atomic_scale_up_stage.h); and the room of
// each provisioned one booked: its pods put first among the pending pods,
// so that no other pod takes it.
#ifndef PROPSCALER_NODESCALE_RUN_PROVISIONING_REQUEST_STAGE_H_
#define PROPSCALER_NODESCALE_RUN_PROVISIONING_REQUEST_STAGE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kube/model/provisioning_request.h"
#include "nodescale/run/loop_context.h"

namespace propscaler::nodescale {

class ProvisioningRequestStage {
 public:
  explicit ProvisioningRequestStage(LoopContext context);

  void Handle(LoopIteration* it);
  // Whether they were written (never while this process may not act); the
  // request is then not acted on again until the watch brings the write.
  bool WriteConditions(const kube::ProvisioningRequest& request,
                       const std::vector<kube::ProvReqCondition>& set,
                       const LoopIteration& it);

 private:
  // The request's pods from its PodTemplates as listed (at most `limit`).
  Result<std::vector<PodState>> RequestPods(
      const kube::ProvisioningRequest& request, int64_t limit,
      const LoopIteration& it) const;
  // Its pods to place (RequestPods, at most what the cluster could ever
  // hold); nullopt when they cannot be built, the request then Failed
  // (FailedToCreatePods).
  std::optional<std::vector<PodState>> PodsToPlace(
      const kube::ProvisioningRequest& request, const LoopIteration& it);
  // The due best-effort-atomic request for this iteration's atomic
  // scale-up, its pods built; when another was taken, `line` says it waits.
  void TakeAtomicRequest(const kube::ProvisioningRequest& request,
                         LoopIteration* it, std::string* line);
  // The due check-capacity requests checked in one batch on the nodes
  // there are; the room of each that fits booked (added to `booked`).
  void CheckDueRequests(
      const std::vector<const kube::ProvisioningRequest*>& due,
      std::vector<PodState>* booked, LoopIteration* it);
  // propscaler_provisioning_requests, 0 for a (class, state) emptied.
  void PublishCounts(
      const std::map<std::pair<std::string, std::string>, int64_t>& counts);
  // A NotTriggerScaleUp Event, once, on each pending pod that consumes a
  // request (`waiting`: pod key -> namespace/request).
  void TellConsumingPods(const std::map<std::string, std::string>& waiting,
                         const LoopIteration& it);

  LoopContext c_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_PROVISIONING_REQUEST_STAGE_H_
