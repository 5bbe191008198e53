// Node-scale mode with the Cluster API provider on the real kube-apiserver:
// minimal Cluster API CRDs (tests/envtest/crds/cluster-api.yaml, the scale
// subresource as Cluster API declares it), exactly the RBAC of
// deploy/node-scale/clusterapi, and no Cluster API controllers: the test
// checks what propscaler asks of them (replicas, delete-machine marks).
#include <chrono>
#include <map>
#include <string>
#include <thread>

#include "common/files.h"
#include "envtest/real_server_fixture.h"

namespace propscaler::envtest {
namespace {

using e2e::CountOf;
using std::chrono::seconds;

const std::vector<std::string> kClusterApiRbac = {
    "deploy/node-scale/base/role.yaml",
    "deploy/node-scale/base/clusterrole.yaml",
    "deploy/node-scale/clusterapi/clusterrole.yaml"};
constexpr char kDeleteMachine[] = "cluster.x-k8s.io/delete-machine";

class ClusterApiRealServerTest : public RealServerTest {
 protected:
  static void SetUpTestSuite() {
    Result<std::string> crds = ReadFile(std::string(PROPSCALER_SOURCE_DIR) +
                                        "/tests/envtest/crds/cluster-api.yaml");
    ASSERT_TRUE(crds.ok()) << crds.status().message();
    Status created = CreateCustomResourceDefinitions(*SharedCluster(), *crds);
    ASSERT_TRUE(created.ok()) << created.message();
  }

  void SetUp() override {
    RealServerTest::SetUp();
    ASSERT_TRUE(CreateServiceAccount(cluster(), ns(), "default").ok());
    GrantRbac("propscaler-node-scale", kClusterApiRbac);
  }

  // Node groups are every namespace's: another test's MachineDeployments
  // would be groups too (and an expander's choice) if left behind.
  void TearDown() override {
    for (const char* resource :
         {"machinedeployments", "machinesets", "machines", "machinepools"}) {
      Result<std::string> deleted =
          AdminCall(cluster(), "DELETE", Path(resource));
      EXPECT_TRUE(deleted.ok()) << deleted.status().message();
    }
    RealServerTest::TearDown();
  }

  std::string Path(const std::string& resource, const std::string& name = "",
                   const std::string& version = "v1beta1") {
    return "/apis/cluster.x-k8s.io/" + version + "/namespaces/" + ns() + "/" +
           resource + (name.empty() ? "" : "/" + name);
  }

  void Create(const std::string& resource, const std::string& json,
              const std::string& version = "v1beta1") {
    Result<std::string> created =
        AdminCall(cluster(), "POST", Path(resource, "", version), json);
    ASSERT_TRUE(created.ok()) << created.status().message();
  }

