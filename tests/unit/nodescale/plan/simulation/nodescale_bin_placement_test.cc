// BinPlacement: the one placement of pending pods (filter-out-schedulable)
// and the next-fit search the simulations move pods with.
#include <gtest/gtest.h>

#include "nodescale/plan/simulation/bin_placement.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

constexpr char kZone[] = "topology.kubernetes.io/zone";

std::vector<std::string> Keys(const std::vector<const PodState*>& pods) {
  std::vector<std::string> out;
  for (const PodState* pod : pods) out.push_back(pod->name);
  return out;
}

std::vector<std::string> NamesOn(const Bin& bin) { return Keys(bin.pods); }

class BinPlacementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    nodes_ = {Node("a", "g", 2000, 8 * kGi), Node("b", "g", 2000, 8 * kGi)};
  }
  std::vector<NodeState> nodes_;
  PodList pods_;
};

TEST_F(BinPlacementTest, PendingPodsAreUnboundUnfinishedAndNotDaemonSets) {
  pods_ = {Pod("wait", 100, kMi), BoundPod("bound", "a", 100, kMi),
           DaemonSetPod("ds", "", 100, kMi), Pod("done", 100, kMi)};
  pods_.Mutable(3).terminated = true;
  EXPECT_EQ(Keys(PendingPods(pods_)), std::vector<std::string>{"wait"});
}

TEST_F(BinPlacementTest, EachPendingPodGoesToTheFirstBinWithRoom) {
  pods_ = {BoundPod("busy", "a", 1500, kGi), Pod("p1", 1000, kGi),
           Pod("p2", 1000, kGi), Pod("small", 500, kGi), Pod("p3", 1000, kGi)};
  BinPlacement placement(nodes_, pods_);
  const BinPlacement::PendingResult result =
      placement.PlacePending(PendingPods(pods_));
  // p1 and p2 fill b; small still fits a (500 of its 500 left); p3 fits
  // nowhere.
  EXPECT_EQ(Keys(result.placed),
            (std::vector<std::string>{"p1", "p2", "small"}));
  EXPECT_EQ(Keys(result.left), std::vector<std::string>{"p3"});
  EXPECT_EQ(NamesOn(placement.bins()[0]),
            (std::vector<std::string>{"busy", "small"}));
  EXPECT_EQ(NamesOn(placement.bins()[1]),
            (std::vector<std::string>{"p1", "p2"}));
}

TEST_F(BinPlacementTest, BinsThatAcceptNoPodsAndUpcomingBinsAreHonoured) {
  pods_ = {Pod("p1", 1500, kGi), Pod("p2", 1500, kGi)};
  BinPlacement placement(nodes_, pods_);
  placement.bins()[0].accepts_pods = false;  // cordoned
  const NodeTemplate shape{Res(2000, 8 * kGi), {}, {}, {}};
  EXPECT_EQ(placement.AddBin(BinFromTemplate(shape, shape.allocatable)), 2u);
  const BinPlacement::PendingResult result =
      placement.PlacePending(PendingPods(pods_));
  EXPECT_TRUE(result.left.empty());
  EXPECT_TRUE(placement.bins()[0].pods.empty());
  EXPECT_EQ(NamesOn(placement.bins()[1]), std::vector<std::string>{"p1"});
  EXPECT_EQ(NamesOn(placement.bins()[2]), std::vector<std::string>{"p2"});
}

// A pod of a class that skipped a bin is not kept from it once spreading
// matters: placing its siblings elsewhere can open it.
TEST_F(BinPlacementTest, SpreadingPodsLookAtEveryBinAgain) {
  nodes_[0].labels[kZone] = "z1";
  nodes_[1].labels[kZone] = "z2";
  for (const char* name : {"s1", "s2", "s3"}) {
    PodState pod = Pod(name, 100, kMi);
    pod.labels = {{"app", "web"}};
    pod.spread = {{1, kZone, *LabelSelector::Parse("app=web"), 0}};
    pods_.push_back(pod);
  }
  BinPlacement placement(nodes_, pods_);
  ASSERT_TRUE(placement.use_topology());
  EXPECT_TRUE(placement.PlacePending(PendingPods(pods_)).left.empty());
  EXPECT_EQ(NamesOn(placement.bins()[0]),
            (std::vector<std::string>{"s1", "s3"}));
  EXPECT_EQ(NamesOn(placement.bins()[1]), std::vector<std::string>{"s2"});
}

TEST_F(BinPlacementTest, NextFitStartsFromTheLastBinAndSkipsUnusableOnes) {
  nodes_.push_back(Node("c", "g", 2000, 8 * kGi));
  const PodState pod = Pod("p", 500, kMi);
  pods_ = {pod};
  BinPlacement placement(nodes_, pods_);
  const auto not_a = [](size_t bin) { return bin != 0; };
  EXPECT_EQ(placement.NextFit(pod, not_a), 1u);
  placement.bins()[1].accepts_pods = false;
  EXPECT_EQ(placement.NextFit(pod), 2u);
  placement.bins()[2].accepts_pods = false;
  EXPECT_EQ(placement.NextFit(pod), 0u);  // wrapped round
  EXPECT_EQ(placement.NextFit(pod, not_a), std::nullopt);
  placement.bins()[2].accepts_pods = true;
  placement.RestartNextFit();
  EXPECT_EQ(placement.NextFit(pod, not_a), 2u);
}

}  // namespace
}  // namespace propscaler::nodescale
