// The replica arithmetic of cluster-proportional-autoscaler: cluster counts
// and params in, a replica count out. Pure.
#ifndef PROPSCALER_REPLICAS_ARITHMETIC_H_
#define PROPSCALER_REPLICAS_ARITHMETIC_H_

#include <cstdint>
#include <string>

#include "cluster/cluster_counts.h"
#include "replicas/params.h"

namespace propscaler {

int64_t LinearReplicas(const LinearParams& params, const ClusterCounts& counts);
int64_t LadderReplicas(const LadderParams& params, const ClusterCounts& counts);
int64_t DesiredReplicas(const Params& params, const ClusterCounts& counts);

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_ARITHMETIC_H_