  // A Ready Node that names `machine` in Cluster API's annotations.
  void AddNodeOfMachine(const std::string& machine, int node_index) {
    AddNodes(node_index, 1);
    Result<std::string> patched = AdminCall(
        cluster(), "PATCH", "/api/v1/nodes/" + NodeName(node_index),
        R"({"metadata":{"annotations":{"cluster.x-k8s.io/machine":")" +
            machine + R"(","cluster.x-k8s.io/cluster-namespace":")" + ns() +
            R"("}}})",
        "application/merge-patch+json");
    ASSERT_TRUE(patched.ok()) << patched.status().message();
  }

  // A MachineDeployment with CA's size and capacity annotations.
  void CreateMachineDeployment(int min, int replicas, int max = 5) {
    Create(
        "machinedeployments",
        R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":"MachineDeployment",)"
        R"("metadata":{"name":"workers","annotations":{)"
        R"("cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size":")" +
            std::to_string(min) +
            R"(","cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size":")" +
            std::to_string(max) +
            R"(",)"
            R"("capacity.cluster-autoscaler.kubernetes.io/cpu":"4",)"
            R"("capacity.cluster-autoscaler.kubernetes.io/memory":"16Gi"}},)"
            R"("spec":{"clusterName":"c","replicas":)" +
            std::to_string(replicas) + "}}");
  }

  // A Machine of the MachineDeployment and its Ready Node, which names the
  // Machine in Cluster API's annotations.
  void CreateMachineWithNode(const std::string& machine, int node_index) {
    const std::string node = NodeName(node_index);
    Create("machines",
           R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":"Machine",)"
           R"("metadata":{"name":")" +
               machine +
               R"(","labels":{"cluster.x-k8s.io/deployment-name":"workers"}},)"
               R"("spec":{"clusterName":"c","providerID":"aws:///z/i-)" +
               node + R"("}})");
    AddNodeOfMachine(machine, node_index);
  }

  // A MachinePool whose instances are nodes `nodes` (their providerIDs in
  // spec.providerIDList), with CA's size and capacity annotations.
  void CreateMachinePool(int replicas, const std::vector<int>& nodes) {
    std::string ids;
    for (int index : nodes) {
      ids += (ids.empty() ? "\"" : ",\"") + ProviderId(index) + "\"";
      AddNodes(index, 1);
      Result<std::string> patched =
          AdminCall(cluster(), "PATCH", "/api/v1/nodes/" + NodeName(index),
                    R"({"spec":{"providerID":")" + ProviderId(index) + R"("}})",
                    "application/merge-patch+json");
      ASSERT_TRUE(patched.ok()) << patched.status().message();
    }
    Create(
        "machinepools",
        R"({"apiVersion":"cluster.x-k8s.io/v1beta2","kind":"MachinePool",)"
        R"("metadata":{"name":"pool","annotations":{)"
        R"("cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size":"5",)"
        R"("capacity.cluster-autoscaler.kubernetes.io/cpu":"4",)"
        R"("capacity.cluster-autoscaler.kubernetes.io/memory":"16Gi"}},)"
        R"("spec":{"clusterName":"c","replicas":)" +
            std::to_string(replicas) + R"(,"providerIDList":[)" + ids + "]}}",
        "v1beta2");
  }
  std::string ProviderId(int index) { return "aws:///z/i-" + NodeName(index); }

  int64_t Replicas(const std::string& group = "machinedeployments/workers") {
    Result<std::string> scale =
        AdminCall(cluster(), "GET",
                  Path(group.substr(0, group.find('/')),
                       group.substr(group.find('/') + 1)) +
                      "/scale");
    if (!scale.ok()) return -1;
    const size_t spec = scale->find("\"spec\"");
    const size_t at = scale->find("\"replicas\":", spec);
    if (spec == std::string::npos || at == std::string::npos) return 0;
    return std::strtoll(scale->c_str() + at + 11, nullptr, 10);
  }

  bool Marked(const std::string& machine) {
    Result<std::string> json =
        AdminCall(cluster(), "GET", Path("machines", machine));
    return json.ok() && json->find(kDeleteMachine) != std::string::npos;
  }

  std::unique_ptr<e2e::Process> Start(std::vector<std::string> extra) {
    std::vector<std::string> args = {"--mode=node-scale",
                                     "--cloud-provider=clusterapi",
                                     "--scan-interval=300ms",
                                     "--leader-elect=false",
                                     "--scale-down-unneeded-time=1s",
                                     "--scale-down-delay-after-add=0s"};
    args.insert(args.end(), extra.begin(), extra.end());
    return StartWithToken(args);
  }
};

// From zero: the template comes from the capacity annotations, and the
// MachineDeployment's replicas are raised through its scale subresource.
TEST_F(ClusterApiRealServerTest, ScalesFromZeroByCapacityAnnotations) {
  CreateMachineDeployment(0, 0);
  for (const char* pod : {"web-1", "web-2"}) {
    Status created = CreatePendingPod(cluster(), ns(), pod, "3");
    ASSERT_TRUE(created.ok()) << created.message();
  }
  auto propscaler = Start({"--scale-down-enabled=false"});
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == 2; }, seconds(30)))
      << "replicas " << Replicas() << "\n"
      << propscaler->Output();
  EXPECT_EQ(CountOf(propscaler->Output(), "is forbidden: User"), 0)
      << propscaler->Output();
}

// A MachineDeployment whose machines' template declares a CNI's startup
// taint (spec.template.spec.taints, read for scale from zero): the taint is
// left out of the template, as Cluster Autoscaler sanitizes provider
// templates, so a pod that does not tolerate it gets its scale-up; a taint
// that is not a startup taint still refuses it.
TEST_F(ClusterApiRealServerTest, AStartupTaintOnTheMachinesTemplateIsOffered) {
  auto deployment = [&](const std::string& name, const std::string& taint) {
    Create(
        "machinedeployments",
        R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":"MachineDeployment",)"
        R"("metadata":{"name":")" +
            name +
            R"(","annotations":{)"
            R"("cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size":"0",)"
            R"("cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size":"5",)"
            R"("capacity.cluster-autoscaler.kubernetes.io/cpu":"4",)"
            R"("capacity.cluster-autoscaler.kubernetes.io/memory":"16Gi"}},)"
            R"("spec":{"clusterName":"c","replicas":0,"template":{"spec":{)"
            R"("clusterName":"c","taints":[{"key":")" +
            taint + R"(","effect":"NoSchedule"}]}}}})");
  };
  deployment("workers",
             "startup-taint.cluster-autoscaler.kubernetes.io/cni-not-ready");
  deployment("dedicated", "dedicated.example.com/batch");
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-0", "3").ok());
  auto propscaler = Start({"--scale-down-enabled=false"});
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == 1; }, seconds(30)))
      << "replicas " << Replicas() << "\n"
      << propscaler->Output();
  EXPECT_EQ(Replicas("machinedeployments/dedicated"), 0);
  EXPECT_EQ(CountOf(propscaler->Output(), "is forbidden: User"), 0)
      << propscaler->Output();
}

