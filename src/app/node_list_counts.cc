#include "app/node_list_counts.h"

#include <algorithm>
#include <vector>

#include "cluster/node_store.h"
#include "kube/model/node_info.h"
#include "kube/wire/snapshot_json.h"

namespace propscaler {
namespace {

bool HasExcludedTaint(const kube::NodeState& node,
                      const TaintFilter& excluded) {
  return std::any_of(
      node.taints.begin(), node.taints.end(), [&](const kube::Taint& taint) {
        return excluded.Matches(taint.key, kube::TaintEffectName(taint.effect));
      });
}

}  // namespace

Result<NodeListCounts> CountNodeListJson(std::string_view text,
                                         const LabelSelector& selector,
                                         const TaintFilter& excluded) {
  Result<std::vector<kube::NodeState>> nodes = kube::DecodeNodeListJson(text);
  if (!nodes.ok()) return nodes.status();
  std::vector<kube::NodeInfo> counted;
  for (const kube::NodeState& node : *nodes) {
    if (!selector.Matches(node.labels)) continue;
    counted.push_back(kube::NodeInfo{node.name, node.allocatable.cpu_millis,
                                     node.unschedulable, node.ready,
                                     HasExcludedTaint(node, excluded)});
  }
  NodeStore store;
  store.Replace(std::move(counted));
  return NodeListCounts{static_cast<int64_t>(nodes->size()), store.Counts()};
}

}  // namespace propscaler
