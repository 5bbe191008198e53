// What replica mode knows about the counted nodes, as the arithmetic reads
// it. Cores are whole cores, rounded up from the exact sum of allocatable CPU.
#ifndef PROPSCALER_CLUSTER_CLUSTER_COUNTS_H_
#define PROPSCALER_CLUSTER_CLUSTER_COUNTS_H_

#include <cstdint>
#include <optional>
#include <string>

namespace propscaler {

struct ClusterCounts {
  int64_t total_nodes = 0;
  int64_t schedulable_nodes = 0;
  int64_t total_cores = 0;
  int64_t schedulable_cores = 0;
  // Running and Pending pods matching --pod-selector; nullopt without it.
  std::optional<int64_t> pods;

  bool operator==(const ClusterCounts&) const = default;
};

// "nodes 3/4 schedulable, cores 12/16 schedulable", for logs and Events.
std::string DescribeCounts(const ClusterCounts& counts);

}  // namespace propscaler

#endif  // PROPSCALER_CLUSTER_CLUSTER_COUNTS_H_
