// Karpenter's scheduling benchmark as input (kubernetes-sigs/karpenter,
// pkg/controllers/provisioning/scheduling/scheduling_benchmark_test.go,
// v1.8): its 400 fake instance types and its "diverse" pods, built as it
// builds them; only the random generator differs (the same draws, in the
// same order, from our own generator). Shared by the benchmarks that plan
// the mix as NodePools over a catalogue and as declared node groups, and by
// their tests. Pure.
#ifndef PROPSCALER_BENCH_CHECKS_KARPENTER_MIX_H_
#define PROPSCALER_BENCH_CHECKS_KARPENTER_MIX_H_

#include <cstdint>
#include <vector>

#include "nodescale/domain/instance_type.h"
#include "nodescale/domain/node_group.h"
#include "nodescale/domain/node_pool_spec.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::bench {

// Instance type i (fake.InstanceTypes) has i+1 cpu, 2(i+1) GiB and 10(i+1)
// pods, less 100m cpu and 10Mi kube-reserved, and five offerings: spot in
// test-zone-1 and -2, on-demand in test-zone-1, -2 and -3, each priced 0.1
// a cpu plus 0.1 a GB of memory.
std::vector<nodescale::InstanceType> KarpenterInstanceTypes();

// The benchmark's one NodePool: no requirements, no limits that bind
// (Karpenter's are 10,000,000 cpu).
nodescale::NodePoolSpec KarpenterNodePool();

// Each offering of the types as a node group of its own, as Cluster
// Autoscaler would see the catalogue: 2,000 groups with no cap.
std::vector<nodescale::NodeGroup> KarpenterInstanceTypeGroups();

// makeDiversePods: a fifth each of generic pods, pods spread over zones,
// pods spread over hostnames (maxSkew 1, DoNotSchedule, each selecting a
// random my-label value of its own), pods with required self-affinity in a
// zone (my-affininity, sic), and pods with required anti-affinity per
// hostname that all share app=nginx (each needs a node of its own); the
// remainder generic. Labels take one of a..g; cpu one of 100m, 250m, 500m,
// 1, 1.5; memory one of 100Mi, 256Mi, 512Mi, 1Gi, 2Gi, 4Gi.
std::vector<nodescale::PodState> KarpenterDiversePods(int count, uint64_t seed);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_CHECKS_KARPENTER_MIX_H_
