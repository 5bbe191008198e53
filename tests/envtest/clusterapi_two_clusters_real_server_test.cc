// Node-scale mode with Cluster API as it is deployed: two real
// kube-apiservers, each with its own etcd, CA and tokens. The management
// cluster holds Cluster API's CRDs (v1beta1 deprecated and v1beta2 stored,
// tests/envtest/crds/cluster-api.yaml) and an infrastructure provider's
// machine templates; the workload cluster (the run's shared one) holds the
// nodes and pods. propscaler runs with --kubeconfig for the workload cluster
// under deploy/node-scale/base's RBAC and --cloud-config for the management
// cluster under deploy/node-scale/clusterapi's, each with a token of its own
// cluster's service account. No Cluster API controller runs: the test plays
// it, and checks what propscaler asks of it.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "common/clock.h"
#include "common/files.h"
#include "envtest/real_server_fixture.h"

namespace propscaler::envtest {
namespace {

using std::chrono::seconds;

constexpr char kAccount[] = "propscaler-node-scale";
constexpr char kDeleteMachine[] = "cluster.x-k8s.io/delete-machine";
constexpr char kMaxSize[] =
    "cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size";

// What `cluster` answers GET /api with the bearer token `token`: 401 once
// the token is revoked.
int StatusWithToken(const RealCluster& cluster, const std::string& token) {
  kube::ClientConfig config;
  config.server = cluster.url();
  config.ca_file = cluster.ca_file();
  config.token = token;
  const kube::HttpClient http(config, &RealClock::Instance());
  Result<kube::HttpResponse> response = http.Do({.path = "/api"});
  return response.ok() ? response->status : -1;
}

std::string Contents(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  return text.ok() ? *text : "";
}

Result<std::string> SourceFile(const std::string& path) {
  return ReadFile(std::string(PROPSCALER_SOURCE_DIR) + "/" + path);
}

class ClusterApiTwoClustersTest : public RealServerTest {
 protected:
  static void SetUpTestSuite() {
    const char* dir = std::getenv("PROPSCALER_ENVTEST_DIR");
    Result<std::unique_ptr<RealCluster>> started = RealCluster::Start(
        {.envtest_dir = dir != nullptr ? dir : PROPSCALER_ENVTEST_DIR,
         .unpack_dir = PROPSCALER_ENVTEST_UNPACK_DIR,
         .audit = true});
    ASSERT_TRUE(started.ok()) << started.status().message();
    management_ = std::move(started).value();
    for (const char* crds : {"tests/envtest/crds/cluster-api.yaml",
                             "tests/envtest/crds/infrastructure.yaml"}) {
      Result<std::string> yaml = SourceFile(crds);
      ASSERT_TRUE(yaml.ok()) << yaml.status().message();
      Status created = CreateCustomResourceDefinitions(*management_, *yaml);
      ASSERT_TRUE(created.ok()) << created.message();
    }
  }
  static void TearDownTestSuite() { management_.reset(); }

  void SetUp() override {
    RealServerTest::SetUp();
    ASSERT_NE(management_, nullptr);
    // The workload cluster: nodes, pods, Events, the status; no Cluster API
    // rule at all, so a Cluster API request sent there would be refused.
    ASSERT_TRUE(CreateServiceAccount(cluster(), ns(), "default").ok());
    GrantRbac(kAccount, {"deploy/node-scale/base/role.yaml",
                         "deploy/node-scale/base/clusterrole.yaml"});
    ASSERT_TRUE(CreateNamespace(mgmt(), ns()).ok());
    ASSERT_TRUE(CreateServiceAccount(mgmt(), ns(), kAccount).ok());
    Result<std::string> rbac =
        SourceFile("deploy/node-scale/clusterapi/clusterrole.yaml");
    ASSERT_TRUE(rbac.ok()) << rbac.status().message();
    ASSERT_TRUE(ApplyRbacManifest(mgmt(), *rbac, ns()).ok());
    management_token_ = Write("management-token", "");
    RotateManagementToken();
  }

  void TearDown() override {
    SetV1beta1Served(true);
    for (const char* resource :
         {"machinedeployments", "machinesets", "machines", "machinepools"}) {
      Result<std::string> deleted =
          AdminCall(mgmt(), "DELETE", CapiPath(resource));
      EXPECT_TRUE(deleted.ok()) << deleted.status().message();
    }
    RealServerTest::TearDown();
  }

  RealCluster& mgmt() { return *management_; }

