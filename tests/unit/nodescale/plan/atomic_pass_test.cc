// The all-or-nothing scale-ups in flight, advanced (plan/atomic_pass.h):
// done once every new node is Ready, in flight (a /status line) until the
// provision time is up, then given back: the nodes that never registered
// off the target, the ones that came to the drain, the request told.
#include "nodescale/plan/atomic_pass.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT
using std::chrono::minutes;

class AtomicPassTest : public ::testing::Test {
 protected:
  AtomicPassTest() {
    request_.namespace_ = "batch";
    request_.name = "job";
    request_.uid = "uid-job";
    requests_.push_back(request_);
  }

  static LiveNode Live(const std::string& name, bool ready) {
    LiveNode node;
    node.state = Node(name, "g", 4000, 16 * kGi);
    node.state.ready = ready;
    return node;
  }

  // Asked for two more nodes of "g" (which had "a") at t0.
  AtomicScaleUp Asked() const {
    return {request_.uid, request_.Key(), {{"g", 2, {"a"}}}, t0_, ""};
  }

  AtomicAdvance Advance(const std::vector<LiveNode>& live, TimePoint now) {
    nodes_ = SharedNodes(live);
    readiness_.clear();
    for (const LiveNode& node : live) {
      readiness_.push_back(node.state.ready ? Readiness::kReady
                                            : Readiness::kNotStarted);
    }
    return AdvanceAtomicScaleUps(
        {Asked()}, {&nodes_, &group_of_, &readiness_, &groups_, &requests_,
                    minutes(15), now});
  }

  kube::ProvisioningRequest request_;
  std::vector<kube::ProvisioningRequest> requests_;
  std::vector<NodeGroup> groups_{Group("g", 0, 10, 3, 4000, 16 * kGi)};
  GroupOfNode group_of_ = [](const NodeState&) { return std::string("g"); };
  SharedNodes nodes_;
  std::vector<Readiness> readiness_;
  const TimePoint t0_ = std::chrono::system_clock::from_time_t(1'800'000'000);
};

TEST_F(AtomicPassTest, EveryNewNodeReadyIsDone) {
  const AtomicAdvance advance = Advance(
      {Live("a", true), Live("b", true), Live("c", true)}, t0_ + minutes(3));
  EXPECT_EQ(advance.done,
            std::vector<std::string>{
                "batch/job: all 2 nodes of its scale-up are Ready"});
  EXPECT_TRUE(advance.in_flight.empty());
  EXPECT_TRUE(advance.give_backs.empty());
}

TEST_F(AtomicPassTest, SomeNotReadyStaysInFlightUntilTheProvisionTime) {
  const AtomicAdvance advance =
      Advance({Live("a", true), Live("b", true)}, t0_ + minutes(3));
  ASSERT_EQ(advance.in_flight.size(), 1u);
  ASSERT_EQ(advance.lines.size(), 1u);
  EXPECT_EQ(advance.lines[0].rfind("batch/job: all-or-nothing scale-up in "
                                   "flight, 1 of 2 new nodes Ready",
                                   0),
            0u)
      << advance.lines[0];
  EXPECT_TRUE(advance.give_backs.empty());
}

TEST_F(AtomicPassTest, PastTheProvisionTimeItIsGivenBack) {
  const AtomicAdvance advance =
      Advance({Live("a", true), Live("b", true)}, t0_ + minutes(16));
  EXPECT_TRUE(advance.in_flight.empty());
  ASSERT_EQ(advance.give_backs.size(), 1u);
  const AtomicGiveBack& give_back = advance.give_backs[0];
  EXPECT_EQ(give_back.request, "batch/job");
  ASSERT_EQ(give_back.decreases.size(), 1u);
  const auto* decrease = std::get_if<DecreaseTarget>(&give_back.decreases[0]);
  ASSERT_NE(decrease, nullptr);
  EXPECT_EQ(decrease->group, "g");
  EXPECT_EQ(decrease->delta, 1) << "one never registered";
  ASSERT_EQ(give_back.came.size(), 1u);
  EXPECT_EQ(give_back.came[0].node, "b");
  ASSERT_TRUE(give_back.listed.has_value());
  EXPECT_EQ(give_back.listed->uid, "uid-job");
  EXPECT_FALSE(give_back.conditions.empty());
  EXPECT_FALSE(give_back.reason.empty());
}

TEST_F(AtomicPassTest, ARequestNoLongerListedIsGivenBackUntold) {
  requests_.clear();
  const AtomicAdvance advance =
      Advance({Live("a", true), Live("b", true)}, t0_ + minutes(16));
  ASSERT_EQ(advance.give_backs.size(), 1u);
  EXPECT_FALSE(advance.give_backs[0].listed.has_value());
  EXPECT_TRUE(advance.give_backs[0].conditions.empty());
}

}  // namespace
}  // namespace propscaler::nodescale