// Two nodes, one busy: the empty one's Machine is marked for deletion and
// the MachineDeployment lowered by one.
TEST_F(ClusterApiRealServerTest, ScalesDownTheChosenMachine) {
  CreateMachineDeployment(1, 2);
  CreateMachineWithNode("m-0", 0);
  CreateMachineWithNode("m-1", 1);
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-0", "3").ok());
  ASSERT_TRUE(BindPod(cluster(), ns(), "web-0", NodeName(0)).ok());
  auto propscaler = Start({});
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == 1; }, seconds(30)))
      << "replicas " << Replicas() << "\n"
      << propscaler->Output();
  EXPECT_TRUE(Marked("m-1"));
  EXPECT_FALSE(Marked("m-0"));
  EXPECT_EQ(CountOf(propscaler->Output(), "is forbidden: User"), 0)
      << propscaler->Output();
}

// Cluster API's objects are watched: 30 seconds of loops every 300 ms (100
// loops, 10 minutes' worth at the default --scan-interval) send no list of
// any kind, per the audit log. The group at its max of 1 while two
// pods wait; when someone raises the max to 5, the second node is asked for
// within a second.
TEST_F(ClusterApiRealServerTest, AtRestSendsNoListAndFollowsAnEditInASecond) {
  CreateMachineDeployment(0, 0, /*max=*/1);
  for (const char* pod : {"web-1", "web-2"}) {
    Status created = CreatePendingPod(cluster(), ns(), pod, "3");
    ASSERT_TRUE(created.ok()) << created.message();
  }
  auto propscaler = Start({"--scale-down-enabled=false"});
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == 1; }, seconds(30)))
      << "replicas " << Replicas() << "\n"
      << propscaler->Output();
  std::this_thread::sleep_for(seconds(2));
  const std::map<std::string, int> before = Requests(std::nullopt);
  std::this_thread::sleep_for(seconds(30));
  const std::map<std::string, int> after = Requests(std::nullopt);
  std::string lists;
  for (const auto& [request, count] : after) {
    auto found = before.find(request);
    const int sent = count - (found == before.end() ? 0 : found->second);
    if (request.starts_with("list ") && sent > 0) {
      lists += " " + request + " x" + std::to_string(sent);
    }
  }
  EXPECT_EQ(lists, "") << propscaler->Output();

  const auto edited = std::chrono::steady_clock::now();
  Result<std::string> patched = AdminCall(
      cluster(), "PATCH", Path("machinedeployments", "workers"),
      R"({"metadata":{"annotations":{)"
      R"("cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size":"5"}}})",
      "application/merge-patch+json");
  ASSERT_TRUE(patched.ok()) << patched.status().message();
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == 2; }, seconds(10)))
      << "replicas " << Replicas() << "\n"
      << propscaler->Output();
  EXPECT_LT(std::chrono::steady_clock::now() - edited, seconds(1));
  EXPECT_EQ(CountOf(propscaler->Output(), "is forbidden: User"), 0)
      << propscaler->Output();
}

