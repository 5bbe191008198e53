// Giving up a group's capacity that did not become Ready in time, pure.
#include "nodescale/plan/health/capacity_give_up.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

kube::NodeState Node(const std::string& name, bool ready) {
  kube::NodeState node;
  node.name = name;
  node.ready = ready;
  return node;
}

// Target 6: two Ready nodes, one registered but still starting, one
// Unready (not Ready for long: it arrived, and stays), two requested that
// never registered. The starting one goes, the target drops by the two that
// never came, and the group counts its three nodes that arrived.
TEST(CapacityGiveUpTest, DeletesTheStartingAndForgetsTheNeverRegistered) {
  nodescale::NodeGroup group;
  group.name = "g";
  group.target_size = 6;
  const kube::NodeState a = Node("a", true), b = Node("b", true),
                        c = Node("c", false), d = Node("d", false);
  const CapacityGiveUp give_up =
      PlanCapacityGiveUp(group, {{&a, Readiness::kReady},
                                 {&b, Readiness::kReady},
                                 {&c, Readiness::kNotStarted},
                                 {&d, Readiness::kUnready}});
  ASSERT_EQ(give_up.not_started.size(), 1u);
  EXPECT_EQ(give_up.not_started[0]->name, "c");
  EXPECT_EQ(give_up.target_decrease, 2);
  EXPECT_EQ(give_up.new_target, 3);
}

// Every requested node registered (none Ready): nothing is taken off the
// target by a decrease; the deletes bring it down.
TEST(CapacityGiveUpTest, NoDecreaseWhenEveryNodeRegistered) {
  nodescale::NodeGroup group;
  group.target_size = 2;
  const kube::NodeState a = Node("a", false), b = Node("b", false);
  const CapacityGiveUp give_up = PlanCapacityGiveUp(
      group, {{&a, Readiness::kNotStarted}, {&b, Readiness::kNotStarted}});
  EXPECT_EQ(give_up.not_started.size(), 2u);
  EXPECT_EQ(give_up.target_decrease, 0);
  EXPECT_EQ(give_up.new_target, 0);
}

// Min size 4 of target 6: two may go, the never-registered replicas first.
TEST(CapacityGiveUpTest, NeverBelowTheMinimumSize) {
  nodescale::NodeGroup group;
  group.target_size = 6;
  group.min_size = 4;
  const kube::NodeState a = Node("a", true), b = Node("b", true),
                        c = Node("c", false), d = Node("d", false);
  CapacityGiveUp give_up =
      PlanCapacityGiveUp(group, {{&a, Readiness::kReady},
                                 {&b, Readiness::kReady},
                                 {&c, Readiness::kNotStarted},
                                 {&d, Readiness::kNotStarted}});
  EXPECT_EQ(give_up.target_decrease, 2);
  EXPECT_TRUE(give_up.not_started.empty());
  EXPECT_EQ(give_up.new_target, 4);

  group.min_size = 3;
  give_up = PlanCapacityGiveUp(group, {{&a, Readiness::kReady},
                                       {&b, Readiness::kReady},
                                       {&c, Readiness::kNotStarted},
                                       {&d, Readiness::kNotStarted}});
  EXPECT_EQ(give_up.target_decrease, 2);
  ASSERT_EQ(give_up.not_started.size(), 1u);
  EXPECT_EQ(give_up.new_target, 3);
}

// --force-delete-unregistered-nodes: the replicas that never registered go
// even below the minimum; the registered ones still starting stay.
TEST(CapacityGiveUpTest, ForcedUnregisteredGoBelowTheMinimum) {
  nodescale::NodeGroup group;
  group.target_size = 4;
  group.min_size = 4;
  const kube::NodeState a = Node("a", true), b = Node("b", false);
  const CapacityGiveUp give_up = PlanCapacityGiveUp(
      group, {{&a, Readiness::kReady}, {&b, Readiness::kNotStarted}},
      /*force_delete_unregistered=*/true);
  EXPECT_EQ(give_up.target_decrease, 2);
  EXPECT_TRUE(give_up.not_started.empty());
  EXPECT_EQ(give_up.new_target, 2);
  EXPECT_EQ(PlanCapacityGiveUp(
                group, {{&a, Readiness::kReady}, {&b, Readiness::kNotStarted}})
                .target_decrease,
            0);
}

TEST(CapacityGiveUpTest, AGroupsOwnProvisionTimeOverridesTheFlag) {
  NodeGroup group;
  EXPECT_EQ(ProvisionTimeOf(group, std::chrono::minutes(15)),
            std::chrono::minutes(15));
  group.options.max_node_provision_time = std::chrono::minutes(3);
  EXPECT_EQ(ProvisionTimeOf(group, std::chrono::minutes(15)),
            std::chrono::minutes(3));
}

}  // namespace
}  // namespace propscaler::nodescale