  std::string CapiPath(const std::string& resource,
                       const std::string& name = "") const {
    return "/apis/cluster.x-k8s.io/v1beta2/namespaces/" + ns() + "/" +
           resource + (name.empty() ? "" : "/" + name);
  }

  // A fresh token of the management cluster's account in its token file,
  // bound to the Secret `bound_secret` when given (deleting it revokes the
  // token).
  void RotateManagementToken(const std::string& bound_secret = "") {
    Result<std::string> token =
        ServiceAccountToken(mgmt(), ns(), kAccount, bound_secret);
    ASSERT_TRUE(token.ok()) << token.status().message();
    Write("management-token.new", *token);
    std::rename((management_token_ + ".new").c_str(),
                management_token_.c_str());
  }

  void CreateSecrets(RealCluster& cluster,
                     const std::vector<std::string>& names) {
    for (const std::string& name : names) {
      Result<std::string> created =
          AdminCall(cluster, "POST", "/api/v1/namespaces/" + ns() + "/secrets",
                    R"({"metadata":{"name":")" + name + R"("}})");
      ASSERT_TRUE(created.ok()) << created.status().message();
    }
  }
  void DeleteSecret(RealCluster& cluster, const std::string& name) {
    Result<std::string> deleted = AdminCall(
        cluster, "DELETE", "/api/v1/namespaces/" + ns() + "/secrets/" + name);
    ASSERT_TRUE(deleted.ok()) << deleted.status().message();
  }

  void CreateInMgmt(const std::string& path, const std::string& json) {
    Result<std::string> created = AdminCall(mgmt(), "POST", path, json);
    ASSERT_TRUE(created.ok()) << path << ": " << created.status().message();
  }

  // The Docker provider's template with what its controller reports for
  // autoscaling from zero: 4 cpu, 16 GiB, amd64 Linux.
  void CreateInfrastructureTemplate() {
    CreateInMgmt(
        "/apis/infrastructure.cluster.x-k8s.io/v1beta1/namespaces/" + ns() +
            "/dockermachinetemplates",
        R"({"apiVersion":"infrastructure.cluster.x-k8s.io/v1beta1",)"
        R"("kind":"DockerMachineTemplate","metadata":{"name":"workers"},)"
        R"("spec":{},"status":{"capacity":{"cpu":"4","memory":"16Gi"},)"
        R"("nodeInfo":{"architecture":"amd64","operatingSystem":"linux"}}})");
  }

