// The kwok provider: node groups declared in a ConfigMap (key
// node-groups.json, the JSON of `propscaler simulate --node-groups`, read
// every loop from a watched copy where the caller has one); a group's size
// is its number of Node objects, with those created but not yet seen and,
// for a group of --kwok-unregistered-node-groups, its instances that never
// register (until DecreaseTargetSize gives them up).
// Scale-up creates Node objects from the group's template (name
// <group>-<random suffix>, label propscaler.io/node-group=<group>, the
// template's allocatable, labels and taints, Ready=True; a few at a time);
// scale-down deletes them. Each node carries propscaler.io/template-hash, the
// hash of the template it was made from, so a changed template shows it
// drifted. Pools come from the same file. Simulates a cluster without a cloud,
// as CA's kwok provider does.
//
// Karpenter NodePools (key nodepools.yaml of the same ConfigMap, YAML
// documents or a JSON List, and the cluster's karpenter.sh/v1 NodePools
// where the caller watches them; a cluster NodePool that does not decode
// is skipped and logged, the others planned) over the instance-type
// catalogue make one group
// per candidate (plan/claim_scale_up.h), planned as Karpenter plans; their
// nodes carry the candidate's labels (instance type, zone, capacity type,
// karpenter.sh/nodepool, the kwok provider's instance labels) and
// providerID kwok://<name>, as Karpenter's kwok provider makes them.
#ifndef PROPSCALER_NODESCALE_PROVIDER_KWOK_H_
#define PROPSCALER_NODESCALE_PROVIDER_KWOK_H_

#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>

#include "common/clock.h"
#include "kube/client/client.h"
#include "nodescale/domain/node_groups_json.h"
#include "nodescale/provider/provider.h"

namespace propscaler::nodescale {

struct KwokOptions {
  std::string namespace_;
  std::string config_map;  // --node-group-config
  // Groups whose new nodes report Ready=False: a group that never becomes
  // ready, for tests and demos of backoff (--kwok-not-ready-node-groups).
  std::set<std::string, std::less<>> not_ready_groups;
  // Reads the ConfigMap: app/ hands in its watched copy (a GET while RBAC
  // refuses the watch).
  std::function<Result<kube::ConfigMap>()> read_config;
  // Groups whose instances never register: a scale-up counts them in the
  // group's size but creates no Node object, as a cloud instance that never
  // joins the cluster (--kwok-unregistered-node-groups).
  std::set<std::string, std::less<>> unregistered_groups;
  // The instance-type catalogue NodePools draw from (the ConfigMap's key
  // nodepools.yaml): --instance-types-file-path's, else the kwok
  // provider's generated one.
  std::vector<InstanceType> instance_types;
  // The cluster's NodePools as served, when they are watched: the
  // ConfigMap may then be absent.
  std::function<std::vector<kube::RawObject>()> cluster_node_pools;
};

class KwokProvider : public Provider {
 public:
  // `clock` runs a scale-up's creates in parallel (common/parallel_calls).
  KwokProvider(const kube::SimulatedNodeClient* api, const Clock* clock,
               KwokOptions options)
      : api_(api), clock_(clock), options_(std::move(options)) {}

  Result<std::vector<NodeGroup>> NodeGroups(const SharedNodes& nodes) override;
  std::string NodeGroupOf(const NodeState& node) const override;
  std::map<int, std::vector<std::string>> Priorities() const override {
    return priorities_;
  }
  std::vector<NodePool> Pools() const override { return pools_; }
  const NodePoolCatalogue* NodePools() const override {
    return node_pools_.pools.empty() ? nullptr : &node_pools_;
  }
  Status IncreaseSize(const NodeGroup& group, int64_t delta) override;
  Status DeleteNodes(const NodeGroup& group,
                     const std::vector<const NodeState*>& nodes) override;
  // Forgets `delta` of the group's instances that have no Node in the
  // watch (an unregistered group's, then nodes created but never seen,
  // which are deleted): they are neither counted nor created again. Refused,
  // with nothing changed, when the group has fewer such instances.
  Status DecreaseTargetSize(const NodeGroup& group, int64_t delta,
                            const std::vector<const NodeState*>&) override;

  // The shape of the nodes a scale-up of `group` creates.
  NodeTemplate ShapeOf(const NodeGroup& group, const std::string& name) const;

 private:
  Result<NodeGroupsFile> DecodeConfig(const kube::ConfigMap& config_map,
                                      const std::string& ref);
  // node_pools_ from the ConfigMap's text and the cluster's objects,
  // decoded again only when one of them changed.
  void AddRetiredGroups(const SharedNodes& nodes,
                        const std::map<std::string, int64_t>& sizes,
                        std::vector<NodeGroup>* groups) const;
  Status RefreshNodePools(const std::string* text,
                          const std::vector<kube::RawObject>& cluster,
                          const std::string& ref);

  const kube::SimulatedNodeClient* api_;
  const Clock* clock_;
  const KwokOptions options_;
  // Nodes created but not yet seen through the watch, and nodes deleted but
  // still seen, by name with their group: the size counts what was asked
  // for, so a lagging watch never triggers a second scale-up.
  std::map<std::string, std::string> created_unseen_;
  // Instances of the unregistered groups, by name with their group.
  std::map<std::string, std::string> unregistered_;
  std::map<int, std::vector<std::string>> priorities_;
  std::vector<NodePool> pools_;
  NodePoolCatalogue node_pools_;
  // What node_pools_ was decoded from: the ConfigMap's text and each
  // cluster NodePool's name and resourceVersion.
  std::string pools_source_;
  // Cluster NodePools left out as they read now: their nodes are kept.
  std::set<std::string, std::less<>> refused_pools_;
  std::vector<NodeGroup> pool_groups_;
  std::map<std::string, std::string> deleted_seen_;
  std::mt19937_64 random_{std::random_device{}()};
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PROVIDER_KWOK_H_
