// The fewest nodes a plan's pods could go on, and the margin above it.
#include <gtest/gtest.h>

#include "checks/node_count_bound.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::bench {
namespace {

using namespace nodescale;                // NOLINT
using namespace nodescale::testing_util;  // NOLINT

std::vector<const PodState*> Pointers(const std::vector<PodState>& pods) {
  std::vector<const PodState*> out;
  for (const PodState& pod : pods) out.push_back(&pod);
  return out;
}

const Resources kNode = {
    .cpu_millis = 2000, .memory_bytes = 8 * kGi, .pods = 110};

TEST(NodeCountBoundTest, RequestsOverTheLargestNode) {
  std::vector<PodState> pods;
  for (int i = 0; i < 7; ++i)
    pods.push_back(Pod("p" + std::to_string(i), 1000, kGi));
  EXPECT_EQ(NewNodesLowerBound(Pointers(pods), kNode), 4) << "7 cpu on 2";
  pods.push_back(Pod("big", 100, 30 * kGi));
  EXPECT_EQ(NewNodesLowerBound(Pointers(pods), kNode), 5) << "37 GiB on 8";
  Resources few_slots = kNode;
  few_slots.pods = 1;
  EXPECT_EQ(NewNodesLowerBound(Pointers(pods), few_slots), 8) << "a pod each";
}

// Pods over half the node in one resource never share; over half in
// different resources may.
TEST(NodeCountBoundTest, PodsOverHalfTheNodeEachNeedOne) {
  const std::vector<PodState> cpu = {Pod("a", 1100, kGi), Pod("b", 1100, kGi),
                                     Pod("c", 1100, kGi)};
  EXPECT_EQ(NewNodesLowerBound(Pointers(cpu), kNode), 3);
  const std::vector<PodState> mixed = {Pod("a", 1100, kGi),
                                       Pod("b", 100, 5 * kGi)};
  EXPECT_EQ(NewNodesLowerBound(Pointers(mixed), kNode), 1);
}

// Small pods of one hostname anti-affinity term: a node each.
TEST(NodeCountBoundTest, HostnameAntiAffinityKeepsPodsApart) {
  std::vector<PodState> pods;
  for (int i = 0; i < 5; ++i) {
    PodState pod = Pod("web-" + std::to_string(i), 10, kMi);
    pod.labels = Labels{{"app", "web"}};
    pod.anti_affinity = {
        {*LabelSelector::Parse("app=web"), {}, std::string(kHostnameLabel)}};
    pods.push_back(std::move(pod));
  }
  pods.push_back(Pod("other", 10, kMi));
  EXPECT_EQ(NewNodesLowerBound(Pointers(pods), kNode), 5);
}

TEST(NodeCountBoundTest, TheMarginAboveTheBound) {
  EXPECT_EQ(NodeCountMiss(4, 4), std::nullopt);
  EXPECT_EQ(NodeCountMiss(11, 4), std::nullopt) << "ceil(1.7 x 4) + 4";
  EXPECT_EQ(NodeCountMiss(12, 4),
            "12 new nodes, more than 1.7x the lower bound 4 and 4 (at most "
            "11)");
  EXPECT_EQ(NodeCountMiss(3, 4), "3 new nodes, fewer than the lower bound 4");
  EXPECT_EQ(NodeCountMiss(0, 0), std::nullopt);
}

}  // namespace
}  // namespace propscaler::bench
