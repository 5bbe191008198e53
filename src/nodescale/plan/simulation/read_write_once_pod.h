// kube-scheduler's VolumeRestrictions filter for ReadWriteOncePod claims: a
// pod using such a claim that a scheduled pod already uses fits no node
// (Cluster Autoscaler runs the same filter: no scale-up for it). The pod
// that holds the claim moves with it when its node is drained. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_READ_WRITE_ONCE_POD_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_READ_WRITE_ONCE_POD_H_

#include <cstdint>
#include <set>
#include <string>

#include "kube/model/volumes.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

inline constexpr std::string_view kReadWriteOncePod = "ReadWriteOncePod";

using ClaimKeys = std::set<std::string, std::less<>>;

// The "namespace/name" of every claim whose access modes include
// ReadWriteOncePod.
ClaimKeys ReadWriteOncePodClaims(const kube::VolumeObjects& objects);

// Each pending pod using one of `claims` that a scheduled pod uses already
// gets a volume need no node meets, naming the claim and that pod (a copy
// of the pod; the others stay shared). Returns how many such pods fitted
// somewhere before.
int64_t MarkReadWriteOncePodConflicts(const ClaimKeys& claims, PodList* pods);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_READ_WRITE_ONCE_POD_H_
