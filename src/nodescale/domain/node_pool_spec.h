// A Karpenter NodePool (karpenter.sh/v1) as node-scale mode reads it: the
// nodes it may make from a catalogue (requirements over the instance types'
// and offerings' labels, template labels and taints), how much it may make
// (limits), which pool is tried first (weight), and the disruption policy
// its nodes follow. Plain data.
#ifndef PROPSCALER_NODESCALE_DOMAIN_NODE_POOL_SPEC_H_
#define PROPSCALER_NODESCALE_DOMAIN_NODE_POOL_SPEC_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "kube/model/node_scale_objects.h"
#include "nodescale/domain/instance_type.h"
#include "nodescale/domain/node_group.h"

namespace propscaler::nodescale {

// spec.template.spec.requirements[]: Gte and Lte are kept as Gt and Lt of
// the integer one below or above. `min_values`: a node made for the pool
// keeps at least that many values of the key among the instance types it
// could still be (0: not set).
struct PoolRequirement {
  kube::NodeSelectorRequirement requirement;
  int64_t min_values = 0;
  bool operator==(const PoolRequirement&) const = default;
};

struct NodePoolSpec {
  std::string name;
  int64_t weight = 0;  // 0..100; the heaviest pool is tried first
  Labels labels;       // spec.template.metadata.labels
  std::vector<PoolRequirement> requirements;
  std::vector<kube::Taint> taints;
  // Removed by something else once the node runs; pods need not tolerate
  // them to be planned onto the pool.
  std::vector<kube::Taint> startup_taints;
  // spec.limits by resource name: "cpu" in millicores, "memory" and
  // "ephemeral-storage" in bytes, "pods", "nodes", extended resources.
  std::map<std::string, int64_t, std::less<>> limits;
  std::optional<Duration> termination_grace_period;
  // Its disruption policy and expireAfter, under its name.
  NodePool disruption;
  bool operator==(const NodePoolSpec&) const = default;
};

// NodePools and the catalogue they draw from: what a provider that makes
// nodes from instance types declares.
struct NodePoolCatalogue {
  std::vector<NodePoolSpec> pools;
  std::vector<InstanceType> instance_types;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_DOMAIN_NODE_POOL_SPEC_H_