// Cluster API as 1.11 and later serve it: v1beta2 stored and preferred,
// v1beta1 deprecated. propscaler asks discovery, as Cluster Autoscaler does,
// and works in v1beta2: objects in its layout (an infrastructureRef with
// apiGroup, a nodeRef with only a name, no deployment-name or set-name
// labels: a Machine's group comes from its owners), the MachineDeployment
// named as CA names it, the chosen Machine marked and the group lowered.
TEST_F(ClusterApiRealServerTest, DiscoversV1beta2AndWorksInItsLayout) {
  const std::string v2 = "v1beta2";
  Create(
      "machinedeployments",
      R"({"apiVersion":"cluster.x-k8s.io/v1beta2","kind":"MachineDeployment",)"
      R"("metadata":{"name":"workers","annotations":{)"
      R"("cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size":"5"}},)"
      R"("spec":{"clusterName":"c","replicas":2,"template":{"spec":{)"
      R"("clusterName":"c","infrastructureRef":{"apiGroup":)"
      R"("infrastructure.cluster.x-k8s.io","kind":"DockerMachineTemplate",)"
      R"("name":"workers"}}}}})",
      v2);
  Create(
      "machinesets",
      R"({"apiVersion":"cluster.x-k8s.io/v1beta2","kind":"MachineSet",)"
      R"("metadata":{"name":"workers-abc","ownerReferences":[{)"
      R"("apiVersion":"cluster.x-k8s.io/v1beta2","kind":"MachineDeployment",)"
      R"("name":"workers","uid":"00000000-0000-0000-0000-000000000001"}]},)"
      R"("spec":{"clusterName":"c","replicas":2}})",
      v2);
  for (int i = 0; i < 2; ++i) {
    const std::string machine = "m-" + std::to_string(i);
    Create(
        "machines",
        R"({"apiVersion":"cluster.x-k8s.io/v1beta2","kind":"Machine",)"
        R"("metadata":{"name":")" +
            machine +
            R"(","ownerReferences":[{"apiVersion":"cluster.x-k8s.io/v1beta2",)"
            R"("kind":"MachineSet","name":"workers-abc",)"
            R"("uid":"00000000-0000-0000-0000-000000000002"}]},)"
            R"("spec":{"clusterName":"c","providerID":"aws:///z/i-)" +
            NodeName(i) + R"("}})",
        v2);
    AddNodeOfMachine(machine, i);
  }
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-0", "3").ok());
  ASSERT_TRUE(BindPod(cluster(), ns(), "web-0", NodeName(0)).ok());
  auto propscaler = Start({});
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == 1; }, seconds(30)))
      << "replicas " << Replicas() << "\n"
      << propscaler->Output();
  EXPECT_TRUE(Marked("m-1"));
  EXPECT_FALSE(Marked("m-0"));
  const std::string out = propscaler->Output();
  EXPECT_EQ(CountOf(out, "read and written as cluster.x-k8s.io/v1beta2"), 1)
      << out;
  EXPECT_GE(CountOf(out, "MachineDeployment/" + ns() + "/workers"), 1) << out;
  EXPECT_EQ(CountOf(out, "is forbidden: User"), 0) << out;
}

// A MachinePool, which has no Machines: it grows through its scale
// subresource for a pending pod (its template from the capacity
// annotations) and shrinks by its empty instance, nothing marked.
TEST_F(ClusterApiRealServerTest, MachinePoolGrowsAndShrinks) {
  CreateMachinePool(1, {0});
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-0", "3").ok());
  ASSERT_TRUE(BindPod(cluster(), ns(), "web-0", NodeName(0)).ok());
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-1", "3").ok());
  auto grow = Start({"--scale-down-enabled=false"});
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas("machinepools/pool") == 2; },
                             seconds(30)))
      << "replicas " << Replicas("machinepools/pool") << "\n"
      << grow->Output();
  EXPECT_GE(CountOf(grow->Output(), "MachinePool/" + ns() + "/pool"), 1)
      << grow->Output();
  EXPECT_EQ(CountOf(grow->Output(), "is forbidden: User"), 0) << grow->Output();
  grow.reset();

  // The instance arrives, web-1 leaves: node 1 is empty and goes.
  ASSERT_TRUE(AdminCall(cluster(), "DELETE",
                        "/api/v1/namespaces/" + ns() +
                            "/pods/web-1?gracePeriodSeconds=0")
                  .ok());
  Result<std::string> patched =
      AdminCall(cluster(), "PATCH", Path("machinepools", "pool", "v1beta2"),
                R"({"spec":{"providerIDList":[")" + ProviderId(0) + R"(",")" +
                    ProviderId(1) + R"("]}})",
                "application/merge-patch+json");
  ASSERT_TRUE(patched.ok()) << patched.status().message();
  AddNodes(1, 1);
  ASSERT_TRUE(AdminCall(cluster(), "PATCH", "/api/v1/nodes/" + NodeName(1),
                        R"({"spec":{"providerID":")" + ProviderId(1) + R"("}})",
                        "application/merge-patch+json")
                  .ok());
  auto shrink = Start({});
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas("machinepools/pool") == 1; },
                             seconds(30)))
      << "replicas " << Replicas("machinepools/pool") << "\n"
      << shrink->Output();
  EXPECT_EQ(CountOf(shrink->Output(), "is forbidden: User"), 0)
      << shrink->Output();
}

}  // namespace
}  // namespace propscaler::envtest
