#include "nodescale/run/node_arrivals.h"

#include <glog/logging.h>

#include <memory>

#include "common/utc_time.h"

namespace propscaler::nodescale {

void NodeArrivals::Arrive(LoopIteration* it) {
  const std::shared_ptr<const kube::VolumeObjects> volumes =
      c_.state->Volumes();
  const bool may_act = c_.executor->MayAct();
  Arrivals arrivals = PlanArrivals(
      {&it->nodes, &it->groups, &it->group_of, volumes.get(), may_act, it->now},
      *c_.options, c_.memory);
  for (const CapacityGivenUp& given : arrivals.given_up) {
    LOG(WARNING) << "node group " << given.group << ": nodes not Ready within "
                 << "--max-node-provision-time; backed off until "
                 << FormatMicroTime(given.backed_off_until);
    if (may_act) GiveUp(given, it);
  }
  if (!arrivals.removed.empty()) {
    it->nodes.EraseIf([&](const LiveNode& node) {
      return arrivals.removed.contains(node.state.name);
    });
  }
  it->readiness = std::move(arrivals.readiness);
}

void NodeArrivals::GiveUp(const CapacityGivenUp& given, LoopIteration* it) {
  c_.reporter->ScaleUpTimedOut(given.group, given.within);
  const std::vector<ActionOutcome> outcomes = c_.executor->Run(
      given.actions, it->View(), ActionExecutor::OnFailure::kStop);
  if (outcomes.size() > 1 && outcomes[1].ran) {
    c_.reporter->UnregisteredRemoved(given.group, given.target_decrease,
                                     outcomes[1].status);
  }
  for (NodeGroup& group : it->groups) {
    if (group.name == given.group) group.target_size = given.new_target;
  }
}

}  // namespace propscaler::nodescale
