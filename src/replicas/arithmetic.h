// The replica arithmetic of cluster-proportional-autoscaler: cluster counts
// and params in, a replica count out. Pure.
#ifndef PROPSCALER_REPLICAS_ARITHMETIC_H_
#define PROPSCALER_REPLICAS_ARITHMETIC_H_

#include <cstdint>
#include <string>

#include "replicas/params.h"

namespace propscaler {

// What the arithmetic needs to know about the counted nodes. Cores are whole
// cores, rounded up from the exact sum of allocatable CPU.
struct ClusterCounts {
  int64_t total_nodes = 0;
  int64_t schedulable_nodes = 0;
  int64_t total_cores = 0;
  int64_t schedulable_cores = 0;

  bool operator==(const ClusterCounts&) const = default;
};

// "nodes 3/4 schedulable, cores 12/16 schedulable", for logs and Events.
std::string DescribeCounts(const ClusterCounts& counts);

int64_t LinearReplicas(const LinearParams& params, const ClusterCounts& counts);
int64_t LadderReplicas(const LadderParams& params, const ClusterCounts& counts);
int64_t DesiredReplicas(const Params& params, const ClusterCounts& counts);

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_ARITHMETIC_H_
