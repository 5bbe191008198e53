#include "cluster/node_store.h"

#include "common/quantity.h"

namespace propscaler {

void NodeStore::Totals::Add(const Entry& entry, int sign) {
  nodes += sign;
  cpu_millis += sign * entry.cpu_millis;
  if (entry.schedulable) {
    schedulable_nodes += sign;
    schedulable_cpu_millis += sign * entry.cpu_millis;
  }
}

ClusterCounts NodeStore::CountsLocked() const {
  return ClusterCounts{
      .total_nodes = totals_.nodes,
      .schedulable_nodes = totals_.schedulable_nodes,
      .total_cores = MilliToUnitsRoundUp(totals_.cpu_millis),
      .schedulable_cores = MilliToUnitsRoundUp(totals_.schedulable_cpu_millis),
  };
}

bool NodeStore::Replace(std::vector<kube::NodeInfo> nodes) {
  std::lock_guard<std::mutex> lock(mutex_);
  const ClusterCounts before = CountsLocked();
  nodes_.clear();
  totals_ = Totals();
  nodes_.reserve(nodes.size());
  for (kube::NodeInfo& node : nodes) {
    Entry entry{node.cpu_millis, node.schedulable()};
    auto [it, inserted] = nodes_.try_emplace(std::move(node.name), entry);
    if (!inserted) {
      totals_.Add(it->second, -1);
      it->second = entry;
    }
    totals_.Add(entry, +1);
  }
  return !(CountsLocked() == before);
}

bool NodeStore::Upsert(const kube::NodeInfo& node) {
  std::lock_guard<std::mutex> lock(mutex_);
  const ClusterCounts before = CountsLocked();
  Entry entry{node.cpu_millis, node.schedulable()};
  auto [it, inserted] = nodes_.try_emplace(node.name, entry);
  if (!inserted) {
    totals_.Add(it->second, -1);
    it->second = entry;
  }
  totals_.Add(entry, +1);
  return !(CountsLocked() == before);
}

bool NodeStore::Remove(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = nodes_.find(name);
  if (it == nodes_.end()) return false;
  const ClusterCounts before = CountsLocked();
  totals_.Add(it->second, -1);
  nodes_.erase(it);
  return !(CountsLocked() == before);
}

ClusterCounts NodeStore::Counts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return CountsLocked();
}

size_t NodeStore::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return nodes_.size();
}

}  // namespace propscaler
