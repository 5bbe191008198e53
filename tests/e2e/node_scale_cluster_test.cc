// End-to-end: node-scale mode with two replicas under leader election.
#include <gtest/gtest.h>
#include <signal.h>

#include "e2e/node_scale_fixture.h"
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::seconds;

int CountLines(const std::string& text, const std::string& needle) {
  int count = 0;
  for (size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

TEST_F(NodeScaleTest, TwoReplicasWithLeaderElectionNeverBothAct) {
  PutGroups({GroupJson("small", 0, 20, "4", "8Gi")});
  for (int i = 0; i < 4; ++i) CreatePod("web-" + std::to_string(i), "3");
  const std::vector<std::string> election = {
      "--leader-elect=true", "--leader-elect-lease-duration=2s",
      "--leader-elect-renew-deadline=1s", "--leader-elect-retry-period=200ms",
      "--scale-down-enabled=false"};
  auto first = Start(election);
  auto second = Start(election);
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("small-").size() == 4; },
                        seconds(15)))
      << first->Report() << second->Report();
  // That the follower never acts while the leader renews is shown in
  // virtual time (NodeScaleScenarioTest.
  // TwoInstancesUnderLeaderElectionNeverBothAct).
  const int acquired = CountLines(first->Output(), "acquired lease") +
                       CountLines(second->Output(), "acquired lease");
  EXPECT_EQ(acquired, 1) << first->Report() << second->Report();
  // The leader goes away: the other takes over and acts.
  Process* leader = CountLines(first->Output(), "acquired lease") == 1
                        ? first.get()
                        : second.get();
  Process* follower = leader == first.get() ? second.get() : first.get();
  leader->Signal(SIGKILL);
  leader->WaitForExit(seconds(5));
  CreatePod("web-late", "3");
  ASSERT_TRUE(WaitUntil([&] { return NodesWithPrefix("small-").size() == 5; },
                        seconds(15)))
      << follower->Report();
  EXPECT_EQ(CountLines(follower->Output(), "acquired lease"), 1);
}

}  // namespace
}  // namespace propscaler::e2e
