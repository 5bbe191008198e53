// Replica mode's parts (app/mode_parts.h): the watches of the nodes, the
// params ConfigMap, the targets and the HPAs; the reporter; the autoscaler.
#ifndef PROPSCALER_APP_REPLICA_PARTS_H_
#define PROPSCALER_APP_REPLICA_PARTS_H_

#include "app/mode_parts.h"
#include "replicas/autoscaler.h"
#include "replicas/autoscaler_options.h"
#include "replicas/replica_reporter.h"
#include "replicas/replica_watches.h"

namespace propscaler {

using ReplicaParts = ModeParts<AutoscalerOptions, ReplicaWatches,
                               ReplicaReporter, ReplicaAutoscaler>;

}  // namespace propscaler

#endif  // PROPSCALER_APP_REPLICA_PARTS_H_
