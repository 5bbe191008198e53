// A node's attach limits as the scheduler's NodeVolumeLimits reads them:
// its allocatable `attachable-volumes-*` keys, overridden per driver by its
// CSINode's counts. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_NODE_VOLUME_LIMITS_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_NODE_VOLUME_LIMITS_H_

#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

// Whether the node's allocatable has any attach limit key (most have none:
// their CSINode alone gives the limits).
bool HasAllocatableVolumeLimits(const Resources& allocatable);

// `csi_node`: the CSINode's limits (null: no CSINode).
VolumeLimits NodeVolumeLimits(const Resources& allocatable,
                              const VolumeLimits* csi_node);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_NODE_VOLUME_LIMITS_H_
