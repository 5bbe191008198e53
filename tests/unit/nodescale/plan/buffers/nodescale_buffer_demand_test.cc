// How many chunks a CapacityBuffer asks for, and its virtual pods. Cases
// from Cluster Autoscaler's replicas_test.go and Karpenter's buffer
// controller (../shared/reference/karpenter-disruption.md, 3.4), with the
// rounding decided there: the percentage rounds up.
#include <gtest/gtest.h>

#include <limits>

#include "nodescale/plan/buffers/buffer_demand.h"

namespace propscaler::nodescale {
namespace {

kube::CapacityBuffer Scalable(std::optional<int64_t> replicas,
                              std::optional<int64_t> percentage) {
  kube::CapacityBuffer b;
  b.namespace_ = "apps";
  b.name = "web";
  b.scalable = kube::ScalableRef{"apps", "Deployment", "web"};
  b.replicas = replicas;
  b.percentage = percentage;
  return b;
}

Resources Chunk(int64_t cpu_millis, int64_t memory_mib) {
  Resources r;
  r.cpu_millis = cpu_millis;
  r.memory_bytes = memory_mib << 20;
  r.pods = 1;
  return r;
}

TEST(BufferReplicasTest, FixedReplicas) {
  EXPECT_EQ(*BufferReplicas(Scalable(5, std::nullopt), 10, Chunk(100, 200)), 5);
}

// CA floors 33% of 10 to 3; the API's text and Karpenter round up: 4.
TEST(BufferReplicasTest, PercentageRoundsUpWhereClusterAutoscalerFloors) {
  EXPECT_EQ(*BufferReplicas(Scalable(std::nullopt, 33), 10, Chunk(100, 200)),
            4);
}

TEST(BufferReplicasTest, PercentageOfAnythingAboveZeroIsAtLeastOne) {
  EXPECT_EQ(*BufferReplicas(Scalable(std::nullopt, 1), 3, Chunk(100, 200)), 1);
}

TEST(BufferReplicasTest, PercentageOfZeroReplicasIsZero) {
  EXPECT_EQ(*BufferReplicas(Scalable(std::nullopt, 50), 0, Chunk(100, 200)), 0);
}

TEST(BufferReplicasTest, LargerOfReplicasAndPercentageWins) {
  EXPECT_EQ(*BufferReplicas(Scalable(2, 50), 10, Chunk(100, 200)), 5);
  EXPECT_EQ(*BufferReplicas(Scalable(7, 50), 10, Chunk(100, 200)), 7);
}

// CA's case: 100m/200Mi chunks under 2 cpu / 2000Mi hold 10.
TEST(BufferReplicasTest, LimitsCapTheCount) {
  kube::CapacityBuffer b = Scalable(20, std::nullopt);
  b.limits = Chunk(2000, 2000);
  b.limits->pods = 0;
  EXPECT_EQ(*BufferReplicas(b, 10, Chunk(100, 200)), 10);
}

TEST(BufferReplicasTest, LimitsAloneGiveAsManyChunksAsFit) {
  kube::CapacityBuffer b = Scalable(std::nullopt, std::nullopt);
  b.limits = Chunk(2000, 2000);
  b.limits->pods = 0;
  EXPECT_EQ(*BufferReplicas(b, 10, Chunk(100, 200)), 10);
}

TEST(BufferReplicasTest, LimitsOnResourcesTheChunkDoesNotUseBoundNothing) {
  kube::CapacityBuffer b = Scalable(std::nullopt, std::nullopt);
  b.limits = Resources{};
  b.limits->SetExtended("nvidia.com/gpu", 4);
  Result<int64_t> n = BufferReplicas(b, 10, Chunk(100, 200));
  ASSERT_FALSE(n.ok());
  EXPECT_NE(n.status().message().find("apps/web"), std::string::npos);
}

TEST(CheckBufferSpecTest, RefusesWhatTheApiValidationRefuses) {
  kube::CapacityBuffer both = Scalable(1, std::nullopt);
  both.pod_template = "chunk";
  EXPECT_NE(CheckBufferSpec(both).message().find("not both"),
            std::string::npos);

  kube::CapacityBuffer neither = Scalable(1, std::nullopt);
  neither.scalable.reset();
  EXPECT_FALSE(CheckBufferSpec(neither).ok());

  kube::CapacityBuffer template_only;
  template_only.name = "t";
  template_only.pod_template = "chunk";
  EXPECT_NE(CheckBufferSpec(template_only).message().find("replicas or limits"),
            std::string::npos);

  kube::CapacityBuffer percentage = template_only;
  percentage.replicas = 1;
  percentage.percentage = 10;
  EXPECT_NE(CheckBufferSpec(percentage).message().find("scalableRef"),
            std::string::npos);

  EXPECT_NE(CheckBufferSpec(Scalable(std::nullopt, std::nullopt))
                .message()
                .find("replicas, percentage or limits"),
            std::string::npos);
}

// The API's int32 fields of at least 0: outside that range the buffer is
// refused, naming the field and value (a percentage of 4e18 overflowed the
// count: found by the capacity_buffer fuzzer).
TEST(CheckBufferSpecTest, ReplicasAndPercentageAreInt32sOfAtLeastZero) {
  const Status huge =
      CheckBufferSpec(Scalable(std::nullopt, 4000220000040057428));
  EXPECT_NE(huge.message().find("percentage 4000220000040057428 is not "
                                "between 0 and 2147483647"),
            std::string::npos)
      << huge.message();
  EXPECT_NE(CheckBufferSpec(Scalable(-1, std::nullopt))
                .message()
                .find("replicas -1 is not between 0"),
            std::string::npos);
  EXPECT_FALSE(
      BufferReplicas(Scalable(4, 4000220000040057428), 7, Chunk(100, 200))
          .ok());
  EXPECT_TRUE(CheckBufferSpec(Scalable(2147483647, 2147483647)).ok());
  // The largest of both stays exact.
  EXPECT_EQ(*BufferReplicas(Scalable(std::nullopt, 2147483647), 2147483647,
                            Chunk(100, 200)),
            (int64_t{2147483647} * 2147483647 + 99) / 100);
}

NodeState NodeWithSlots(int64_t pods) {
  NodeState node;
  node.allocatable.pods = pods;
  return node;
}

NodeGroup GroupWithRoom(int64_t target, int64_t max,
                        std::optional<int64_t> template_pods) {
  NodeGroup group;
  group.target_size = target;
  group.max_size = max;
  if (template_pods) {
    group.declared_template = NodeTemplate{};
    group.declared_template->allocatable.pods = *template_pods;
  }
  return group;
}

TEST(MaxBufferChunksTest, EveryNodeAndEveryGroupAtItsMaxSize) {
  // 30 + 40 slots on nodes; 5 more nodes of the largest, 58-pod template.
  const ChunkBound bound = MaxBufferChunks(
      {NodeWithSlots(30), NodeWithSlots(40)},
      {GroupWithRoom(2, 7, 58), GroupWithRoom(3, 3, std::nullopt)});
  EXPECT_EQ(bound.chunks, 30 + 40 + 5 * 58);
  EXPECT_NE(bound.why.find("360 pods, what every node and every node group"),
            std::string::npos)
      << bound.why;
}

TEST(MaxBufferChunksTest, NodesOfTheKubeletsDefaultWhenNothingSays) {
  EXPECT_EQ(MaxBufferChunks({}, {GroupWithRoom(0, 4, std::nullopt)}).chunks,
            4 * 110);
  EXPECT_EQ(MaxBufferChunks({}, {}).chunks, 0);
}

TEST(MaxBufferChunksTest, NeverMoreThanTheLargestSupportedCluster) {
  const ChunkBound bound =
      MaxBufferChunks({NodeWithSlots(std::numeric_limits<int64_t>::max())},
                      {GroupWithRoom(0, std::numeric_limits<int64_t>::max(),
                                     std::numeric_limits<int64_t>::max())});
  EXPECT_EQ(bound.chunks, 150000);
  EXPECT_NE(bound.why.find("the largest cluster Kubernetes supports"),
            std::string::npos)
      << bound.why;
}

TEST(BufferPodsTest, NamedAsClusterAutoscalerNamesItsFakePods) {
  PodState chunk;
  chunk.name = "template";
  chunk.requests = Chunk(100, 200);
  const std::vector<PodState> pods =
      BufferPods(Scalable(2, std::nullopt), chunk, 2);
  ASSERT_EQ(pods.size(), 2u);
  EXPECT_EQ(pods[0].Key(), "apps/capacity-buffer-web-1");
  EXPECT_EQ(pods[1].Key(), "apps/capacity-buffer-web-2");
  EXPECT_TRUE(IsPending(pods[0]));
  EXPECT_EQ(pods[1].owner_kind, "CapacityBuffer");
  EXPECT_EQ(pods[1].owner_name, "web");
}

}  // namespace
}  // namespace propscaler::nodescale
