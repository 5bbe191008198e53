#include "cluster/cluster_counts.h"

namespace propscaler {

std::string DescribeCounts(const ClusterCounts& counts) {
  return "nodes " + std::to_string(counts.schedulable_nodes) + "/" +
         std::to_string(counts.total_nodes) + " schedulable, cores " +
         std::to_string(counts.schedulable_cores) + "/" +
         std::to_string(counts.total_cores) + " schedulable" +
         (counts.pods ? ", pods " + std::to_string(*counts.pods) : "");
}

}  // namespace propscaler
