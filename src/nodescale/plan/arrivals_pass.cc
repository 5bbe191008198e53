#include "nodescale/plan/arrivals_pass.h"

#include <map>
#include <optional>
#include <string_view>

#include "common/duration.h"
#include "nodescale/plan/health/capacity_give_up.h"
#include "nodescale/plan/simulation/node_volume_limits.h"

namespace propscaler::nodescale {
namespace {

// False when the node's CSINode lacks a driver of its group's remembered
// template.
bool CsiDriversRegistered(const NodeState& node, const std::string& group,
                          const kube::VolumeObjects& volumes,
                          const ScaleUpMemory& scale_up) {
  auto model = scale_up.remembered_templates.find(group);
  if (model == scale_up.remembered_templates.end()) return true;
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

// Each node's readiness but those in `skip`.
std::vector<Readiness> Classify(const ArrivalsObservation& observed,
                                const NodeScaleSettings& settings,
                                const LoopMemory& memory,
                                const std::set<std::string>& skip) {
  const kube::VolumeObjects* volumes =
      settings.scale_up.csi_node_aware_scheduling ? observed.volumes : nullptr;
  std::map<std::string_view, std::optional<Duration>> startup_times;
  for (const NodeGroup& group : *observed.groups) {
    if (group.options.max_node_startup_time) {
      startup_times[group.name] = group.options.max_node_startup_time;
    }
  }
  std::vector<Readiness> readiness;
  readiness.reserve(observed.nodes->size());
  for (const LiveNode& node : *observed.nodes) {
    if (skip.contains(node.state.name)) continue;
    const std::string group = (*observed.group_of)(node.state);
    const bool drivers_registered =
        volumes == nullptr ||
        CsiDriversRegistered(node.state, group, *volumes, memory.scale_up);
    auto startup = startup_times.find(group);
    readiness.push_back(ReadinessOf(
        node.state, observed.now, settings.node_health, drivers_registered,
        startup == startup_times.end() ? std::nullopt : startup->second,
        memory.provision.Deadline(group)));
  }
  return readiness;
}

// A group's progress counts its nodes no longer coming: Ready, or Unready
// (not Ready for longer than --max-node-startup-time). The groups overdue.
std::vector<std::string> Track(const ArrivalsObservation& observed,
                               const std::vector<Readiness>& readiness,
                               ProvisionTracker* provision) {
  const std::map<std::string, ReadinessCounts> by_group =
      ReadinessByGroup(*observed.nodes, *observed.group_of, readiness);
  std::vector<GroupProgress> progress;
  for (const NodeGroup& group : *observed.groups) {
    auto found = by_group.find(group.name);
    progress.push_back({group.name, group.target_size,
                        found == by_group.end()
                            ? 0
                            : found->second.ready + found->second.unready,
                        group.options.max_node_provision_time});
  }
  return provision->Update(progress, observed.now);
}

CapacityGivenUp GiveUp(const NodeGroup& group,
                       const ArrivalsObservation& observed,
                       const std::vector<Readiness>& readiness,
                       const NodeScaleSettings& settings, GroupBackoff* backoff,
                       std::set<std::string>* removed) {
  CapacityGivenUp given{
      group.name, ProvisionTimeOf(group, settings.max_node_provision_time)};
  given.backed_off_until = backoff->Fail(
      group.name, observed.now,
      {"timeout", "Scale-up timed out for node group " + group.name +
                      " after " + SecondsText(given.within)});
  std::vector<RegisteredNode> registered;
  for (size_t i = 0; i < observed.nodes->size(); ++i) {
    const NodeState& node = (*observed.nodes)[i].state;
    if ((*observed.group_of)(node) == group.name) {
      registered.push_back({&node, readiness[i]});
    }
  }
  const CapacityGiveUp give_up = PlanCapacityGiveUp(
      group, registered, settings.force_delete_unregistered_nodes);
  std::set<std::string> not_started;
  for (const NodeState* node : give_up.not_started) {
    not_started.insert(node->name);
  }
  given.actions.push_back(
      DeleteNodes{group.name, {not_started.begin(), not_started.end()}});
  if (give_up.target_decrease > 0) {
    given.actions.push_back(
        DecreaseTarget{group.name, give_up.target_decrease});
  }
  given.target_decrease = give_up.target_decrease;
  given.new_target = give_up.new_target;
  if (observed.may_act) removed->insert(not_started.begin(), not_started.end());
  return given;
}

}  // namespace

Arrivals PlanArrivals(const ArrivalsObservation& observed,
                      const NodeScaleSettings& settings, LoopMemory* memory) {
  Arrivals arrivals;
  arrivals.readiness = Classify(observed, settings, *memory, {});
  for (const std::string& name :
       Track(observed, arrivals.readiness, &memory->provision)) {
    const NodeGroup* group = FindGroup(*observed.groups, name);
    if (group == nullptr) continue;
    arrivals.given_up.push_back(GiveUp(*group, observed, arrivals.readiness,
                                       settings, &memory->backoff,
                                       &arrivals.removed));
  }
  if (!arrivals.removed.empty()) {
    arrivals.readiness =
        Classify(observed, settings, *memory, arrivals.removed);
  }
  return arrivals;
}

}  // namespace propscaler::nodescale
