// End-to-end: node-scale mode with the Cluster API provider against the
// simulated API server's MachineDeployments, MachineSets and Machines.
#include <gtest/gtest.h>

#include <regex>

#include "e2e/node_scale_fixture.h"
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::seconds;

constexpr char kCapi[] = "/apis/cluster.x-k8s.io/v1beta1/namespaces/default/";
constexpr char kDeleteMachine[] = "cluster.x-k8s.io/delete-machine";

int64_t SpecReplicas(const std::optional<std::string>& json) {
  std::smatch match;
  static const std::regex kReplicas(R"("spec":\{[^}]*"replicas":(\d+))");
  if (!json || !std::regex_search(*json, match, kReplicas)) return -1;
  return std::stoll(match[1]);
}

// A MachineDeployment or MachineSet with CA's size and capacity annotations.
std::string GroupObject(const std::string& kind, const std::string& name,
                        int min, int replicas, const std::string& cpu,
                        const std::string& owner_kind = "") {
  const std::string owner =
      owner_kind.empty()
          ? ""
          : R"("ownerReferences":[{"apiVersion":"cluster.x-k8s.io/v1beta1",)"
            R"("kind":")" +
                owner_kind + R"(","name":"workers","uid":"u"}],)";
  return R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":")" + kind +
         R"(","metadata":{"name":")" + name + R"(",)" + owner +
         R"("annotations":{)"
         R"("cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size":")" +
         std::to_string(min) +
         R"(","cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size":"5",)"
         R"("capacity.cluster-autoscaler.kubernetes.io/cpu":")" +
         cpu +
         R"(","capacity.cluster-autoscaler.kubernetes.io/memory":"16Gi"}},)"
         R"("spec":{"replicas":)" +
         std::to_string(replicas) + "}}";
}

int CountRequests(const sim::RequestCounts& counts, const std::string& method,
                  const std::string& path) {
  auto it = counts.by_request.find(method + " " + path);
  return it == counts.by_request.end() ? 0 : static_cast<int>(it->second);
}

// How a Node names its Machine: Cluster API's annotations, or only the
// providerID both carry.
enum class Link { kAnnotations, kProviderId };

class NodeScaleClusterApiTest : public NodeScaleTest {
 protected:
  void Create(const std::string& resource, const std::string& json) {
    Status status = server_.CreateObject(kCapi + resource, json);
    ASSERT_TRUE(status.ok()) << status.message();
  }
  // A Machine of MachineDeployment `deployment` and its Ready Node.
  void CreateMachineWithNode(const std::string& machine,
                             const std::string& deployment,
                             const std::string& node,
                             Link link = Link::kAnnotations) {
    const std::string provider_id = "aws:///us-east-1a/i-" + node;
    Create("machines",
           R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":"Machine",)"
           R"("metadata":{"name":")" +
               machine + R"(","labels":{"cluster.x-k8s.io/deployment-name":")" +
               deployment + R"("}},"spec":{"providerID":")" + provider_id +
               R"("}})");
    CreateNode(node, "");
    const std::string patch =
        link == Link::kAnnotations
            ? R"({"metadata":{"annotations":{"cluster.x-k8s.io/machine":")" +
                  machine +
                  R"(","cluster.x-k8s.io/cluster-namespace":"default"}}})"
            : R"({"spec":{"providerID":")" + provider_id + R"("}})";
    Status status = server_.PatchNode(node, patch);
    ASSERT_TRUE(status.ok()) << status.message();
  }
  bool Marked(const std::string& machine) const {
    return server_.GetObject(kCapi + std::string("machines/") + machine)
               .value_or("")
               .find(kDeleteMachine) != std::string::npos;
  }
  int64_t Replicas(const std::string& path) const {
    return SpecReplicas(server_.GetObject(kCapi + path));
  }
  // Two Ready nodes of MachineDeployment workers (min 1): n-1 busy, n-2
  // empty and so unneeded.
  void TwoNodeDeployment(Link link = Link::kAnnotations) {
    Create("machinedeployments",
           GroupObject("MachineDeployment", "workers", 1, 2, "4"));
    CreateMachineWithNode("m-1", "workers", "n-1", link);
    CreateMachineWithNode("m-2", "workers", "n-2", link);
    CreatePod("web-0", "3", "n-1");
  }
  std::unique_ptr<Process> StartScaleDown(
      const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"--cloud-provider=clusterapi",
                                     "--scale-down-unneeded-time=1s",
                                     "--scale-down-delay-after-add=0s",
                                     "--scale-down-delay-after-failure=30s"};
    args.insert(args.end(), extra.begin(), extra.end());
    return Start(args);
  }
};

