// What Karpenter's disruption keeps of each node between iterations
// (plan/disruption_life.h): the last pod event (a node's creation, then
// each change of its pods but DaemonSets'), whether it was ever Ready, and
// the plan's input made from it: each snapshot node's life and the Unready
// nodes that were Ready once.
#include "nodescale/plan/disruption_life.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "nodescale/domain/node_marks.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT
using std::chrono::minutes;

class DisruptionLifeTest : public ::testing::Test {
 protected:
  static LiveNode Live(const std::string& name, bool ready, TimePoint created) {
    return testing_util::Live(name, "g", ready, created);
  }
  static LivePod OnNode(const std::string& name, const std::string& node) {
    LivePod pod;
    pod.state = BoundPod(name, node, 100, kGi);
    pod.uid = "uid-" + name;
    return pod;
  }

  DisruptionMemory memory_;
  const TimePoint t0_ = std::chrono::system_clock::from_time_t(1'800'000'000);
};

TEST_F(DisruptionLifeTest, APodEventIsAChangeOfTheNodesPodsButDaemonSets) {
  const SharedNodes nodes(
      std::vector<LiveNode>{Live("a", true, t0_ - minutes(30))});
  NotePodEvents(nodes, SharedPods(std::vector<LivePod>{OnNode("web", "a")}),
                t0_, &memory_);
  // First seen: its creation.
  EXPECT_EQ(memory_.pod_events.at("a").last_change, t0_ - minutes(30));
  EXPECT_TRUE(memory_.seen_ready.contains("a"));

  // The same pods, and a DaemonSet's arriving: no event.
  LivePod daemon;
  daemon.state = DaemonSetPod("agent", "a", 10, kGi);
  daemon.uid = "uid-agent";
  NotePodEvents(nodes,
                SharedPods(std::vector<LivePod>{OnNode("web", "a"), daemon}),
                t0_ + minutes(5), &memory_);
  EXPECT_EQ(memory_.pod_events.at("a").last_change, t0_ - minutes(30));

  // A pod leaving: an event now.
  NotePodEvents(nodes, SharedPods(std::vector<LivePod>{daemon}),
                t0_ + minutes(10), &memory_);
  EXPECT_EQ(memory_.pod_events.at("a").last_change, t0_ + minutes(10));

  // The node gone: forgotten, Ready once included.
  NotePodEvents(SharedNodes(), SharedPods(), t0_ + minutes(15), &memory_);
  EXPECT_TRUE(memory_.pod_events.empty());
  EXPECT_TRUE(memory_.seen_ready.empty());
}

TEST_F(DisruptionLifeTest, TheInputHasEachSnapshotNodesLife) {
  std::vector<LiveNode> live = {Live("a", true, t0_ - minutes(60)),
                                Live("b", true, t0_ - minutes(40)),
                                Live("c", true, t0_ - minutes(20)),
                                Live("gone-unready", false, t0_ - minutes(90))};
  live[2].state.taints.push_back(
      {std::string(kToBeDeletedTaint), "", TaintEffect::kNoSchedule});
  const SharedNodes nodes(live);
  memory_.seen_ready = {"a", "c", "gone-unready"};  // b never was Ready
  memory_.pod_events["a"] = {1, t0_ - minutes(7)};
  ClusterSnapshot snapshot;
  snapshot.nodes = {live[0].state, live[1].state, live[2].state};
  std::vector<NodeGroup> groups = {Group("g", 0, 10, 4, 4000, 16 * kGi)};
  const GroupOfNode group_of = [](const NodeState&) {
    return std::string("g");
  };
  const PriorityConfig priorities;
  GroupBackoff backoff(minutes(5), minutes(30));
  backoff.Fail("g", t0_, {"timeout", "not Ready in time"});
  DisruptionObservation observed{&snapshot, &nodes,      &group_of, &groups,
                                 {},        &priorities, {"b"}};
  observed.now = t0_;

  const DisruptionInput input = DisruptionInputOf(observed, memory_, backoff);
  ASSERT_EQ(input.life.size(), 3u);
  EXPECT_EQ(input.life[0].created, t0_ - minutes(60));
  EXPECT_EQ(input.life[0].last_pod_event, t0_ - minutes(7));
  EXPECT_FALSE(input.life[0].deleting);
  EXPECT_TRUE(input.life[0].initialized);
  EXPECT_TRUE(input.life[1].deleting);  // being removed
  EXPECT_FALSE(input.life[1].initialized);
  EXPECT_TRUE(input.life[2].deleting);  // ToBeDeleted
  // Unready after being Ready, and out of the snapshot.
  EXPECT_EQ(input.not_ready_nodes.at("g"), 1);
  EXPECT_TRUE(input.backed_off_groups.contains("g"));
  EXPECT_EQ(input.now, t0_);
}

}  // namespace
}  // namespace propscaler::nodescale
