#include "cluster/node_store.h"

#include <algorithm>
#include <functional>

#include "common/quantity.h"

namespace propscaler {
namespace {

// FNV-1a, independent of std::hash's MurmurHash, for the key's low bits.
uint32_t Fnv1a(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return static_cast<uint32_t>(hash >> 32);
}

}  // namespace

void NodeStore::Totals::Add(const Entry& entry, int sign) {
  nodes += sign;
  cpu_millis += sign * entry.cpu_millis();
  if (entry.schedulable()) {
    schedulable_nodes += sign;
    schedulable_cpu_millis += sign * entry.cpu_millis();
  }
}

NodeStore::Key NodeStore::KeyOf(std::string_view name) {
  return Key{std::hash<std::string_view>{}(name), Fnv1a(name)};
}

NodeStore::Entry NodeStore::EntryOf(const kube::NodeInfo& node) {
  const int64_t cpu = std::clamp<int64_t>(node.cpu_millis, 0, 0x7fffffff);
  const Key key = KeyOf(node.name);
  return Entry{
      key.high, key.low,
      static_cast<uint32_t>(cpu) | (node.schedulable() ? 0x80000000u : 0u)};
}

size_t NodeStore::LowerBound(const Table& table, const Key& key) {
  return std::lower_bound(
             table.begin(), table.end(), key,
             [](const Entry& entry, const Key& k) { return entry.key() < k; }) -
         table.begin();
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
  Stage(std::move(nodes), true);
  return Commit();
}

void NodeStore::Stage(std::vector<kube::NodeInfo> page, bool first) {
  if (first) Table().swap(staged_);
  for (const kube::NodeInfo& node : page) staged_.push_back(EntryOf(node));
}

bool NodeStore::Commit() {
  auto by_key = [](const Entry& a, const Entry& b) {
    return a.key() < b.key();
  };
  std::sort(staged_.begin(), staged_.end(), by_key);
  const Entry* last = std::unique(
      staged_.begin(), staged_.end(),
      [](const Entry& a, const Entry& b) { return a.key() == b.key(); });
  staged_.truncate(last - staged_.begin());
  Totals totals;
  for (const Entry& entry : staged_) totals.Add(entry, +1);

  Table old;
  std::lock_guard<std::mutex> lock(mutex_);
  const ClusterCounts before = CountsLocked();
  old.swap(nodes_);
  nodes_.swap(staged_);
  totals_ = totals;
  return !(CountsLocked() == before);
}

bool NodeStore::Upsert(const kube::NodeInfo& node) {
  const Entry entry = EntryOf(node);
  std::lock_guard<std::mutex> lock(mutex_);
  const ClusterCounts before = CountsLocked();
  const size_t at = LowerBound(nodes_, entry.key());
  if (at < nodes_.size() && nodes_[at].key() == entry.key()) {
    totals_.Add(nodes_[at], -1);
    nodes_[at] = entry;
  } else {
    nodes_.insert(at, entry);
  }
  totals_.Add(entry, +1);
  return !(CountsLocked() == before);
}

bool NodeStore::Remove(const std::string& name) {
  const Key key = KeyOf(name);
  std::lock_guard<std::mutex> lock(mutex_);
  const size_t at = LowerBound(nodes_, key);
  if (at == nodes_.size() || !(nodes_[at].key() == key)) return false;
  const ClusterCounts before = CountsLocked();
  totals_.Add(nodes_[at], -1);
  nodes_.erase(at);
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
