// Node groups and the template of the node a group would add.
//
// The template comes from a ready node of the group when one exists, else
// from one remembered from earlier, else from the group's declared template,
// taken as declared but for its startup and status taints: scale from zero must
// use the memory the user declared, never a guessed table value (CA on AWS
// refuses pods that fit when its instance table says 4Gi for a 16Gi node).
// DaemonSet pods that would run on a new node are taken out of its free
// capacity. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_NODE_TEMPLATES_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_NODE_TEMPLATES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/simulation/snapshot.h"
#include "nodescale/plan/simulation/taint_kinds.h"

namespace propscaler::nodescale {

enum class TemplateSource { kReadyNode, kRemembered, kDeclared };

struct ChosenTemplate {
  NodeTemplate node;
  TemplateSource source = TemplateSource::kDeclared;
};

// What a new node of the group would look like built from `node`: its
// allocatable, its labels but the hostname, and its taints but the ones
// that belong to that node's state (cordon, not-ready, CA's own, startup
// and status taints: taint_kinds.h).
NodeTemplate TemplateFromNode(const NodeState& node, const TaintKinds& kinds);
// The same for a member of `group`: a new node is one of the group's, so it
// carries kNodeGroupLabel whatever labels its model carries (a Cluster API
// node has none of propscaler's).
NodeTemplate GroupMemberTemplate(const NodeState& node, std::string_view group,
                                 const TaintKinds& kinds);

// Each group's template as its live nodes show it, remembered for when it
// has none ready: of its Ready, uncordoned nodes (Cluster Autoscaler's
// template candidates: a cordoned node, often tainted for maintenance too,
// is no model of a new one), the last of those with the most CSI drivers
// registered (a node whose CSI plugin has not registered yet is no model).
// One template per group, not per node (a copy per node was 5,000 copies
// of labels and taints every loop at 5,000 nodes).
std::map<std::string, NodeTemplate, std::less<>> TemplatesOfLiveNodes(
    const ClusterSnapshot& snapshot, const TaintKinds& kinds);

// The group's declared template as a member of the group looks: with
// kNodeGroupLabel, as every node the group makes (a pod may select it), and
// without the taints of one node's state (startup and status taints among
// them: a new node loses its startup taint once its agents run, so a pod
// that does not tolerate it still fits, as Cluster Autoscaler sanitizes
// provider templates); nullopt when none is declared.
std::optional<NodeTemplate> DeclaredTemplate(const NodeGroup& group,
                                             const TaintKinds& kinds);

// The ready, schedulable node of `group_nodes` that comes first by name,
// else `remembered` (may be null), else the declared template; nullopt when
// the group has none of them.
std::optional<ChosenTemplate> ChooseTemplate(
    const NodeGroup& group, const std::vector<const NodeState*>& group_nodes,
    const NodeTemplate* remembered, const TaintKinds& kinds);

// The CSI attach limits a new node of `node_template` is planned with: the
// limits of the live node it was taken from with
// --enable-csi-node-aware-scheduling (`csi_node_aware`); else null, none, as
// Cluster Autoscaler by default (a new node's CSINode does not exist yet).
const VolumeLimits* NewNodeVolumeLimits(const NodeTemplate& node_template,
                                        bool csi_node_aware);

// One pod per DaemonSet (the first seen), standing for the pod that
// DaemonSet would start on a new node. (Pointers into `pods`: never a
// temporary list.)
std::vector<const PodState*> OnePodPerDaemonSet(const PodList& pods);
std::vector<const PodState*> OnePodPerDaemonSet(PodList&& pods) = delete;

// The template's allocatable minus the requests of the DaemonSet pods whose
// selector, affinity and tolerations admit the template.
Resources FreeOnNewNode(const NodeTemplate& node_template,
                        const std::vector<const PodState*>& daemonset_pods);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_NODE_TEMPLATES_H_