  // A v1beta2 MachineDeployment with only a max size (no capacity
  // annotations): its machines' template names the infrastructure template
  // by API group, kind and name, as v1beta2 does.
  void CreateMachineDeployment(int replicas) {
    CreateInMgmt(
        CapiPath("machinedeployments"),
        R"({"apiVersion":"cluster.x-k8s.io/v1beta2",)"
        R"("kind":"MachineDeployment","metadata":{"name":"workers",)"
        R"("annotations":{")" +
            std::string(kMaxSize) +
            R"(":"5"}},"spec":{"clusterName":"c","replicas":)" +
            std::to_string(replicas) +
            R"(,"template":{"spec":{"clusterName":"c","infrastructureRef":{)"
            R"("apiGroup":"infrastructure.cluster.x-k8s.io",)"
            R"("kind":"DockerMachineTemplate","name":"workers"}}}}})");
  }

  // A Machine of the deployment (by Cluster API's label); with a node index,
  // also its Ready Node in the workload cluster, which names the Machine in
  // Cluster API's annotations.
  void CreateMachine(const std::string& name, std::optional<int> node) {
    CreateInMgmt(
        CapiPath("machines"),
        R"({"apiVersion":"cluster.x-k8s.io/v1beta2","kind":"Machine",)"
        R"("metadata":{"name":")" +
            name +
            R"(","labels":{"cluster.x-k8s.io/deployment-name":"workers"}},)"
            R"("spec":{"clusterName":"c")" +
            (node ? R"(,"providerID":"docker:///c/)" + NodeName(*node) + "\""
                  : std::string()) +
            "}}");
    if (!node) return;
    AddNodes(*node, 1);
    Result<std::string> patched = AdminCall(
        cluster(), "PATCH", "/api/v1/nodes/" + NodeName(*node),
        R"({"metadata":{"annotations":{"cluster.x-k8s.io/machine":")" + name +
            R"(","cluster.x-k8s.io/cluster-namespace":")" + ns() +
            R"("}},"spec":{"providerID":"docker:///c/)" + NodeName(*node) +
            R"("}})",
        "application/merge-patch+json");
    ASSERT_TRUE(patched.ok()) << patched.status().message();
  }

  int64_t Replicas() {
    Result<std::string> scale =
        AdminCall(mgmt(), "GET", CapiPath("machinedeployments", "workers"));
    if (!scale.ok()) return -1;
    const size_t spec = scale->find("\"spec\"");
    const size_t at = scale->find("\"replicas\":", spec);
    if (spec == std::string::npos || at == std::string::npos) return 0;
    return std::strtoll(scale->c_str() + at + 11, nullptr, 10);
  }
  void SetReplicas(int64_t replicas) {
    Result<std::string> patched =
        AdminCall(mgmt(), "PATCH", CapiPath("machinedeployments", "workers"),
                  R"({"spec":{"replicas":)" + std::to_string(replicas) + "}}",
                  "application/merge-patch+json");
    ASSERT_TRUE(patched.ok()) << patched.status().message();
  }
  bool Marked(const std::string& machine) {
    Result<std::string> json =
        AdminCall(mgmt(), "GET", CapiPath("machines", machine));
    return json.ok() && json->find(kDeleteMachine) != std::string::npos;
  }

  // Whether the four Cluster API CRDs serve v1beta1 (v1beta2 stays served
  // and stored).
  void SetV1beta1Served(bool served) {
    if (management_ == nullptr) return;
    for (const char* plural :
         {"machinedeployments", "machinesets", "machines", "machinepools"}) {
      Result<std::string> patched = AdminCall(
          mgmt(), "PATCH",
          std::string("/apis/apiextensions.k8s.io/v1/"
                      "customresourcedefinitions/") +
              plural + ".cluster.x-k8s.io",
          std::string(R"([{"op":"test","path":"/spec/versions/0/name",)"
                      R"("value":"v1beta1"},{"op":"replace","path":)"
                      R"("/spec/versions/0/served","value":)") +
              (served ? "true" : "false") + "}]",
          "application/json-patch+json");
      ASSERT_TRUE(patched.ok()) << patched.status().message();
    }
  }

  std::unique_ptr<e2e::Process> Start(
      std::vector<std::string> extra,
      const std::vector<std::string>& env = {}) {
    const std::string management_kubeconfig = Write(
        "management-kubeconfig",
        e2e::KubeconfigYaml(mgmt().url(), "", mgmt().ca_file(), "",
                            "    tokenFile: " + management_token_ + "\n"));
    std::vector<std::string> args = {"--mode=node-scale",
                                     "--cloud-provider=clusterapi",
                                     "--cloud-config=" + management_kubeconfig,
                                     "--scan-interval=300ms",
                                     "--leader-elect=false",
                                     "--scale-down-enabled=false"};
    args.insert(args.end(), extra.begin(), extra.end());
    return StartWithToken(args, env);
  }

  // Each cluster got only its own objects' requests: no Cluster API request
  // to the workload cluster, no pod or node request to the management one.
  void ExpectRequestsSplitByCluster() {
    for (const auto& [request, count] : Requests(std::nullopt)) {
      EXPECT_EQ(request.find("machine"), std::string::npos)
          << "sent to the workload cluster: " << request << " x" << count;
    }
    for (const auto& [request, count] : RequestsTo(mgmt(), std::nullopt)) {
      EXPECT_TRUE(request.find("pods") == std::string::npos &&
                  request.find("nodes") == std::string::npos &&
                  request.find("leases") == std::string::npos)
          << "sent to the management cluster: " << request << " x" << count;
    }
  }

  static std::unique_ptr<RealCluster> management_;
  std::string management_token_;
};

std::unique_ptr<RealCluster> ClusterApiTwoClustersTest::management_;

