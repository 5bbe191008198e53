// Karpenter-style disruption on Cluster API node groups, declared through
// annotations on each MachineDeployment or MachineSet (the kwok groups
// file's fields, under the names docs/node-scale/disruption.md documents):
//   propscaler.io/pool           the group's pool (default: "default")
//   propscaler.io/price          price per node-hour, e.g. "0.384"
//   propscaler.io/capacity-type  "on-demand" (default) or "spot"
//   propscaler.io/pool-settings  the pool's settings as the groups file has
//                                them, without the name:
//                                {"disruption":{...},"expireAfter":"720h"}
// Groups of one pool that carry pool-settings must carry the same text.
#ifndef PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_POOLS_H_
#define PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_POOLS_H_

#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "kube/model/node_scale_objects.h"
#include "nodescale/domain/node_group.h"

namespace propscaler::nodescale {

using kube::AnnotationOf;

class ClusterApiPools {
 public:
  // Reads `annotations` of the group's object into `group` (pool, price,
  // capacity type) and notes its pool; errors name the group, the
  // annotation and its value.
  Status Add(const Labels& annotations, NodeGroup* group);
  // The pools the groups named, with their settings (Karpenter's defaults
  // where none carries pool-settings); empty when no group names a pool.
  Result<std::vector<NodePool>> Pools() const;

 private:
  struct Declared {
    std::string settings;  // pool-settings text, empty when none declares
    std::string declared_by;
  };
  std::map<std::string, Declared> pools_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_POOLS_H_
