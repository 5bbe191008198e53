#include "nodescale/plan/atomic_pass.h"

#include "common/utc_time.h"
#include "nodescale/plan/provisioning_requests/provreq_lifecycle.h"

namespace propscaler::nodescale {
namespace {

// The registered nodes as the progress sees them; `groups` holds their
// groups' names, which the nodes point into.
std::vector<AtomicNode> AtomicNodesOf(const AtomicObservation& observed,
                                      std::vector<std::string>* groups) {
  const SharedNodes& nodes = *observed.nodes;
  groups->clear();
  groups->reserve(nodes.size());
  for (const LiveNode& node : nodes) {
    groups->push_back((*observed.group_of)(node.state));
  }
  std::vector<AtomicNode> atomic;
  atomic.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    atomic.push_back({nodes[i].state.name, (*groups)[i],
                      (*observed.readiness)[i] == Readiness::kReady});
  }
  return atomic;
}

std::string InFlightLine(const AtomicScaleUp& scale_up,
                         const AtomicProgress& progress) {
  return scale_up.request + ": all-or-nothing scale-up in flight, " +
         std::to_string(progress.ready) + " of " +
         std::to_string(progress.asked) +
         " new nodes Ready (given back unless all are by " +
         FormatMicroTime(progress.deadline) + ")";
}

AtomicGiveBack GiveBack(const AtomicScaleUp& scale_up,
                        const AtomicProgress& progress,
                        const std::vector<AtomicNode>& nodes,
                        const AtomicObservation& observed) {
  AtomicGiveBack give_back{scale_up.request,
                           GiveBackReason(scale_up, progress)};
  for (const AtomicScaleUp::Part& part : scale_up.parts) {
    const NodeGroup* group = FindGroup(*observed.groups, part.group);
    if (group == nullptr) continue;
    const int64_t unregistered = UnregisteredOf(part, *group, nodes);
    if (unregistered > 0) {
      give_back.decreases.push_back(DecreaseTarget{part.group, unregistered});
    }
  }
  for (const AtomicProgress::Came& node : progress.came) {
    give_back.came.push_back({node.node, node.group});
  }
  for (const kube::ProvisioningRequest& request : *observed.requests) {
    if (request.uid != scale_up.request_uid) continue;
    give_back.listed = request;
    give_back.conditions = GivenBack(request, give_back.reason, observed.now);
    break;
  }
  return give_back;
}

}  // namespace

AtomicAdvance AdvanceAtomicScaleUps(std::vector<AtomicScaleUp> scale_ups,
                                    const AtomicObservation& observed) {
  AtomicAdvance advance;
  if (scale_ups.empty()) return advance;
  std::vector<std::string> groups;
  const std::vector<AtomicNode> nodes = AtomicNodesOf(observed, &groups);
  for (AtomicScaleUp& scale_up : scale_ups) {
    const AtomicProgress progress =
        ProgressOf(scale_up, nodes, *observed.groups,
                   observed.max_node_provision_time, observed.now);
    switch (progress.state) {
      case AtomicProgress::State::kDone:
        advance.done.push_back(scale_up.request + ": all " +
                               std::to_string(progress.asked) +
                               " nodes of its scale-up are Ready");
        break;
      case AtomicProgress::State::kInFlight:
        advance.lines.push_back(InFlightLine(scale_up, progress));
        advance.in_flight.push_back(std::move(scale_up));
        break;
      case AtomicProgress::State::kGiveBack:
        advance.give_backs.push_back(
            GiveBack(scale_up, progress, nodes, observed));
        break;
    }
  }
  return advance;
}

}  // namespace propscaler::nodescale
