#include <gtest/gtest.h>

#include "nodescale/plan/simulation/estimator.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

std::vector<const PodState*> Pointers(const std::vector<PodState>& pods) {
  std::vector<const PodState*> out;
  for (const PodState& pod : pods) out.push_back(&pod);
  return out;
}

std::vector<PodState> CpuPods(const std::vector<int64_t>& cpus) {
  std::vector<PodState> pods;
  for (size_t i = 0; i < cpus.size(); ++i) {
    pods.push_back(Pod("p" + std::to_string(i), cpus[i], kMi));
  }
  return pods;
}

TEST(NodescaleEstimatorTest, FirstFitDecreasingKnownPacking) {
  // Sizes 2 5 4 7 1 3 8 into bins of 10: FFD packs 8+2, 7+3, 5+4+1.
  const std::vector<PodState> pods =
      CpuPods({2000, 5000, 4000, 7000, 1000, 3000, 8000});
  const Resources node = Res(10000, 64 * kGi);
  PodEstimate e = EstimateNewNodes(Pointers(pods), node, node, 100);
  EXPECT_EQ(e.node_count, 3);
  EXPECT_EQ(e.node_of_pod, (std::vector<int64_t>{0, 2, 2, 1, 2, 1, 0}));
  EXPECT_FALSE(e.stopped_at_max_nodes);
}

TEST(NodescaleEstimatorTest, DecreasingOrderBeatsInputOrder) {
  // First fit in input order would need 3 bins (3,3 | 7 | 7); FFD needs 2.
  const std::vector<PodState> pods = CpuPods({3000, 3000, 7000, 7000});
  const Resources node = Res(10000, 64 * kGi);
  EXPECT_EQ(EstimateNewNodes(Pointers(pods), node, node, 100).node_count, 2);
}

TEST(NodescaleEstimatorTest, PodSlotsLimitPacking) {
  const std::vector<PodState> pods = CpuPods({1, 1, 1, 1, 1});
  const Resources node = Res(10000, 64 * kGi, 2);
  EXPECT_EQ(EstimateNewNodes(Pointers(pods), node, node, 100).node_count, 3);
}

TEST(NodescaleEstimatorTest, MemoryCountsInTheScore) {
  // One memory-heavy pod must be placed before the small cpu ones.
  std::vector<PodState> pods = CpuPods({500, 500});
  pods.push_back(Pod("mem", 100, 7 * kGi));
  const Resources node = Res(1000, 8 * kGi);
  PodEstimate e = EstimateNewNodes(Pointers(pods), node, node, 100);
  EXPECT_EQ(e.node_count, 2);
  EXPECT_EQ(e.node_of_pod[2], 0);
}

TEST(NodescaleEstimatorTest, StopsAtMaxNodes) {
  const std::vector<PodState> pods = CpuPods({6000, 6000, 6000});
  const Resources node = Res(10000, 64 * kGi);
  PodEstimate e = EstimateNewNodes(Pointers(pods), node, node, 2);
  EXPECT_EQ(e.node_count, 2);
  EXPECT_TRUE(e.stopped_at_max_nodes);
  EXPECT_EQ(e.node_of_pod, (std::vector<int64_t>{0, 1, -1}));
}

TEST(NodescaleEstimatorTest, PodTooBigForEmptyNodeIsSkipped) {
  const std::vector<PodState> pods = CpuPods({20000, 1000});
  const Resources node = Res(10000, 64 * kGi);
  PodEstimate e = EstimateNewNodes(Pointers(pods), node, node, 10);
  EXPECT_EQ(e.node_count, 1);
  EXPECT_TRUE(e.some_pod_too_big);
  EXPECT_EQ(e.node_of_pod[0], -1);
}

TEST(NodescaleEstimatorTest, AntiAffinitySpreadsPodsOverNodes) {
  std::vector<PodState> pods = CpuPods({100, 100, 100});
  for (PodState& pod : pods) {
    pod.labels = {{"app", "web"}};
    pod.anti_affinity = {{*LabelSelector::Parse("app=web"), {}}};
  }
  const Resources node = Res(10000, 64 * kGi);
  EXPECT_EQ(EstimateNewNodes(Pointers(pods), node, node, 10).node_count, 3);
}

TEST(NodescaleEstimatorTest, DaemonSetReservedCapacityIsRespected) {
  const std::vector<PodState> pods = CpuPods({2000, 2000});
  // 4 cpu allocatable, 100m taken by DaemonSets: two 2-cpu pods need 2.
  PodEstimate e = EstimateNewNodes(Pointers(pods), Res(3900, 64 * kGi),
                                   Res(4000, 64 * kGi), 10);
  EXPECT_EQ(e.node_count, 2);
}

}  // namespace
}  // namespace propscaler::nodescale
