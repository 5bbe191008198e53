#include "nodescale/run/node_arrivals.h"

#include <glog/logging.h>

#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "common/duration.h"
#include "common/utc_time.h"
#include "nodescale/plan/health/capacity_give_up.h"
#include "nodescale/plan/simulation/node_volume_limits.h"
#include "nodescale/plan/simulation/volume_needs.h"

namespace propscaler::nodescale {

std::vector<Readiness> NodeArrivals::Classify(const LoopIteration& it) const {
  std::shared_ptr<const kube::VolumeObjects> volumes;
  if (c_.options->scale_up.csi_node_aware_scheduling)
    volumes = c_.state->Volumes();
  std::map<std::string_view, std::optional<Duration>> startup_times;
  for (const NodeGroup& group : it.groups) {
    if (group.options.max_node_startup_time) {
      startup_times[group.name] = group.options.max_node_startup_time;
    }
  }
  std::vector<Readiness> readiness;
  readiness.reserve(it.nodes.size());
  for (const LiveNode& node : it.nodes) {
    const std::string group = it.group_of(node.state);
    const bool drivers_registered =
        volumes == nullptr || CsiDriversRegistered(node.state, group, *volumes);
    auto startup = startup_times.find(group);
    readiness.push_back(ReadinessOf(
        node.state, it.now, c_.options->node_health, drivers_registered,
        startup == startup_times.end() ? std::nullopt : startup->second,
        c_.memory->provision.Deadline(group)));
  }
  return readiness;
}

bool NodeArrivals::CsiDriversRegistered(
    const NodeState& node, const std::string& group,
    const kube::VolumeObjects& volumes) const {
  auto model = c_.memory->scale_up.remembered_templates.find(group);
  if (model == c_.memory->scale_up.remembered_templates.end()) return true;
  auto limits = volumes.node_limits.find(node.name);
  const VolumeLimits* csi_node =
      limits == volumes.node_limits.end() ? nullptr : &limits->second;
  // Limits as the template's were made: allocatable keys too.
  if (HasAllocatableVolumeLimits(node.allocatable)) {
    const VolumeLimits merged = NodeVolumeLimits(node.allocatable, csi_node);
    return !LacksTemplateCsiDriver(&merged, model->second.volume_limits);
  }
  return !LacksTemplateCsiDriver(csi_node, model->second.volume_limits);
}

// A group's progress counts its nodes no longer coming: Ready, or Unready
// (not Ready for longer than --max-node-startup-time).
bool NodeArrivals::Track(LoopIteration* it) {
  const std::map<std::string, ReadinessCounts> by_group =
      ReadinessByGroup(it->nodes, it->group_of, it->readiness);
  std::vector<GroupProgress> progress;
  for (const NodeGroup& group : it->groups) {
    auto found = by_group.find(group.name);
    progress.push_back({group.name, group.target_size,
                        found == by_group.end()
                            ? 0
                            : found->second.ready + found->second.unready,
                        group.options.max_node_provision_time});
  }
  bool gave_up = false;
  for (const std::string& name :
       c_.memory->provision.Update(progress, it->now)) {
    for (NodeGroup& group : it->groups) {
      if (group.name == name) gave_up |= GiveUp(group, it);
    }
  }
  return gave_up;
}

// The group's nodes did not become Ready in time: back it off, remove the
// nodes that never started and stop counting them as upcoming, with
// Cluster Autoscaler's Events (ScaleUpTimedOut; DeleteUnregistered or
// DeleteUnregisteredFailed for the instances that never registered).
bool NodeArrivals::GiveUp(const NodeGroup& group, LoopIteration* it) {
  const Duration within =
      ProvisionTimeOf(group, c_.options->max_node_provision_time);
  const TimePoint until = c_.memory->backoff.Fail(
      group.name, it->now,
      {"timeout", "Scale-up timed out for node group " + group.name +
                      " after " + SecondsText(within)});
  LOG(WARNING) << "node group " << group.name << ": nodes not Ready within "
               << "--max-node-provision-time; backed off until "
               << FormatMicroTime(until);
  std::vector<RegisteredNode> registered;
  for (size_t i = 0; i < it->nodes.size(); ++i) {
    const NodeState& node = it->nodes[i].state;
    if (it->group_of(node) == group.name) {
      registered.push_back({&node, it->readiness[i]});
    }
  }
  const CapacityGiveUp give_up = PlanCapacityGiveUp(
      group, registered, c_.options->force_delete_unregistered_nodes);
  std::set<std::string> not_started;
  for (const NodeState* node : give_up.not_started) {
    not_started.insert(node->name);
  }
  if (!c_.executor->MayAct()) return false;
  c_.reporter->ScaleUpTimedOut(group.name, within);
  std::vector<NodeScaleAction> actions{
      DeleteNodes{group.name, {not_started.begin(), not_started.end()}}};
  if (give_up.target_decrease > 0) {
    actions.push_back(DecreaseTarget{group.name, give_up.target_decrease});
  }
  const std::vector<ActionOutcome> outcomes =
      c_.executor->Run(actions, it->View(), ActionExecutor::OnFailure::kStop);
  if (outcomes.size() > 1 && outcomes[1].ran) {
    c_.reporter->UnregisteredRemoved(group.name, give_up.target_decrease,
                                     outcomes[1].status);
  }
  for (NodeGroup& g : it->groups) {
    if (g.name == group.name) g.target_size = give_up.new_target;
  }
  it->nodes.EraseIf([&](const LiveNode& node) {
    return not_started.contains(node.state.name);
  });
  return !not_started.empty();
}

}  // namespace propscaler::nodescale
