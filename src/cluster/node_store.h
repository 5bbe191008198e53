// The nodes currently counted, kept compact and with running totals, fed by
// the node reflector. Thread-safe.
//
// A node is kept as 16 bytes: a 96-bit hash of its name and its CPU and
// schedulability, in an array sorted by hash (mapped_array.h), so 65,000
// nodes take about 1 MiB and their list never needs a second copy. Two names
// present at once share a hash with a probability of about n^2 / 2^97
// (1e-20 at 65,000 nodes); they would count as one node.
#ifndef PROPSCALER_CLUSTER_NODE_STORE_H_
#define PROPSCALER_CLUSTER_NODE_STORE_H_

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/cluster_counts.h"
#include "cluster/mapped_array.h"
#include "kube/model/node_info.h"

namespace propscaler {

class NodeStore {
 public:
  // Each returns true when the cluster counts changed.
  bool Replace(std::vector<kube::NodeInfo> nodes);
  // A list replaced page by page, so no list is held whole beside the
  // store: Stage adds a page to a staged copy (`first` starts it afresh,
  // dropping what an unfinished list staged), Commit makes it current. A
  // list names each node once.
  void Stage(std::vector<kube::NodeInfo> page, bool first);
  bool Commit();
  bool Upsert(const kube::NodeInfo& node);
  bool Remove(const std::string& name);

  ClusterCounts Counts() const;
  size_t size() const;

 private:
  struct Key {
    uint64_t high = 0;
    uint32_t low = 0;
    auto operator<=>(const Key&) const = default;
  };
  struct Entry {
    uint64_t key_high = 0;
    uint32_t key_low = 0;
    // Millicores (at most 2^31 - 1, about two million cores), and bit 31
    // set when schedulable.
    uint32_t cpu_and_schedulable = 0;

    Key key() const { return Key{key_high, key_low}; }
    int64_t cpu_millis() const { return cpu_and_schedulable & 0x7fffffff; }
    bool schedulable() const { return (cpu_and_schedulable >> 31) != 0; }
  };
  static_assert(sizeof(Entry) == 16);
  struct Totals {
    int64_t nodes = 0;
    int64_t schedulable_nodes = 0;
    int64_t cpu_millis = 0;
    int64_t schedulable_cpu_millis = 0;
    void Add(const Entry& entry, int sign);
  };
  using Table = MappedArray<Entry>;  // sorted by key, but while staged

  static Key KeyOf(std::string_view name);
  static Entry EntryOf(const kube::NodeInfo& node);
  // The index of `key` in `table`, or where it would go.
  static size_t LowerBound(const Table& table, const Key& key);
  ClusterCounts CountsLocked() const;

  mutable std::mutex mutex_;
  Table nodes_;
  Totals totals_;
  Table staged_;  // unsorted; touched by the reflector's thread only
};

}  // namespace propscaler

#endif  // PROPSCALER_CLUSTER_NODE_STORE_H_
