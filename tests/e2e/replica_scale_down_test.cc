// The params' scaleDown policy with the real binary: a scale-down is held for
// the stabilization window, then taken in steps of at most maxStepPercent
// per period; a scale-up applies at once.
#include <chrono>
#include <string>
#include <vector>

#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr char kSmoothedParams[] =
    R"({"nodesPerReplica":1,"scaleDown":{"stabilizationSeconds":2,)"
    R"("maxStepPercent":50,"periodSeconds":1}})";

class ReplicaScaleDownTest : public ReplicaClusterTest {
 protected:
  void SetUp() override {
    StartServer();
    ASSERT_TRUE(
        server_
            .PutConfigMap(kNamespace, kConfigMap, {{"linear", kSmoothedParams}})
            .ok());
  }
};

TEST_F(ReplicaScaleDownTest, HoldsThenStepsDownAndScalesUpAtOnce) {
  auto propscaler = Start({"--healthz-port=0", "--poll-period-seconds=1"});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  AddNodes(4);
  ASSERT_TRUE(WaitForReplicas(8, seconds(2))) << propscaler->Report();

  const auto deleted = std::chrono::steady_clock::now();
  for (int i = 7; i >= 2; --i) {
    ASSERT_TRUE(server_.DeleteNode("node-" + std::to_string(i)).ok());
  }
  ASSERT_TRUE(WaitUntil(
      [&] {
        return propscaler->Output().find(
                   "holding 8 (the highest in the last 2s) instead of 2") !=
               std::string::npos;
      },
      seconds(3)))
      << propscaler->Report();
  EXPECT_EQ(Replicas(), 8);

  // Down in steps of at most half, the first once the last 8 computed has
  // left the 2s window (it was computed at most a poll period before).
  std::vector<int64_t> seen = {8};
  std::chrono::steady_clock::duration first_step{};
  ASSERT_TRUE(WaitUntil(
      [&] {
        const int64_t replicas = Replicas();
        if (replicas != seen.back()) {
          if (seen.size() == 1) {
            first_step = std::chrono::steady_clock::now() - deleted;
          }
          seen.push_back(replicas);
        }
        return replicas == 2;
      },
      seconds(10)))
      << propscaler->Report();
  EXPECT_GE(first_step, milliseconds(900));
  ASSERT_GE(seen.size(), 3u) << "2 is more than one step of 50% from 8";
  for (size_t i = 1; i < seen.size(); ++i) {
    EXPECT_LT(seen[i], seen[i - 1]);
    EXPECT_GE(seen[i], seen[i - 1] / 2) << "step " << i;
  }
  EXPECT_NE(propscaler->Output().find("stepping down to"), std::string::npos)
      << propscaler->Report();

  AddNodes(6);
  EXPECT_TRUE(WaitForReplicas(8, seconds(2))) << propscaler->Report();
}

}  // namespace
}  // namespace propscaler::e2e
