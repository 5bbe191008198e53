// ScheduleClaims on what Karpenter's transcribed cases leave out: a pod
// asking for an extended resource only one instance type has.
#include "nodescale/plan/claims/claim_scheduler.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

InstanceType Type(const std::string& name, int64_t gpus, double price) {
  InstanceType type;
  type.name = name;
  type.labels["node.kubernetes.io/instance-type"] = name;
  type.capacity.cpu_millis = 8000;
  type.capacity.memory_bytes = int64_t{32} << 30;
  type.capacity.pods = 110;
  if (gpus > 0) type.capacity.SetExtended("nvidia.com/gpu", gpus);
  type.offerings = {{{{"topology.kubernetes.io/zone", "z1"}}, price, true}};
  return type;
}

TEST(ClaimSchedulerTest, AnExtendedResourceLaunchesTheTypeThatHasIt) {
  const std::vector<InstanceType> catalogue = {Type("plain", 0, 0.1),
                                               Type("gpu", 2, 1.0)};
  NodePoolSpec pool;
  pool.name = "default";
  const std::vector<NodePoolSpec> pools = {pool};
  PodState pod;
  pod.namespace_ = "default";
  pod.name = "trainer";
  pod.requests.cpu_millis = 1000;
  pod.requests.pods = 1;
  pod.requests.SetExtended("nvidia.com/gpu", 1);
  ClusterSnapshot snapshot;
  snapshot.pods = PodList(std::vector<PodState>{pod});
  const ClaimPlan plan = ScheduleClaims({&snapshot, &pools, &catalogue});
  ASSERT_TRUE(plan.unschedulable.empty());
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(catalogue[plan.claims[0].instance_type].name, "gpu");
}

}  // namespace
}  // namespace propscaler::nodescale