// A pending pod in the workload cluster scales the management cluster's
// MachineDeployment from zero, its node's size from the infrastructure
// template's status (no capacity annotation). Then the management token
// is rotated and the old one revoked, and later the workload's: each
// connection goes on with its own new token while the other keeps working.
TEST_F(ClusterApiTwoClustersTest,
       ScalesFromZeroAcrossClustersAndTokenRotations) {
  CreateSecrets(mgmt(), {"first", "second"});
  CreateSecrets(cluster(), {"first", "second"});
  RotateManagementToken("first");
  RotateToken("first");
  CreateInfrastructureTemplate();
  CreateMachineDeployment(0);
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-1", "3").ok());
  const int port = e2e::FreePort();
  auto propscaler = Start({"--healthz-port=" + std::to_string(port)});
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == 1; }, seconds(30)))
      << "replicas " << Replicas() << "\n"
      << propscaler->Output();
  // Each connection's API metrics are its cluster's. The PUT is counted
  // once its answer is read, which may be just after the server applied
  // it: polled.
  const std::vector<std::string> series = {
      R"(propscaler_api_requests_total{verb="PUT",code="200",cluster="management"} 1)",
      R"(propscaler_api_requests_total{verb="GET",code="200",cluster="workload"})",
      R"(propscaler_api_connections_total{cluster="management"})",
      R"(propscaler_api_connections_total{cluster="workload"})"};
  std::string body;
  EXPECT_TRUE(e2e::WaitUntil(
      [&] {
        httplib::Result metrics = e2e::HealthGet(port, "/metrics");
        body = metrics ? metrics->body : "";
        return std::all_of(series.begin(), series.end(),
                           [&](const std::string& s) {
                             return body.find(s) != std::string::npos;
                           });
      },
      seconds(10)))
      << body << "\n"
      << propscaler->Output();

  // Each cluster's token in turn: the file gets a token bound to Secret
  // "second", the first one is revoked (its Secret deleted, the server
  // refusing it), and one more pod gets one more machine.
  const struct {
    const char* which;
    RealCluster* cluster;
    std::string token_file;
    std::function<void()> rotate;
  } rotations[] = {
      {"management", &mgmt(), management_token_,
       [this] { RotateManagementToken("second"); }},
      {"workload", &cluster(), TokenFile(), [this] { RotateToken("second"); }}};
  int64_t want = 1;
  for (const auto& rotation : rotations) {
    const std::string first_token = Contents(rotation.token_file);
    rotation.rotate();
    DeleteSecret(*rotation.cluster, "first");
    ASSERT_TRUE(e2e::WaitUntil(
        [&] { return StatusWithToken(*rotation.cluster, first_token) == 401; },
        seconds(10)))
        << "the first " << rotation.which << " token was not revoked";
    ++want;
    ASSERT_TRUE(
        CreatePendingPod(cluster(), ns(), "web-" + std::to_string(want), "3")
            .ok());
    ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == want; }, seconds(60)))
        << "after the " << rotation.which << " token's rotation: replicas "
        << Replicas() << "\n"
        << propscaler->Output();
  }

  EXPECT_GE(RequestsTo(mgmt(), 200)["get dockermachinetemplates"], 1);
  EXPECT_GE(RequestsTo(mgmt(), 200)["patch machinedeployments/scale"] +
                RequestsTo(mgmt(), 200)["update machinedeployments/scale"],
            3);
  EXPECT_TRUE(NoKindRefusedMoreThanTwice());
  EXPECT_TRUE(RequestsTo(mgmt(), 403).empty()) << propscaler->Output();
  ExpectRequestsSplitByCluster();
  EXPECT_TRUE(propscaler->Running()) << propscaler->Output();
}

// A Machine that never becomes a node: the deployment at 2 with m-0 (its
// node busy) and, after propscaler's scale-up for a second pod, m-1 with
// none. Once --max-node-provision-time passes, m-1 (only it) is marked for
// deletion and the deployment lowered by exactly it.
TEST_F(ClusterApiTwoClustersTest, AMachineThatNeverGetsANodeIsDeletedAlone) {
  CreateInfrastructureTemplate();
  CreateMachineDeployment(1);
  CreateMachine("m-0", 0);
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-0", "3").ok());
  ASSERT_TRUE(BindPod(cluster(), ns(), "web-0", NodeName(0)).ok());
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-1", "3").ok());
  auto propscaler = Start({"--max-node-provision-time=10s"});
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == 2; }, seconds(30)))
      << "replicas " << Replicas() << "\n"
      << propscaler->Output();
  CreateMachine("m-1", std::nullopt);  // as the MachineSet would
  ASSERT_TRUE(e2e::WaitUntil([&] { return Marked("m-1"); }, seconds(40)))
      << propscaler->Output();
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == 1; }, seconds(10)))
      << "replicas " << Replicas() << "\n"
      << propscaler->Output();
  EXPECT_FALSE(Marked("m-0"));
  ExpectRequestsSplitByCluster();
}

