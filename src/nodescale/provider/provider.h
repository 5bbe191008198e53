// Where nodes come from: the small interface a cloud implements so that the
// loop can grow and shrink node groups (kwok: Node objects from templates;
// clusterapi: MachineDeployments and MachineSets). Another cloud is one more
// file under provider/.
//
// Called from the loop's thread only.
#ifndef PROPSCALER_NODESCALE_PROVIDER_PROVIDER_H_
#define PROPSCALER_NODESCALE_PROVIDER_PROVIDER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "nodescale/domain/node_pool_spec.h"
#include "nodescale/plan/disruption/disruption_budget.h"
#include "nodescale/plan/simulation/node_templates.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

class Provider {
 public:
  virtual ~Provider() = default;

  // Re-reads the node groups: min, max, current target size and, for scale
  // from zero, the declared template. `nodes` are the registered nodes.
  virtual Result<std::vector<NodeGroup>> NodeGroups(
      const SharedNodes& nodes) = 0;
  // The group a node belongs to; empty when none.
  virtual std::string NodeGroupOf(const NodeState& node) const = 0;
  // Asks for `delta` more nodes in the group.
  virtual Status IncreaseSize(const NodeGroup& group, int64_t delta) = 0;
  // Removes these registered nodes of the group and lowers its target.
  virtual Status DeleteNodes(const NodeGroup& group,
                             const std::vector<const NodeState*>& nodes) = 0;
  // Priority expander patterns the provider's own config declares (kwok's
  // node-groups.json "priorities"), as read by the last NodeGroups(); empty
  // when it declares none.
  virtual std::map<int, std::vector<std::string>> Priorities() const {
    return {};
  }
  // Disruption pools the provider's config declares (kwok's "pools"), as
  // read by the last NodeGroups(); empty when it declares none.
  virtual std::vector<NodePool> Pools() const { return {}; }
  // NodePools over an instance-type catalogue the provider makes nodes
  // from, as read by the last NodeGroups() (whose groups then include one
  // per candidate: plan/claim_scale_up.h); null when it declares none.
  virtual const NodePoolCatalogue* NodePools() const { return nullptr; }
  // OK once what NodeGroups() reads is in (watched objects listed); else
  // what it waits for (kUnavailable).
  virtual Status Ready() const { return Status::Ok(); }
  // Gives up `delta` requested nodes that never registered; `registered`:
  // the group's nodes, none of which may go (Cluster Autoscaler refuses a
  // decrease that would delete an existing node).
  virtual Status DecreaseTargetSize(
      const NodeGroup& group, int64_t delta,
      const std::vector<const NodeState*>& registered) = 0;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PROVIDER_PROVIDER_H_
