// The node watch's sink that keeps a NodeStore current: lists staged page
// by page and committed whole (or, for a list of its own, replaced whole),
// watch events applied. `changed` is called when an event changed the
// counts (on the watch's thread).
#ifndef PROPSCALER_CLUSTER_NODE_STORE_SINK_H_
#define PROPSCALER_CLUSTER_NODE_STORE_SINK_H_

#include <functional>

#include "cluster/node_store.h"
#include "kube/controllers/reflector.h"
#include "kube/model/node_info.h"

namespace propscaler {

inline kube::ReflectorSink<kube::NodeInfo> NodeStoreSink(
    NodeStore* store, std::function<void()> changed) {
  return {[store](std::vector<kube::NodeInfo> nodes) {
            store->Replace(std::move(nodes));
          },
          [store, changed](const kube::NodeInfo& node) {
            if (store->Upsert(node)) changed();
          },
          [store, changed](const kube::NodeInfo& node) {
            if (store->Remove(node.name)) changed();
          },
          [store](std::vector<kube::NodeInfo> page, bool first) {
            store->Stage(std::move(page), first);
          },
          [store] { store->Commit(); }};
}

}  // namespace propscaler

#endif  // PROPSCALER_CLUSTER_NODE_STORE_SINK_H_