// A MachinePool in the management cluster whose instances are nodes of the
// workload cluster (its spec.providerIDList): it grows through its scale
// subresource for a pending pod, and once the new instance is there and
// empty, shrinks by it; no Machine is marked (a pool has none).
TEST_F(ClusterApiTwoClustersTest, MachinePoolGrowsAndShrinksAcrossClusters) {
  CreateInfrastructureTemplate();
  auto provider_id = [this](int node) {
    return "docker:///c/" + NodeName(node);
  };
  // The pool's instances are nodes 0..count-1; node count-1 registers now.
  auto set_instances = [&](int count) {
    std::string ids;
    for (int node = 0; node < count; ++node) {
      ids += (ids.empty() ? "\"" : ",\"") + provider_id(node) + "\"";
    }
    {
      const int node = count - 1;
      AddNodes(node, 1);
      ASSERT_TRUE(
          AdminCall(cluster(), "PATCH", "/api/v1/nodes/" + NodeName(node),
                    R"({"spec":{"providerID":")" + provider_id(node) + R"("}})",
                    "application/merge-patch+json")
              .ok());
    }
    ASSERT_TRUE(AdminCall(mgmt(), "PATCH", CapiPath("machinepools", "pool"),
                          R"({"spec":{"providerIDList":[)" + ids + "]}}",
                          "application/merge-patch+json")
                    .ok());
  };
  CreateInMgmt(
      CapiPath("machinepools"),
      R"({"apiVersion":"cluster.x-k8s.io/v1beta2","kind":"MachinePool",)"
      R"("metadata":{"name":"pool","annotations":{")" +
          std::string(kMaxSize) +
          R"(":"5"}},"spec":{"clusterName":"c","replicas":1,"template":{)"
          R"("spec":{"clusterName":"c","infrastructureRef":{)"
          R"("apiGroup":"infrastructure.cluster.x-k8s.io",)"
          R"("kind":"DockerMachineTemplate","name":"workers"}}}}})");
  set_instances(1);
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-0", "3").ok());
  ASSERT_TRUE(BindPod(cluster(), ns(), "web-0", NodeName(0)).ok());
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-1", "3").ok());
  auto propscaler =
      Start({"--scale-down-enabled=true", "--scale-down-unneeded-time=1s",
             "--scale-down-delay-after-add=0s"});
  auto pool_replicas = [this]() -> int64_t {
    Result<std::string> pool =
        AdminCall(mgmt(), "GET", CapiPath("machinepools", "pool"));
    if (!pool.ok()) return -1;
    const size_t at = pool->find("\"replicas\":", pool->find("\"spec\""));
    if (at == std::string::npos) return 0;
    return std::strtoll(pool->c_str() + at + 11, nullptr, 10);
  };
  ASSERT_TRUE(e2e::WaitUntil([&] { return pool_replicas() == 2; }, seconds(30)))
      << "replicas " << pool_replicas() << "\n"
      << propscaler->Output();

  // The instance arrives, web-1 leaves: node 1 is empty and goes.
  ASSERT_TRUE(AdminCall(cluster(), "DELETE",
                        "/api/v1/namespaces/" + ns() +
                            "/pods/web-1?gracePeriodSeconds=0")
                  .ok());
  set_instances(2);
  ASSERT_TRUE(e2e::WaitUntil([&] { return pool_replicas() == 1; }, seconds(30)))
      << "replicas " << pool_replicas() << "\n"
      << propscaler->Output();
  EXPECT_EQ(RequestsTo(mgmt(), std::nullopt)["patch machines"], 0);
  ExpectRequestsSplitByCluster();
}