TEST_F(NodeScaleTest, MachineDeploymentGrowsThroughScale) {
  ASSERT_TRUE(
      server_
          .CreateObject(std::string(kCapi) + "machinedeployments",
                        GroupObject("MachineDeployment", "workers", 0, 0, "4"))
          .ok());
  CreatePod("web-0", "3");
  CreatePod("web-1", "3");
  auto propscaler =
      Start({"--cloud-provider=clusterapi", "--scale-down-enabled=false"});
  const std::string path = std::string(kCapi) + "machinedeployments/workers";
  ASSERT_TRUE(WaitUntil(
      [&] { return SpecReplicas(server_.GetObject(path)) == 2; }, seconds(15)))
      << propscaler->Report() << *server_.GetObject(path);
  EXPECT_EQ(CountRequests(server_.Requests(), "PUT", path + "/scale"), 1)
      << server_.Requests().ToJson();
  // The requested machines count as upcoming, so there is no second
  // increase: shown in virtual time (NodeScaleScenarioTest.
  // MachineDeploymentGrowsOnceThroughScale).
}

TEST_F(NodeScaleClusterApiTest, LoneMachineSetGrowsThroughItsScale) {
  Create("machinesets", GroupObject("MachineSet", "batch", 0, 0, "4"));
  // A MachineSet its MachineDeployment manages is not a group, whatever its
  // annotations: the 12-core pod fits only there and triggers nothing.
  Create("machinesets", GroupObject("MachineSet", "workers-abc", 0, 0, "16",
                                    "MachineDeployment"));
  CreatePod("web-0", "3");
  CreatePod("big-0", "12");
  auto propscaler =
      Start({"--cloud-provider=clusterapi", "--scale-down-enabled=false"});
  ASSERT_TRUE(WaitUntil([&] { return Replicas("machinesets/batch") == 1; },
                        seconds(15)))
      << propscaler->Report();
  ASSERT_TRUE(WaitUntil(
      [&] { return CountEvents("default", "NotTriggerScaleUp") >= 1; },
      seconds(10)))
      << propscaler->Report();
  EXPECT_EQ(Replicas("machinesets/workers-abc"), 0);
  EXPECT_EQ(CountRequests(server_.Requests(), "PUT",
                          std::string(kCapi) + "machinesets/batch/scale"),
            1);
}

// Two clusters, as most Cluster API users run the autoscaler: the
// MachineDeployment lives in the management cluster (--cloud-config, its own
// server, token and TLS), the pending pod in the workload cluster
// (--kubeconfig). Each server sees only its own half of the traffic.
TEST_F(NodeScaleClusterApiTest, ManagementClusterHoldsTheMachines) {
  sim::FakeApiServer management;
  sim::FakeApiServerOptions options;
  options.bearer_token = "management-token";
  ASSERT_TRUE(management.Start(options).ok());
  ASSERT_TRUE(
      management
          .CreateObject(std::string(kCapi) + "machinedeployments",
                        GroupObject("MachineDeployment", "workers", 0, 0, "4"))
          .ok());
  CreatePod("web-0", "3");
  const std::string cloud_config = dir_.Write(
      "management", KubeconfigYaml(management.url(), "management-token"));
  auto propscaler =
      Start({"--cloud-provider=clusterapi", "--scale-down-enabled=false",
             "--cloud-config=" + cloud_config});
  const std::string path = std::string(kCapi) + "machinedeployments/workers";
  ASSERT_TRUE(
      WaitUntil([&] { return SpecReplicas(management.GetObject(path)) == 1; },
                seconds(15)))
      << propscaler->Report();
  auto touched = [](const sim::RequestCounts& counts, const std::string& part) {
    std::string found;
    for (const auto& [request, n] : counts.by_request) {
      if (request.find(part) != std::string::npos) found += " " + request;
    }
    return found;
  };
  EXPECT_EQ(touched(server_.Requests(), "cluster.x-k8s.io"), "");
  EXPECT_EQ(touched(management.Requests(), "/pods"), "");
  EXPECT_EQ(touched(management.Requests(), "/nodes"), "");
  EXPECT_NE(propscaler->Output().find("Cluster API management cluster: " +
                                      management.url()),
            std::string::npos)
      << propscaler->Output();
}

// Authoritative without --cloud-config means the in-cluster config, which a
// process outside a cluster does not have: a usage error that says so.
TEST_F(NodeScaleClusterApiTest, AuthoritativeOutsideAClusterIsAUsageError) {
  auto propscaler = Start({"--cloud-provider=clusterapi",
                           "--clusterapi-cloud-config-authoritative"});
  EXPECT_EQ(propscaler->WaitForExit(seconds(10)), 2) << propscaler->Report();
  EXPECT_NE(
      propscaler->Output().find("--clusterapi-cloud-config-authoritative"),
      std::string::npos)
      << propscaler->Output();
}

