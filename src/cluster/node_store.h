// The nodes currently counted, kept compact and with running totals, fed by
// the node reflector. Thread-safe.
#ifndef PROPSCALER_CLUSTER_NODE_STORE_H_
#define PROPSCALER_CLUSTER_NODE_STORE_H_

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "cluster/cluster_counts.h"
#include "kube/node_info.h"

namespace propscaler {

class NodeStore {
 public:
  // Each returns true when the cluster counts changed.
  bool Replace(std::vector<kube::NodeInfo> nodes);
  bool Upsert(const kube::NodeInfo& node);
  bool Remove(const std::string& name);

  ClusterCounts Counts() const;
  size_t size() const;

 private:
  struct Entry {
    int64_t cpu_millis = 0;
    bool schedulable = false;
  };
  struct Totals {
    int64_t nodes = 0;
    int64_t schedulable_nodes = 0;
    int64_t cpu_millis = 0;
    int64_t schedulable_cpu_millis = 0;
    void Add(const Entry& entry, int sign);
  };
  ClusterCounts CountsLocked() const;

  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> nodes_;
  Totals totals_;
};

}  // namespace propscaler

#endif  // PROPSCALER_CLUSTER_NODE_STORE_H_
