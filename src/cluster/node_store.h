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
  // A list replaced page by page, so no list is held whole beside the
  // store: Stage adds a page to a staged copy (`first` starts it afresh,
  // dropping what an unfinished list staged), Commit makes it current.
  void Stage(std::vector<kube::NodeInfo> page, bool first);
  bool Commit();
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
  using Map = std::unordered_map<std::string, Entry>;
  // Sets `entry` for `name` in `map`, keeping `totals` current.
  static void Put(Map* map, Totals* totals, std::string name,
                  const Entry& entry);
  ClusterCounts CountsLocked() const;

  mutable std::mutex mutex_;
  Map nodes_;
  Totals totals_;
  Map staged_;  // touched by the reflector's thread only
  Totals staged_totals_;
};

}  // namespace propscaler

#endif  // PROPSCALER_CLUSTER_NODE_STORE_H_
