// The real binary against the simulated cluster: replicas follow nodes and
// params, as the server's objects show.
#include <signal.h>

#include <string>
#include <tuple>
#include <vector>

#include "apiserver/store_objects.h"
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class ReplicaScalingTest : public ReplicaClusterTest {
 protected:
  void SetUp() override { StartServerWithPerNodeParams(); }
};

TEST_F(ReplicaScalingTest, FollowsNodesAddedCordonedNotReadyAndDeleted) {
  auto propscaler = Start({"--healthz-port=0"});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();

  // Within a second of the watch event, not at the 10s poll.
  AddNodes(1);
  ASSERT_TRUE(WaitForReplicas(5, seconds(2))) << propscaler->Report();

  ASSERT_TRUE(
      server_.PatchNode("node-0", R"({"spec":{"unschedulable":true}})").ok());
  ASSERT_TRUE(WaitForReplicas(4, seconds(2))) << propscaler->Report();

  ASSERT_TRUE(
      server_.UpdateNode(NodeJson("node-1", "4", /*ready=*/false)).ok());
  ASSERT_TRUE(WaitForReplicas(3, seconds(2))) << propscaler->Report();

  ASSERT_TRUE(server_.DeleteNode("node-2").ok());
  ASSERT_TRUE(WaitForReplicas(2, seconds(2))) << propscaler->Report();
  EXPECT_NE(propscaler->Output().find("scaling deployment/coredns from 3 to 2"),
            std::string::npos)
      << propscaler->Report();
}

TEST_F(ReplicaScalingTest, ExcludedTaintMakesANodeNotSchedulable) {
  auto propscaler =
      Start({"--healthz-port=0",
             "--exclude-node-taints=node.kubernetes.io/unreachable"});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  EXPECT_NE(propscaler->Output().find("nodes tainted "
                                      "node.kubernetes.io/unreachable count as "
                                      "not schedulable"),
            std::string::npos)
      << propscaler->Report();

  ASSERT_TRUE(server_
                  .PatchNode("node-0", R"({"spec":{"taints":[
                    {"key":"node.kubernetes.io/unreachable",
                     "effect":"NoExecute"}]}})")
                  .ok());
  ASSERT_TRUE(WaitForReplicas(3, seconds(2))) << propscaler->Report();

  ASSERT_TRUE(server_.PatchNode("node-0", R"({"spec":{"taints":null}})").ok());
  ASSERT_TRUE(WaitForReplicas(4, seconds(2))) << propscaler->Report();
}

TEST_F(ReplicaScalingTest, EditedConfigMapTakesEffectWithoutRestart) {
  auto propscaler = Start({"--healthz-port=0"});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  ASSERT_TRUE(
      server_
          .PutConfigMap(kNamespace, kConfigMap,
                        {{"ladder", R"({"nodesToReplicas":[[1,1],[4,7]]})"}})
          .ok());
  ASSERT_TRUE(WaitForReplicas(7, seconds(2))) << propscaler->Report();
}

// A pod labelled `app` in namespace `ns`, in `phase`.
std::string LabelledPodJson(const std::string& ns, const std::string& name,
                            const std::string& app, const std::string& phase) {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"namespace":")" + ns +
         R"(","name":")" + name + R"(","labels":{"app":")" + app +
         R"("}},"spec":{"containers":[{"name":"c","image":"web"}]},)"
         R"("status":{"phase":")" +
         phase + R"("}})";
}

// podsPerReplica counts the Running and Pending pods --pod-selector names
// (not another app's, not finished ones), and follows them within a
// second as they come, finish and go.
TEST_F(ReplicaScalingTest, PodsPerReplicaFollowsTheMatchingPods) {
  ASSERT_TRUE(server_
                  .PutConfigMap(kNamespace, kConfigMap,
                                {{"linear", R"({"podsPerReplica":2})"}})
                  .ok());
  const std::string pods = "/api/v1/namespaces/shop/pods";
  for (const auto& [name, app, phase] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"web-0", "web", "Running"},
           {"web-1", "web", "Running"},
           {"web-2", "web", "Pending"},
           {"web-3", "web", "Succeeded"},
           {"db-0", "db", "Running"}}) {
    ASSERT_TRUE(
        server_.CreateObject(pods, LabelledPodJson("shop", name, app, phase))
            .ok());
  }
  auto propscaler = Start({"--healthz-port=0", "--pod-selector=app=web"});
  ASSERT_TRUE(WaitForReplicas(2)) << propscaler->Report();  // ceil(3 / 2)

  for (const char* name : {"web-4", "web-5"}) {
    ASSERT_TRUE(
        server_
            .CreateObject(pods, LabelledPodJson("shop", name, "web", "Pending"))
            .ok());
  }
  ASSERT_TRUE(WaitForReplicas(3, seconds(2))) << propscaler->Report();  // 5
  for (const char* name : {"web-0", "web-1"}) {
    ASSERT_TRUE(sim::PatchObject(server_.store(), pods + "/" + name,
                                 R"({"status":{"phase":"Succeeded"}})")
                    .ok());
  }
  ASSERT_TRUE(WaitForReplicas(2, seconds(2))) << propscaler->Report();  // 3
  EXPECT_NE(propscaler->Output().find(", pods 3"), std::string::npos)
      << propscaler->Report();
}