// The management cluster's API server is down for a minute while a second
// pod waits. When it returns, someone else has already sized the group for
// it (replicas 1 -> 3): propscaler's scale-up, planned from the size it saw
// before the outage, is not written over or on top of that; once its view
// is current, a third and a fourth pod get exactly one more machine.
TEST_F(ClusterApiTwoClustersTest, ManagementDownAMinuteThenNoStaleWrite) {
  CreateInfrastructureTemplate();
  CreateMachineDeployment(0);
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-1", "3").ok());
  // Failed scale-ups during the outage back the group off for a second
  // at most: propscaler tries again as soon as the server is back, before
  // its watch has caught up.
  auto propscaler = Start({"--initial-node-group-backoff-duration=1s",
                           "--max-node-group-backoff-duration=1s",
                           "--max-node-provision-time=10m"});
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == 1; }, seconds(30)))
      << "replicas " << Replicas() << "\n"
      << propscaler->Output();

  mgmt().StopApiServer();
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-2", "3").ok());
  std::this_thread::sleep_for(seconds(60));  // the outage
  // The other writer gets there first: propscaler is paused meanwhile, so
  // when it goes on its view of the group is the one from before.
  propscaler->Signal(SIGSTOP);
  ASSERT_TRUE(mgmt().StartApiServer().ok()) << mgmt().ApiServerLog();
  SetReplicas(3);
  const auto before = RequestsTo(mgmt(), 200);
  const int conflicts_before =
      RequestsTo(mgmt(), 409)["update machinedeployments/scale"];
  propscaler->Signal(SIGCONT);
  // 15 s of loops every 300 ms with the view catching up: nothing written
  // (the write tried from the old view is refused, 409, and not tried again
  // on top of the new size).
  std::this_thread::sleep_for(seconds(15));
  EXPECT_GE(RequestsTo(mgmt(), 409)["update machinedeployments/scale"],
            conflicts_before + 1)
      << "no write was tried from the old view: the test proved nothing\n"
      << propscaler->Output();
  EXPECT_EQ(Replicas(), 3) << propscaler->Output();
  auto after = RequestsTo(mgmt(), 200);
  for (const char* write :
       {"patch machinedeployments/scale", "update machinedeployments/scale"}) {
    EXPECT_EQ(after[write], before.contains(write) ? before.at(write) : 0)
        << write << "\n"
        << propscaler->Output();
  }
  EXPECT_GT(after["watch machinedeployments"],
            before.contains("watch machinedeployments")
                ? before.at("watch machinedeployments")
                : 0)
      << "the watch never came back";

  for (const char* pod : {"web-3", "web-4"}) {
    ASSERT_TRUE(CreatePendingPod(cluster(), ns(), pod, "3").ok());
  }
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == 4; }, seconds(30)))
      << "replicas " << Replicas() << "\n"
      << propscaler->Output();
  std::this_thread::sleep_for(seconds(3));
  EXPECT_EQ(Replicas(), 4) << propscaler->Output();

  EXPECT_TRUE(propscaler->Running()) << propscaler->Output();
}

// Cluster API 1.16 stops serving v1beta1. propscaler discovered v1beta2, the
// preferred version, at start: taking v1beta1 out of the CRDs mid-run
// changes nothing, and a pod that comes afterwards still gets its machine.
TEST_F(ClusterApiTwoClustersTest,
       V1beta1UnservedMidRunChangesNothingOnV1beta2) {
  CreateInfrastructureTemplate();
  CreateMachineDeployment(0);
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-1", "3").ok());
  auto propscaler = Start({});
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == 1; }, seconds(30)))
      << "replicas " << Replicas() << "\n"
      << propscaler->Output();
  EXPECT_EQ(e2e::CountOf(propscaler->Output(),
                         "read and written as cluster.x-k8s.io/v1beta2"),
            1)
      << propscaler->Output();
  SetV1beta1Served(false);
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-2", "3").ok());
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == 2; }, seconds(30)))
      << "replicas " << Replicas() << "\n"
      << propscaler->Output();
  EXPECT_TRUE(propscaler->Running()) << propscaler->Output();
}

// With CAPI_VERSION=v1beta1 pinned, the same change stops the process, with
// a message that names the version and says what to do; nothing is left
// half-done (its restart would discover v1beta2, as the test above shows).
TEST_F(ClusterApiTwoClustersTest, V1beta1UnservedMidRunStopsAPinnedProcess) {
  CreateInfrastructureTemplate();
  CreateMachineDeployment(0);
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-1", "3").ok());
  auto propscaler = Start({}, {"CAPI_VERSION=v1beta1"});
  ASSERT_TRUE(e2e::WaitUntil([&] { return Replicas() == 1; }, seconds(30)))
      << "replicas " << Replicas() << "\n"
      << propscaler->Output();
  SetV1beta1Served(false);
  const std::optional<int> exit = propscaler->WaitForExit(seconds(120));
  ASSERT_TRUE(exit.has_value()) << "still running\n" << propscaler->Output();
  EXPECT_EQ(*exit, 1) << propscaler->Output();
  EXPECT_EQ(e2e::CountOf(propscaler->Output(),
                         "cluster.x-k8s.io/v1beta1 no longer serves"),
            1)
      << propscaler->Output();
  EXPECT_EQ(e2e::CountOf(propscaler->Output(),
                         "CAPI_VERSION pins v1beta1: change or unset it"),
            1)
      << propscaler->Output();
  EXPECT_EQ(Replicas(), 1);
}

}  // namespace
}  // namespace propscaler::envtest
