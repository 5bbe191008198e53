// The reflector against the in-memory cluster in virtual time.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "kube/controllers/reflector.h"
#include "memcluster/scenario_test.h"

namespace propscaler {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class ReflectorScenarioTest : public memcluster::ScenarioTest {};

// After its watch failed, the reflector's copy is stale until a watch is
// accepted again; from then it is current, events or not. On a quiet
// collection the first event may be the bookmark a minute later (10 s in
// the simulated store): the error must not last until then.
TEST_F(ReflectorScenarioTest, ErrorClearsWhenTheWatchIsAcceptedAgain) {
  sim::NodeShape shape;
  shape.name = "node-0";
  ASSERT_TRUE(cluster_.AddNode(shape).ok());
  std::atomic<int> listed{0};
  kube::Reflector<kube::NodeInfo> nodes(
      cluster_.client().CountedNodes("", TaintFilter(),
                                     kube::CountedCpu::kAllocatable),
      {[&](std::vector<kube::NodeInfo> all) { listed = all.size(); },
       [](const kube::NodeInfo&) {}, [](const kube::NodeInfo&) {}},
      "nodes");
  std::thread thread = clock_.StartThread([&] { nodes.Run(&stop_); });
  clock_.SleepFor(seconds(1));
  ASSERT_EQ(listed, 1);
  ASSERT_TRUE(nodes.LastError().ok());

  cluster_.SetFault([](std::string_view call) {
    return call == "watch nodes" ? Status::Unavailable("watch: injected")
                                 : Status::Ok();
  });
  cluster_.store().DropWatches();
  clock_.SleepFor(seconds(30));
  EXPECT_FALSE(nodes.LastError().ok());

  cluster_.SetFault(nullptr);
  const int64_t watches = Calls("watch nodes");
  // Step until the next attempt (the backoff is at most 10 s).
  for (int i = 0; i < 1100 && Calls("watch nodes") == watches; ++i) {
    clock_.SleepFor(milliseconds(10));
  }
  ASSERT_GT(Calls("watch nodes"), watches);
  clock_.SleepFor(milliseconds(10));
  EXPECT_TRUE(nodes.LastError().ok()) << nodes.LastError().message();
  stop_.Stop();
  thread.join();
}

}  // namespace
}  // namespace propscaler