// --node-group-auto-discovery given twice, as Cluster Autoscaler's flag is:
// the specs are ORed, so the group the first admits grows although the
// second (the one gflags alone would keep) admits nothing.
TEST_F(NodeScaleClusterApiTest, RepeatedAutoDiscoverySpecsAreOred) {
  Create("machinesets", GroupObject("MachineSet", "batch", 0, 0, "4"));
  CreatePod("web-0", "3");
  auto propscaler =
      Start({"--cloud-provider=clusterapi", "--scale-down-enabled=false",
             "--node-group-auto-discovery=clusterapi:namespace=default",
             "--node-group-auto-discovery=clusterapi:namespace=elsewhere"});
  ASSERT_TRUE(WaitUntil([&] { return Replicas("machinesets/batch") == 1; },
                        seconds(15)))
      << propscaler->Report();
}

// A bad spec is a usage error that names it.
TEST_F(NodeScaleClusterApiTest, BadAutoDiscoverySpecIsAUsageError) {
  auto propscaler = Start(
      {"--cloud-provider=clusterapi", "--node-group-auto-discovery=asg:tag=x"});
  EXPECT_EQ(propscaler->WaitForExit(seconds(10)), 2) << propscaler->Report();
  EXPECT_NE(propscaler->Output().find("unsupported discoverer \"asg\""),
            std::string::npos)
      << propscaler->Output();
}

// Nodes name their Machines by annotations, or only by providerID.
class NodeScaleClusterApiLinkTest : public NodeScaleClusterApiTest,
                                    public ::testing::WithParamInterface<Link> {
};

TEST_P(NodeScaleClusterApiLinkTest,
       ScaleDownMarksTheMachineThenLowersReplicasOnce) {
  TwoNodeDeployment(GetParam());
  auto propscaler = StartScaleDown();
  ASSERT_TRUE(WaitUntil(
      [&] {
        return Marked("m-2") && Replicas("machinedeployments/workers") == 1;
      },
      seconds(15)))
      << propscaler->Report();
  EXPECT_FALSE(Marked("m-1"));
  // The node stays registered until Cluster API removes its machine; that
  // it is not removed (nor replicas lowered) again meanwhile is shown in
  // virtual time (NodeScaleScenarioTest.
  // MachineOfAnUnneededNodeIsMarkedThenReplicasLoweredOnce).
  const sim::RequestCounts counts = server_.Requests();
  EXPECT_EQ(
      CountRequests(counts, "PUT",
                    std::string(kCapi) + "machinedeployments/workers/scale"),
      1)
      << counts.ToJson();
  EXPECT_EQ(CountRequests(counts, "PATCH", std::string(kCapi) + "machines/m-2"),
            1);
  EXPECT_EQ(CountRequests(counts, "PATCH", std::string(kCapi) + "machines/m-1"),
            0);
  EXPECT_TRUE(NodeHasTaint("n-2", "ToBeDeletedByClusterAutoscaler"));
}

INSTANTIATE_TEST_SUITE_P(Links, NodeScaleClusterApiLinkTest,
                         ::testing::Values(Link::kAnnotations,
                                           Link::kProviderId),
                         [](const ::testing::TestParamInfo<Link>& info) {
                           return info.param == Link::kAnnotations
                                      ? std::string("Annotations")
                                      : std::string("ProviderId");
                         });

TEST_F(NodeScaleClusterApiTest, ScaleDownFailingMachinePatchKeepsReplicas) {
  TwoNodeDeployment();
  sim::FaultRule fault;
  fault.method = "PATCH";
  fault.path_prefix = std::string(kCapi) + "machines/m-2";
  fault.code = 500;
  fault.count = -1;
  server_.AddFault(fault);
  auto propscaler = StartScaleDown();
  ASSERT_TRUE(
      WaitUntil([&] { return CountEvents("default", "ScaleDownFailed") >= 1; },
                seconds(15)))
      << propscaler->Report();
  ASSERT_TRUE(WaitUntil(
      [&] { return !NodeHasTaint("n-2", "ToBeDeletedByClusterAutoscaler"); },
      seconds(5)))
      << propscaler->Report();
  EXPECT_FALSE(Marked("m-2"));
  EXPECT_EQ(Replicas("machinedeployments/workers"), 2);
  EXPECT_EQ(
      CountRequests(server_.Requests(), "PUT",
                    std::string(kCapi) + "machinedeployments/workers/scale"),
      0);
}

}  // namespace
}  // namespace propscaler::e2e
