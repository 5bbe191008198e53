// Giving up a group's capacity that did not become Ready in time, pure.
#include "nodescale/plan/capacity_give_up.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

kube::NodeState Node(const std::string& name, bool ready) {
  kube::NodeState node;
  node.name = name;
  node.ready = ready;
  return node;
}

// Target 5: two Ready nodes, one registered but not Ready, two requested
// that never registered. The unready one goes, the target drops by the two
// that never came, and the group counts its two Ready nodes.
TEST(CapacityGiveUpTest, DeletesTheUnreadyAndForgetsTheNeverRegistered) {
  nodescale::NodeGroup group;
  group.name = "g";
  group.target_size = 5;
  const kube::NodeState a = Node("a", true), b = Node("b", true),
                        c = Node("c", false);
  const CapacityGiveUp give_up = PlanCapacityGiveUp(group, {&a, &b, &c});
  ASSERT_EQ(give_up.unready.size(), 1u);
  EXPECT_EQ(give_up.unready[0]->name, "c");
  EXPECT_EQ(give_up.target_decrease, 2);
  EXPECT_EQ(give_up.new_target, 2);
}

// Every requested node registered (none Ready): nothing is taken off the
// target by a decrease; the deletes bring it down.
TEST(CapacityGiveUpTest, NoDecreaseWhenEveryNodeRegistered) {
  nodescale::NodeGroup group;
  group.target_size = 2;
  const kube::NodeState a = Node("a", false), b = Node("b", false);
  const CapacityGiveUp give_up = PlanCapacityGiveUp(group, {&a, &b});
  EXPECT_EQ(give_up.unready.size(), 2u);
  EXPECT_EQ(give_up.target_decrease, 0);
  EXPECT_EQ(give_up.new_target, 0);
}

}  // namespace
}  // namespace propscaler::nodescale
