// Node-scale mode on the real kube-apiserver with the kwok provider (Node
// objects created and deleted), under exactly deploy/node-scale/kwok's RBAC.
// The test plays the scheduler: pods are marked Unschedulable through
// /status and bound through the pods/binding subresource.
#include <chrono>
#include <csignal>

#include "envtest/real_server_fixture.h"

namespace propscaler::envtest {
namespace {

using e2e::CountOf;
using std::chrono::seconds;

const std::vector<std::string> kKwokRbac = {
    "deploy/node-scale/base/role.yaml",
    "deploy/node-scale/base/clusterrole.yaml",
    "deploy/node-scale/kwok/clusterrole.yaml"};
constexpr char kGroupSelector[] = "propscaler.io/node-group=small";

class NodeScaleRealServerTest : public RealServerTest {
 protected:
  void SetUp() override {
    RealServerTest::SetUp();
    ASSERT_TRUE(CreateServiceAccount(cluster(), ns(), "default").ok());
    GrantRbac("propscaler-node-scale", kKwokRbac);
    Status groups = PutConfigMap(
        cluster(), ns(), "node-groups", "node-groups.json",
        R"({"nodeGroups":[{"name":"small","minSize":0,"maxSize":5,)"
        R"("template":{"allocatable":{"cpu":"4","memory":"16Gi","pods":"110"},)"
        R"("labels":{},"taints":[]}}]})");
    ASSERT_TRUE(groups.ok()) << groups.message();
  }

  std::vector<std::string> Args(std::vector<std::string> extra) {
    std::vector<std::string> args = {"--mode=node-scale",
                                     "--cloud-provider=kwok",
                                     "--node-group-config=node-groups",
                                     "--scan-interval=300ms",
                                     "--scale-down-unneeded-time=2s",
                                     "--scale-down-delay-after-add=0s"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  std::vector<std::string> GroupNodes() {
    Result<std::vector<std::string>> names =
        NodeNames(cluster(), kGroupSelector);
    return names.ok() ? *names : std::vector<std::string>{};
  }

  ::testing::AssertionResult WaitForGroupNodes(size_t want,
                                               const e2e::Process& propscaler,
                                               seconds timeout = seconds(30)) {
    if (e2e::WaitUntil([&] { return GroupNodes().size() == want; }, timeout)) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << "group small did not reach " << want << " nodes; it has "
           << GroupNodes().size() << "\npropscaler's log:\n"
           << propscaler.Output();
  }

  // Binds each pod to a node of the group, two 3-cpu pods never sharing
  // a 4-cpu node.
  void BindPods(const std::vector<std::string>& pods) {
    const std::vector<std::string> nodes = GroupNodes();
    ASSERT_GE(nodes.size(), pods.size());
    for (size_t i = 0; i < pods.size(); ++i) {
      Status bound = BindPod(cluster(), ns(), pods[i], nodes[i]);
      ASSERT_TRUE(bound.ok()) << bound.message();
    }
  }
};

TEST_F(NodeScaleRealServerTest, ScalesUpForPendingPodsAndDownWhenEmpty) {
  for (const char* pod : {"web-1", "web-2"}) {
    Status created = CreatePendingPod(cluster(), ns(), pod, "3");
    ASSERT_TRUE(created.ok()) << created.message();
  }
  auto propscaler = StartWithToken(Args({"--leader-elect=false"}));
  ASSERT_TRUE(WaitForGroupNodes(2, *propscaler));
  BindPods({"web-1", "web-2"});
  ASSERT_TRUE(DeletePod(cluster(), ns(), "web-1").ok());
  ASSERT_TRUE(DeletePod(cluster(), ns(), "web-2").ok());
  // Empty after the unneeded time: tainted and deleted.
  ASSERT_TRUE(WaitForGroupNodes(0, *propscaler));
  const std::string log = propscaler->Output();
  EXPECT_EQ(CountOf(log, "forbidden"), 0) << log;
  EXPECT_EQ(CountOf(log, "kwok: created node"), 2) << log;
  // Events on Nodes are accepted by the real server (namespace default).
  EXPECT_EQ(CountOf(log, "posting event"), 0) << log;
  Result<std::string> events =
      AdminCall(cluster(), "GET", "/api/v1/namespaces/default/events");
  ASSERT_TRUE(events.ok()) << events.status().message();
  EXPECT_NE(events->find("\"ScaleDown\""), std::string::npos) << *events;
  EXPECT_TRUE(propscaler->Running()) << log;
}

// Two instances, one real Lease: only the holder scales; when it dies the
// other takes the Lease and carries on.
TEST_F(NodeScaleRealServerTest, LeaderElectionOnARealLease) {
  const std::vector<std::string> election = {
      "--leader-elect=true", "--leader-elect-lease-duration=3s",
      "--leader-elect-renew-deadline=2s", "--leader-elect-retry-period=500ms"};
  auto first = StartWithToken(Args(election));
  auto second = StartWithToken(Args(election));
  std::string holder;
  ASSERT_TRUE(e2e::WaitUntil(
      [&] {
        Result<std::string> read = LeaseHolder(cluster(), ns(), "propscaler");
        holder = read.ok() ? *read : "";
        return !holder.empty();
      },
      seconds(30)))
      << first->Output() << second->Output();

  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-1", "3").ok());
  ASSERT_TRUE(WaitForGroupNodes(1, *first));
  BindPods({"web-1"});
  // Each instance logs its identity at start.
  auto& leader = first->Output().find("identity " + holder) != std::string::npos
                     ? first
                     : second;
  auto& follower = leader == first ? second : first;
  leader->Signal(SIGKILL);
  ASSERT_TRUE(e2e::WaitUntil(
      [&] {
        Result<std::string> read = LeaseHolder(cluster(), ns(), "propscaler");
        return read.ok() && !read->empty() && *read != holder;
      },
      seconds(30)))
      << follower->Output();
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-2", "3").ok());
  ASSERT_TRUE(WaitForGroupNodes(2, *follower));
  EXPECT_EQ(
      CountOf(leader->Output() + follower->Output(), "kwok: created node"), 2)
      << leader->Output() << follower->Output();
}

}  // namespace
}  // namespace propscaler::envtest
