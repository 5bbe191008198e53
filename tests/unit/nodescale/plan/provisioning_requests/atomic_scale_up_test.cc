#include "nodescale/plan/provisioning_requests/atomic_scale_up.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

using std::chrono::minutes;

const TimePoint kAsked = TimePoint() + std::chrono::hours(1000);

AtomicScaleUp TwoPartScaleUp() {
  return {
      "uid-1", "default/req", {{"a", 2, {"a-old"}}, {"b", 1, {}}}, kAsked, ""};
}

NodeGroup Group(const std::string& name, int64_t target) {
  NodeGroup group;
  group.name = name;
  group.max_size = 10;
  group.target_size = target;
  return group;
}

TEST(AtomicScaleUpTest, DoneWhenEveryNewNodeIsReady) {
  const std::vector<AtomicNode> nodes = {{"a-old", "a", true},
                                         {"a-1", "a", true},
                                         {"a-2", "a", true},
                                         {"b-1", "b", true}};
  const AtomicProgress progress =
      ProgressOf(TwoPartScaleUp(), nodes, {Group("a", 3), Group("b", 1)},
                 minutes(15), kAsked + minutes(1));
  EXPECT_EQ(progress.state, AtomicProgress::State::kDone);
  EXPECT_EQ(progress.asked, 3);
  EXPECT_EQ(progress.ready, 3);
}

TEST(AtomicScaleUpTest, InFlightUntilTheProvisionTimeThenGivenBack) {
  const std::vector<AtomicNode> nodes = {
      {"a-old", "a", true}, {"a-1", "a", true}, {"a-2", "a", false}};
  const std::vector<NodeGroup> groups = {Group("a", 3), Group("b", 1)};
  AtomicProgress progress = ProgressOf(TwoPartScaleUp(), nodes, groups,
                                       minutes(15), kAsked + minutes(14));
  EXPECT_EQ(progress.state, AtomicProgress::State::kInFlight);
  EXPECT_EQ(progress.ready, 1);
  EXPECT_EQ(progress.deadline, kAsked + minutes(15));

  progress = ProgressOf(TwoPartScaleUp(), nodes, groups, minutes(15),
                        kAsked + minutes(15));
  EXPECT_EQ(progress.state, AtomicProgress::State::kGiveBack);
  // The new nodes that came, not the one there before.
  ASSERT_EQ(progress.came.size(), 2u);
  EXPECT_EQ(progress.came[0].node, "a-1");
  EXPECT_EQ(progress.came[1].node, "a-2");
  EXPECT_EQ(GiveBackReason(TwoPartScaleUp(), progress),
            "only 1 of its 3 new nodes were Ready within 900s "
            "(--max-node-provision-time); the 2 nodes that came are given "
            "back");
}

TEST(AtomicScaleUpTest, AGroupsOwnLongerProvisionTimeHolds) {
  std::vector<NodeGroup> groups = {Group("a", 3), Group("b", 1)};
  groups[1].options.max_node_provision_time = minutes(30);
  const AtomicProgress progress = ProgressOf(TwoPartScaleUp(), {}, groups,
                                             minutes(15), kAsked + minutes(20));
  EXPECT_EQ(progress.state, AtomicProgress::State::kInFlight);
  EXPECT_EQ(progress.provision_time, minutes(30));
}

TEST(AtomicScaleUpTest, ARefusedScaleUpIsGivenBackAtOnce) {
  AtomicScaleUp scale_up = TwoPartScaleUp();
  scale_up.refused = "node group b: at its maximum";
  const AtomicProgress progress = ProgressOf(
      scale_up, {{"a-1", "a", false}}, {Group("a", 3)}, minutes(15), kAsked);
  EXPECT_EQ(progress.state, AtomicProgress::State::kGiveBack);
  EXPECT_EQ(GiveBackReason(scale_up, progress),
            "the provider refused the scale-up (node group b: at its "
            "maximum); the 1 nodes that came are given back");
}

TEST(AtomicScaleUpTest, OnlyTheNodesThatNeverRegisteredLeaveTheTarget) {
  const AtomicScaleUp scale_up = TwoPartScaleUp();
  const std::vector<AtomicNode> nodes = {{"a-old", "a", true},
                                         {"a-1", "a", false}};
  // Asked 2, 1 came: 1 never registered.
  EXPECT_EQ(UnregisteredOf(scale_up.parts[0], Group("a", 3), nodes), 1);
  // Never more than the target is above the registered nodes.
  EXPECT_EQ(UnregisteredOf(scale_up.parts[0], Group("a", 2), nodes), 0);
  EXPECT_EQ(UnregisteredOf(scale_up.parts[1], Group("b", 1), nodes), 1);
}

}  // namespace
}  // namespace propscaler::nodescale