// Params that count pods without --pod-selector to count them: the
// replicas stay as they are, and the log says what to set.
TEST_F(ReplicaScalingTest, PodParamsWithoutPodSelectorLeaveTheReplicas) {
  const int port = FreePort();
  auto propscaler = Start({"--healthz-port=" + std::to_string(port)});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  ASSERT_TRUE(server_
                  .PutConfigMap(kNamespace, kConfigMap,
                                {{"linear", R"({"podsPerReplica":2})"}})
                  .ok());
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto response = HealthGet(port, "/last-poll");
        return response && response->status == 500 &&
               response->body.find("which needs --pod-selector") !=
                   std::string::npos;
      },
      seconds(3)))
      << propscaler->Report();
  EXPECT_TRUE(WaitForReplicas(4, seconds(1))) << propscaler->Report();
}

TEST_F(ReplicaScalingTest, ManualScaleIsUndoneAtTheNextCycle) {
  auto propscaler = Start({"--healthz-port=0", "--poll-period-seconds=1"});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  ASSERT_TRUE(server_.SetReplicas("deployment", kNamespace, "coredns", 9).ok());
  ASSERT_TRUE(WaitForReplicas(4, seconds(3))) << propscaler->Report();
}

TEST_F(ReplicaScalingTest, InvalidParamsKeepTheLastValidOnes) {
  const int port = FreePort();
  auto propscaler = Start({"--healthz-port=" + std::to_string(port)});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  ASSERT_TRUE(server_
                  .PutConfigMap(kNamespace, kConfigMap,
                                {{"linear", R"({"nodesPerReplica":-2})"}})
                  .ok());
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto response = HealthGet(port, "/last-poll");
        return response && response->status == 500 &&
               response->body.find("nodesPerReplica") != std::string::npos;
      },
      seconds(3)))
      << propscaler->Report();
  // The last valid params (one replica per node) still apply.
  AddNodes(1);
  ASSERT_TRUE(WaitForReplicas(5, seconds(2))) << propscaler->Report();
  EXPECT_NE(propscaler->Output().find("keeping the last valid params"),
            std::string::npos);

  ASSERT_TRUE(server_
                  .PutConfigMap(kNamespace, kConfigMap,
                                {{"linear", R"({"nodesPerReplica":5})"}})
                  .ok());
  ASSERT_TRUE(WaitForReplicas(1, seconds(2))) << propscaler->Report();
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto response = HealthGet(port, "/last-poll");
        return response && response->status == 200;
      },
      seconds(3)));
}

TEST_F(ReplicaScalingTest, NothingIsScaledWithoutValidParams) {
  ASSERT_TRUE(server_
                  .PutConfigMap(
                      kNamespace, kConfigMap,
                      {{"linear", R"({"min":3,"max":2,"nodesPerReplica":1})"}})
                  .ok());
  std::string output;
  EXPECT_EQ(RunOnce({}, &output), 1);
  EXPECT_EQ(Replicas(), 1);
  EXPECT_NE(output.find("max"), std::string::npos) << output;
}

TEST_F(ReplicaScalingTest, HealthEndpoints) {
  const int port = FreePort();
  auto propscaler = Start({"--healthz-port=" + std::to_string(port)});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto healthz = HealthGet(port, "/healthz");
        auto last_poll = HealthGet(port, "/last-poll");
        return healthz && healthz->status == 200 && last_poll &&
               last_poll->status == 200;
      },
      seconds(3)))
      << propscaler->Report();
}

TEST_F(ReplicaScalingTest, SigtermExitsZeroWithinTwoSeconds) {
  auto propscaler = Start({"--healthz-port=0"});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  const auto start = std::chrono::steady_clock::now();
  propscaler->Signal(SIGTERM);
  std::optional<int> code = propscaler->WaitForExit(seconds(3));
  ASSERT_TRUE(code.has_value()) << "still running 3s after SIGTERM";
  EXPECT_EQ(*code, 0);
  EXPECT_LT(std::chrono::steady_clock::now() - start, seconds(2));
}

