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

void NodeStore::Put(Map* map, Totals* totals, std::string name,
                    const Entry& entry) {
  auto [it, inserted] = map->try_emplace(std::move(name), entry);
  if (!inserted) {
    totals->Add(it->second, -1);
    it->second = entry;
  }
  totals->Add(entry, +1);
}

bool NodeStore::Replace(std::vector<kube::NodeInfo> nodes) {
  Stage(std::move(nodes), true);
  return Commit();
}

void NodeStore::Stage(std::vector<kube::NodeInfo> page, bool first) {
  if (first) {
    Map().swap(staged_);
    staged_totals_ = Totals();
  }
  for (kube::NodeInfo& node : page) {
    Put(&staged_, &staged_totals_, std::move(node.name),
        Entry{node.cpu_millis, node.schedulable()});
  }
}

bool NodeStore::Commit() {
  Map old;
  std::lock_guard<std::mutex> lock(mutex_);
  const ClusterCounts before = CountsLocked();
  old.swap(nodes_);
  nodes_.swap(staged_);
  totals_ = staged_totals_;
  staged_totals_ = Totals();
  return !(CountsLocked() == before);
}

bool NodeStore::Upsert(const kube::NodeInfo& node) {
  std::lock_guard<std::mutex> lock(mutex_);
  const ClusterCounts before = CountsLocked();
  Put(&nodes_, &totals_, node.name, Entry{node.cpu_millis, node.schedulable()});
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
