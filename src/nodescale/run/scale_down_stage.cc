#include "nodescale/run/scale_down_stage.h"

#include <glog/logging.h>

#include <set>
#include <string_view>

#include "common/utc_time.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/scale_down/soft_taints.h"
#include "nodescale/run/node_actions.h"

namespace propscaler::nodescale {

ScaleDownStage::ScaleDownStage(LoopContext context) : c_(context) {}

void ScaleDownStage::Apply(const ScaleDownDecision& decision,
                           LoopIteration* it) {
  c_.memory->timers = decision.timers;
  c_.memory->last_scale_down_pass = it->now;
  UpdateCandidateTaints(*it, decision.choice.removals);
  if (decision.choice.removals.empty()) {
    VLOG(1) << "scale-down: " << decision.choice.waiting;
    return;
  }
  std::vector<RemovalTarget> targets;
  for (const NodeRemoval& removal : decision.choice.removals) {
    targets.push_back({removal.node, removal.group});
  }
  RemoveNodes(c_, std::move(targets), /*all_or_nothing=*/false, *it);
}

void ScaleDownStage::UpdateCandidateTaints(
    const LoopIteration& it, const std::vector<NodeRemoval>& removing) {
  std::set<std::string_view> removed;
  for (const NodeRemoval& removal : removing) removed.insert(removal.node);
  std::vector<SoftTaintNode> nodes;
  nodes.reserve(it.nodes.size());
  for (const LiveNode& node : it.nodes) {
    nodes.push_back({node.state.name,
                     HasTaint(node.state, kDeletionCandidateTaint),
                     c_.memory->timers.IsUnneeded(node.state.name)});
  }
  SetSoftTaints taints{{}, c_.options->soft_taints};
  for (const SoftTaintChange& change : SoftTaintChanges(nodes, removed)) {
    taints.changes.push_back({it.nodes[change.node].state.name, change.taint});
  }
  if (!taints.changes.empty()) {
    c_.executor->Run(taints, it.View());
  }
}

}  // namespace propscaler::nodescale