TEST_F(ReplicaScalingTest, AMissingTargetDoesNotStopTheOthers) {
  ASSERT_TRUE(server_.CreateWorkload("statefulset", kNamespace, "sts", 1).ok());
  ASSERT_TRUE(server_.CreateWorkload("replicaset", kNamespace, "rs", 1).ok());
  ASSERT_TRUE(
      server_.CreateWorkload("replicationcontroller", kNamespace, "rc", 1)
          .ok());
  const int port = FreePort();
  auto propscaler =
      Start({"--healthz-port=" + std::to_string(port),
             "--target=deployment/missing,StatefulSets/sts,replicaset/rs,"
             "ReplicationController/rc,deployment/coredns"});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  EXPECT_TRUE(WaitForReplicas(4, seconds(2), "statefulset", "sts"));
  EXPECT_TRUE(WaitForReplicas(4, seconds(2), "replicaset", "rs"));
  EXPECT_TRUE(WaitForReplicas(4, seconds(2), "replicationcontroller", "rc"));
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto response = HealthGet(port, "/last-poll");
        return response && response->status == 500 &&
               response->body.find("deployment/missing") != std::string::npos;
      },
      seconds(3)))
      << propscaler->Report();
}

TEST_F(ReplicaScalingTest, MaxSyncFailuresExitsOne) {
  auto propscaler =
      Start({"--healthz-port=0", "--poll-period-seconds=1",
             "--max-sync-failures=2", "--target=deployment/missing"});
  std::optional<int> code = propscaler->WaitForExit(seconds(10));
  ASSERT_TRUE(code.has_value()) << propscaler->Report();
  EXPECT_EQ(*code, 1);
  EXPECT_NE(propscaler->Output().find("--max-sync-failures"),
            std::string::npos);
}

TEST_F(ReplicaScalingTest, NodeLabelsSelectWhichNodesCount) {
  ASSERT_TRUE(
      server_.CreateNode(NodeJson("gpu-0", "8", true, false, {{"pool", "gpu"}}))
          .ok());
  ASSERT_TRUE(
      server_.CreateNode(NodeJson("gpu-1", "8", true, false, {{"pool", "gpu"}}))
          .ok());
  EXPECT_EQ(RunOnce({"--nodelabels=pool=gpu"}), 0);
  EXPECT_EQ(Replicas(), 2);
  EXPECT_EQ(RunOnce({"--nodelabels=pool!=gpu"}), 0);
  EXPECT_EQ(Replicas(), 4);
  EXPECT_EQ(RunOnce({"--nodelabels=pool notin (gpu),kubernetes.io/hostname in "
                     "(node-0,node-1,gpu-0)"}),
            0);
  EXPECT_EQ(Replicas(), 2);
  EXPECT_EQ(RunOnce({"--nodelabels=!pool"}), 0);
  EXPECT_EQ(Replicas(), 4);
}

// A Deployment labelled `k8s_app` (none when empty), one replica.
std::string LabelledDeploymentJson(const std::string& name,
                                   const std::string& k8s_app) {
  const std::string labels =
      k8s_app.empty() ? "{}" : R"({"k8s-app":")" + k8s_app + R"("})";
  return R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":")" +
         name + R"(","labels":)" + labels +
         R"(},"spec":{"replicas":1,"selector":{"matchLabels":{"app":")" + name +
         R"("}},"template":{"metadata":{"labels":{"app":")" + name +
         R"("}},"spec":{"containers":[{"name":"c","image":"i"}]}}}})";
}

// --target-selector beside --target: the matching Deployments are scaled
// as they appear (within a second), and --once scales the ones there.
TEST_F(ReplicaScalingTest, TargetSelectorScalesEveryMatchingDeployment) {
  const std::string deployments =
      std::string("/apis/apps/v1/namespaces/") + kNamespace + "/deployments";
  ASSERT_TRUE(server_
                  .CreateObject(deployments,
                                LabelledDeploymentJson("dns-a", "kube-dns"))
                  .ok());
  ASSERT_TRUE(
      server_.CreateObject(deployments, LabelledDeploymentJson("web", "web"))
          .ok());
  std::string output;
  EXPECT_EQ(RunOnce({"--target-selector=deployment:k8s-app=kube-dns"}, &output),
            0)
      << output;
  EXPECT_EQ(Replicas("deployment", "dns-a"), 4) << output;
  EXPECT_EQ(Replicas(), 4) << output;
  EXPECT_EQ(Replicas("deployment", "web"), 1) << output;

  auto propscaler = Start(
      {"--healthz-port=0", "--target-selector=deployment:k8s-app=kube-dns"});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  ASSERT_TRUE(server_
                  .CreateObject(deployments,
                                LabelledDeploymentJson("dns-b", "kube-dns"))
                  .ok());
  ASSERT_TRUE(WaitForReplicas(4, seconds(2), "deployment", "dns-b"))
      << propscaler->Report();
  AddNodes(1);
  for (const char* name : {"coredns", "dns-a", "dns-b"}) {
    ASSERT_TRUE(WaitForReplicas(5, seconds(2), "deployment", name))
        << propscaler->Report();
  }
  EXPECT_EQ(Replicas("deployment", "web"), 1);
  EXPECT_NE(propscaler->Output().find(
                "scaling deployment/dns-b in namespace kube-system (--target "
                "or --target-selector=deployment:k8s-app=kube-dns)"),
            std::string::npos)
      << propscaler->Report();
}

}  // namespace
}  // namespace propscaler::e2e
