// Replica mode on the real kube-apiserver, run as a service account with
// exactly the RBAC of a manifest: CPA's chart and examples RBAC (the drop-in
// promise) and deploy/replicas/rbac.yaml (least privilege, no 403 at all).
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <chrono>
#include <map>
#include <string>
#include <thread>

#include "envtest/real_server_fixture.h"
#include "replicas/default_params.h"

namespace propscaler::envtest {
namespace {

using e2e::CountOf;
using std::chrono::seconds;

constexpr char kCpaChartRbac[] = "tests/envtest/rbac/cpa-chart.yaml";
constexpr char kCpaExamplesRbac[] = "tests/envtest/rbac/cpa-examples.yaml";
constexpr char kDeployRbac[] = "deploy/replicas/rbac.yaml";
constexpr char kDefaults[] = R"({"linear":{"nodesPerReplica":1}})";

class ReplicaRealServerTest : public RealServerTest {
 protected:
  void SetUpTarget(int nodes) {
    AddNodes(0, nodes);
    ASSERT_TRUE(CreateDeployment(cluster(), ns(), kTarget, 1).ok());
  }
  void SetParams(const std::string& linear) {
    Status put = PutConfigMap(cluster(), ns(), kConfigMap, "linear", linear);
    ASSERT_TRUE(put.ok()) << put.message();
  }

  std::string HpaPath() const {
    return "/apis/autoscaling/v1/namespaces/" + ns() +
           "/horizontalpodautoscalers";
  }
  // An autoscaling/v1 HPA `name` on the target: minReplicas 1,
  // maxReplicas 10, a CPU target of `cpu` percent.
  void CreateHpa(const std::string& name, int cpu) {
    Status created =
        AdminCall(
            cluster(), "POST", HpaPath(),
            R"({"metadata":{"name":")" + name +
                R"("},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":")" +
                std::string(kTarget) +
                R"("},"minReplicas":1,"maxReplicas":10,"targetCPUUtilizationPercentage":)" +
                std::to_string(cpu) + "}}")
            .status();
    ASSERT_TRUE(created.ok()) << created.message();
  }
  // Its spec.minReplicas as stored; -1 when unread.
  int64_t HpaMinReplicas(const std::string& name) {
    Result<std::string> hpa =
        AdminCall(cluster(), "GET", HpaPath() + "/" + name);
    if (!hpa.ok()) return -1;
    const size_t at = hpa->find("\"minReplicas\":");
    return at == std::string::npos ? -1 : std::stoll(hpa->substr(at + 14));
  }
  ::testing::AssertionResult WaitForMinReplicas(const std::string& name,
                                                int64_t want) {
    if (e2e::WaitUntil([&] { return HpaMinReplicas(name) == want; },
                       std::chrono::seconds(30))) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << "horizontalpodautoscaler " << name << " has minReplicas "
           << HpaMinReplicas(name) << ", not " << want;
  }
};

// The chart creates the ConfigMap and grants get on it, and update (not
// patch) on the scale: every change a user makes is followed.
TEST_F(ReplicaRealServerTest, CpaChartRbacFollowsTheCluster) {
  GrantRbac("autoscaler", {kCpaChartRbac});
  SetUpTarget(2);
  SetParams(kPerNodeParams);
  auto propscaler = StartPropscaler({"--poll-period-seconds=1"});
  ASSERT_TRUE(WaitForReplicas(2, *propscaler));
  EXPECT_TRUE(WaitForLog("with a GET every cycle", *propscaler));

  AddNodes(2, 1);
  ASSERT_TRUE(WaitForReplicas(3, *propscaler));
  ASSERT_TRUE(CordonNode(cluster(), NodeName(0)).ok());
  ASSERT_TRUE(WaitForReplicas(2, *propscaler));
  ASSERT_TRUE(SetNodeReady(cluster(), NodeName(1), false).ok());
  ASSERT_TRUE(WaitForReplicas(1, *propscaler));
  ASSERT_TRUE(SetNodeReady(cluster(), NodeName(1), true).ok());
  ASSERT_TRUE(WaitForReplicas(2, *propscaler));
  ASSERT_TRUE(DeleteNode(cluster(), NodeName(2)).ok());
  ASSERT_TRUE(WaitForReplicas(1, *propscaler));

  SetParams(R"({"nodesPerReplica":1,"min":3})");
  ASSERT_TRUE(WaitForReplicas(3, *propscaler));
  ASSERT_TRUE(ScaleDeployment(cluster(), ns(), kTarget, 9).ok());
  ASSERT_TRUE(WaitForReplicas(3, *propscaler));

  // Invalid params: the last valid ones keep applying, a node added
  // meanwhile included.
  SetParams(R"({"nodesPerReplica":1,"min":-1})");
  ASSERT_TRUE(WaitForLog("min", *propscaler));
  ASSERT_TRUE(WaitForLog("keeping the last valid params", *propscaler));
  AddNodes(3, 3);
  ASSERT_TRUE(WaitForReplicas(4, *propscaler));

  const std::string log = propscaler->Output();
  // Nothing but the ConfigMap's and the target's lists (once each) and the
  // Events and the HPA check (once each) met a 403; the scale was written
  // with update.
  EXPECT_EQ(CountOf(log, "with a GET every cycle"), 2) << log;
  EXPECT_EQ(CountOf(log, "reading deployment/coredns in namespace " + ns() +
                             " with a GET"),
            1)
      << log;
  EXPECT_EQ(CountOf(log, "cannot post Events"), 1) << log;
  EXPECT_EQ(CountOf(log, "writing replicas with patch"), 0) << log;
  EXPECT_TRUE(propscaler->Running()) << log;
  // The server's own count, from its audit log: every refused kind of
  // request at most twice in the whole run.
  EXPECT_TRUE(NoKindRefusedMoreThanTwice()) << log;
  EXPECT_EQ(Refusals()["watch deployments"], 1) << log;
}

// The chart grants no update on the ConfigMap: a --default-params other
// than the one the ConfigMap was made from is refused once and the
// ConfigMap applies as it is; the update is not sent again every poll
// (it is asked again every 5 minutes), per the audit log.
TEST_F(ReplicaRealServerTest,
       CpaChartRbacRefusedDefaultParamsUpdateIsNotRepeated) {
  GrantRbac("autoscaler", {kCpaChartRbac});
  SetUpTarget(3);
  const std::map<std::string, std::string> made_from = {
      {"linear", R"({"nodesPerReplica":3})"}};
  rapidjson::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  rapidjson::Value metadata(rapidjson::kObjectType);
  metadata.AddMember("name", rapidjson::Value(kConfigMap, a), a);
  rapidjson::Value annotations(rapidjson::kObjectType);
  annotations.AddMember(
      rapidjson::Value(kDefaultParamsHashAnnotation, a),
      rapidjson::Value(HashConfigMapData(made_from).c_str(), a), a);
  metadata.AddMember("annotations", annotations, a);
  rapidjson::Value data(rapidjson::kObjectType);
  data.AddMember("linear", rapidjson::Value(made_from.at("linear").c_str(), a),
                 a);
  body.AddMember("apiVersion", "v1", a);
  body.AddMember("kind", "ConfigMap", a);
  body.AddMember("metadata", metadata, a);
  body.AddMember("data", data, a);
  rapidjson::StringBuffer text;
  rapidjson::Writer<rapidjson::StringBuffer> writer(text);
  body.Accept(writer);
  Result<std::string> created =
      AdminCall(cluster(), "POST", "/api/v1/namespaces/" + ns() + "/configmaps",
                text.GetString());
  ASSERT_TRUE(created.ok()) << created.status().message();

  auto propscaler =
      StartPropscaler({"--poll-period-seconds=1",
                       std::string("--default-params=") + kDefaults});
  ASSERT_TRUE(WaitForReplicas(1, *propscaler));  // 3 nodes, 3 per replica
  // Ten polls at least: each would have sent the update again.
  std::this_thread::sleep_for(seconds(10));
  const std::string log = propscaler->Output();
  EXPECT_EQ(Refusals()["update configmaps"], 1) << log;
  EXPECT_EQ(CountOf(log, "as it is (grant update on it"), 1) << log;
  Result<int64_t> replicas = DeploymentReplicas(cluster(), ns(), kTarget);
  ASSERT_TRUE(replicas.ok());
  EXPECT_EQ(*replicas, 1);
  EXPECT_TRUE(propscaler->Running()) << log;
}

// The examples add configmaps create: --default-params creates the
// ConfigMap, and again after it is deleted.
TEST_F(ReplicaRealServerTest, CpaExamplesRbacCreatesTheConfigMapAgain) {
  GrantRbac("autoscaler", {kCpaExamplesRbac});
  SetUpTarget(3);
  auto propscaler =
      StartPropscaler({"--poll-period-seconds=1",
                       std::string("--default-params=") + kDefaults});
  ASSERT_TRUE(WaitForReplicas(3, *propscaler));
  Result<std::string> linear =
      ConfigMapValue(cluster(), ns(), kConfigMap, "linear");
  ASSERT_TRUE(linear.ok()) << linear.status().message();
  EXPECT_EQ(*linear, R"({"nodesPerReplica":1})");

  ASSERT_TRUE(DeleteConfigMap(cluster(), ns(), kConfigMap).ok());
  EXPECT_TRUE(e2e::WaitUntil(
      [&] {
        return ConfigMapValue(cluster(), ns(), kConfigMap, "linear").ok();
      },
      seconds(30)))
      << propscaler->Output();
  SetParams(R"({"nodesPerReplica":1,"min":5})");
  ASSERT_TRUE(WaitForReplicas(5, *propscaler));
  EXPECT_TRUE(propscaler->Running()) << propscaler->Output();
  EXPECT_TRUE(NoKindRefusedMoreThanTwice()) << propscaler->Output();
}

// Without any permission on the ConfigMap nothing can be read: the cycle
// fails, saying so, and the target is left alone.
TEST_F(ReplicaRealServerTest, ChartRbacWithoutTheConfigMapFailsTheOnceRun) {
  GrantRbac("autoscaler", {kCpaChartRbac});
  SetUpTarget(2);
  auto propscaler = StartPropscaler({"--once"});
  const std::optional<int> exit_code = propscaler->WaitForExit(seconds(30));
  ASSERT_TRUE(exit_code.has_value()) << propscaler->Report();
  EXPECT_EQ(*exit_code, 1) << propscaler->Output();
  EXPECT_NE(propscaler->Output().find(kConfigMap), std::string::npos)
      << propscaler->Output();
  Result<int64_t> replicas = DeploymentReplicas(cluster(), ns(), kTarget);
  ASSERT_TRUE(replicas.ok());
  EXPECT_EQ(*replicas, 1);
}

// Our own least-privilege manifest: list+watch of the ConfigMap, so edits
// are followed within a second although the poll period is a minute, and
// not one call is refused.
TEST_F(ReplicaRealServerTest, DeployRbacIsEnoughForEveryCall) {
  GrantRbac("coredns-autoscaler", {kDeployRbac});
  SetUpTarget(2);
  auto propscaler =
      StartPropscaler({"--poll-period-seconds=60",
                       std::string("--default-params=") + kDefaults});
  ASSERT_TRUE(WaitForReplicas(2, *propscaler));
  AddNodes(2, 2);
  ASSERT_TRUE(WaitForReplicas(4, *propscaler, seconds(5)));
  SetParams(R"({"nodesPerReplica":1,"min":6})");
  ASSERT_TRUE(WaitForReplicas(6, *propscaler, seconds(5)));
  ASSERT_TRUE(DeleteConfigMap(cluster(), ns(), kConfigMap).ok());
  ASSERT_TRUE(WaitForReplicas(4, *propscaler, seconds(5)));
  const std::string log = propscaler->Output();
  EXPECT_EQ(CountOf(log, "HTTP 403"), 0) << log;
  EXPECT_EQ(CountOf(log, "is forbidden: User"), 0) << log;
  EXPECT_TRUE(propscaler->Running()) << log;
}

// With list and watch on the target (deploy/replicas/rbac.yaml) its scale is
// read from the watch: another writer's `kubectl scale` is undone well
// within the poll period, and cycles at rest send no request at all.
TEST_F(ReplicaRealServerTest, WatchedTargetIsUndoneAtOnceAndNeverPolled) {
  GrantRbac("coredns-autoscaler", {kDeployRbac});
  SetUpTarget(2);
  SetParams(kPerNodeParams);
  auto propscaler = StartPropscaler({"--poll-period-seconds=3", "--v=2"});
  ASSERT_TRUE(WaitForReplicas(2, *propscaler));
  const size_t before_undo = propscaler->Output().size();
  ASSERT_TRUE(ScaleDeployment(cluster(), ns(), kTarget, 9).ok());
  ASSERT_TRUE(WaitForReplicas(2, *propscaler, seconds(2)));
  // The undoing cycle logs its end after its write and Event.
  ASSERT_TRUE(e2e::WaitUntil(
      [&] {
        const std::string log = propscaler->Output().substr(before_undo);
        const size_t undo = log.find("from 9 to 2 replicas");
        return undo != std::string::npos &&
               log.find("] cycle: ", undo) != std::string::npos;
      },
      seconds(10)))
      << propscaler->Output();

  // Three poll-period cycles after the undo, and not one request of theirs.
  const size_t mark = propscaler->Output().size();
  auto since_mark = [&] { return propscaler->Output().substr(mark); };
  ASSERT_TRUE(e2e::WaitUntil(
      [&] { return CountOf(since_mark(), "] cycle: ") >= 3; }, seconds(30)))
      << propscaler->Output();
  const std::string log = since_mark();
  EXPECT_EQ(CountOf(log, "/scale"), 0) << log;
  EXPECT_EQ(CountOf(log, "API request GET /api/v1/namespaces/" + ns() +
                             "/configmaps/"),
            0)
      << log;
  EXPECT_EQ(CountOf(log, "HTTP 403"), 0) << log;
  EXPECT_TRUE(propscaler->Running()) << log;
}

// More nodes than one page (500): the list is followed through its
// continue tokens.
TEST_F(ReplicaRealServerTest, PagedListCountsEveryNode) {
  GrantRbac("coredns-autoscaler", {kDeployRbac});
  SetUpTarget(1234);
  SetParams(R"({"nodesPerReplica":100})");
  auto propscaler = StartPropscaler({"--once"});
  const std::optional<int> exit_code = propscaler->WaitForExit(seconds(60));
  ASSERT_TRUE(exit_code.has_value()) << propscaler->Report();
  EXPECT_EQ(*exit_code, 0) << propscaler->Output();
  Result<int64_t> replicas = DeploymentReplicas(cluster(), ns(), kTarget);
  ASSERT_TRUE(replicas.ok());
  EXPECT_EQ(*replicas, 13);  // ceil(1234 / 100)
}

// The API server's serving certificate is renewed (same CA) and the server
// restarts with a new watch cache: propscaler trusts the new certificate,
// the watch's resourceVersion is too old (410), it lists again and goes on.
TEST_F(ReplicaRealServerTest,
       WatchResumesAfterTheServerRestartsWithARenewedCertificate) {
  GrantRbac("coredns-autoscaler", {kDeployRbac});
  SetUpTarget(2);
  SetParams(kPerNodeParams);
  auto propscaler = StartPropscaler({"--poll-period-seconds=60"});
  ASSERT_TRUE(WaitForReplicas(2, *propscaler));
  // Writes elsewhere move etcd's revision past the nodes' last event.
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(PutConfigMap(cluster(), ns(), "unrelated-" + std::to_string(i),
                             "k", "v")
                    .ok());
  }
  Status renewed = cluster().ReplaceServingCert(/*wait_until_served=*/false);
  ASSERT_TRUE(renewed.ok()) << renewed.message();
  Status restarted = cluster().RestartApiServer();
  ASSERT_TRUE(restarted.ok()) << restarted.message();
  AddNodes(2, 1);
  ASSERT_TRUE(WaitForReplicas(3, *propscaler, seconds(30)));
  EXPECT_GE(CountOf(propscaler->Output(),
                    "nodes: resourceVersion expired, listing again"),
            1)
      << propscaler->Output();
  EXPECT_TRUE(propscaler->Running()) << propscaler->Output();
}

// podsPerReplica under deploy/replicas-count-pods' RBAC: the pods of this
// namespace labelled app=web (Pending here: no scheduler runs) are
// counted, another app's are not, and a deleted one leaves the count.
TEST_F(ReplicaRealServerTest, PodsPerReplicaCountsTheSelectedPods) {
  ASSERT_TRUE(CreateServiceAccount(cluster(), ns(), "default").ok());
  GrantRbac("coredns-autoscaler",
            {kDeployRbac, "deploy/replicas-count-pods/rbac.yaml"});
  SetUpTarget(1);
  SetParams(R"({"podsPerReplica":1})");
  for (const char* pod : {"web-0", "web-1", "web-2"}) {
    ASSERT_TRUE(CreateUntriedPod(cluster(), ns(), pod, "100m",
                                 {.labels = R"({"app":"web"})"})
                    .ok());
  }
  ASSERT_TRUE(CreateUntriedPod(cluster(), ns(), "db-0", "100m",
                               {.labels = R"({"app":"db"})"})
                  .ok());
  auto propscaler =
      StartPropscaler({"--pod-selector=app=web", "--pod-namespace=" + ns()});
  ASSERT_TRUE(WaitForReplicas(3, *propscaler));
  ASSERT_TRUE(DeletePod(cluster(), ns(), "web-2").ok());
  ASSERT_TRUE(WaitForReplicas(2, *propscaler, seconds(5)));
  EXPECT_TRUE(NoKindRefusedMoreThanTwice());
  EXPECT_EQ(Refusals().count("list pods"), 0u);
  EXPECT_EQ(Refusals().count("watch pods"), 0u);
}

// --target-selector under deploy/replicas-target-selector's RBAC: every
// Deployment labelled k8s-app=kube-dns is scaled, one that appears or
// starts to match within seconds, one that stops matching is left, and
// nothing is refused.
TEST_F(ReplicaRealServerTest, TargetSelectorScalesTheMatchingDeployments) {
  GrantRbac("coredns-autoscaler",
            {kDeployRbac, "deploy/replicas-target-selector/rbac.yaml"});
  SetUpTarget(2);
  SetParams(kPerNodeParams);
  const std::string deployments =
      "/apis/apps/v1/namespaces/" + ns() + "/deployments/";
  auto label = [&](const std::string& name, const std::string& value) {
    const std::string patch =
        value.empty()
            ? R"({"metadata":{"labels":{"k8s-app":null}}})"
            : R"({"metadata":{"labels":{"k8s-app":")" + value + R"("}}})";
    Status patched = AdminCall(cluster(), "PATCH", deployments + name, patch,
                               "application/merge-patch+json")
                         .status();
    ASSERT_TRUE(patched.ok()) << patched.message();
  };
  auto reaches = [&](const std::string& name, int64_t want) {
    Result<int64_t> last = Status::NotFound("never read");
    const bool reached = e2e::WaitUntil(
        [&] {
          last = DeploymentReplicas(cluster(), ns(), name);
          return last.ok() && *last == want;
        },
        seconds(10));
    return reached ? ::testing::AssertionSuccess()
                   : ::testing::AssertionFailure()
                         << name << " has "
                         << (last.ok() ? std::to_string(*last)
                                       : last.status().message())
                         << ", not " << want;
  };
  for (const char* name : {"dns-a", "web"}) {
    ASSERT_TRUE(CreateDeployment(cluster(), ns(), name, 1).ok());
  }
  label("dns-a", "kube-dns");
  label("web", "web");
  auto propscaler = StartWithToken(
      {"--configmap=" + std::string(kConfigMap), "--nodelabels=" + NodeLabel(),
       "--target-selector=deployment:k8s-app=kube-dns"});
  ASSERT_TRUE(reaches("dns-a", 2)) << propscaler->Report();

  ASSERT_TRUE(CreateDeployment(cluster(), ns(), "dns-b", 1).ok());
  label("dns-b", "kube-dns");
  ASSERT_TRUE(reaches("dns-b", 2)) << propscaler->Report();
  label(kTarget, "kube-dns");
  ASSERT_TRUE(reaches(kTarget, 2)) << propscaler->Report();

  label("dns-a", "");
  ASSERT_TRUE(WaitForLog("no longer scaling deployment/dns-a", *propscaler));
  AddNodes(2, 1);
  ASSERT_TRUE(reaches("dns-b", 3)) << propscaler->Report();
  ASSERT_TRUE(reaches(kTarget, 3)) << propscaler->Report();
  EXPECT_EQ(*DeploymentReplicas(cluster(), ns(), "dns-a"), 2);
  EXPECT_EQ(*DeploymentReplicas(cluster(), ns(), "web"), 1);
  EXPECT_TRUE(propscaler->Running()) << propscaler->Report();
  EXPECT_TRUE(Refusals().empty()) << propscaler->Report();
}

// --hpa-floor under deploy/replicas-hpa-floor's RBAC on the real server,
// which serves no autoscaling/v2 (1.20): the count is written through
// autoscaling/v1 as the HPA's minReplicas, following the nodes, its other
// fields and the Deployment's replicas untouched, nothing refused.
TEST_F(ReplicaRealServerTest, HpaFloorSetsMinReplicasThroughV1) {
  GrantRbac("coredns-autoscaler",
            {kDeployRbac, "deploy/replicas-hpa-floor/rbac.yaml"});
  SetUpTarget(2);
  SetParams(kPerNodeParams);
  CreateHpa("coredns", 70);
  auto propscaler = StartPropscaler({"--hpa-floor=coredns"});
  ASSERT_TRUE(WaitForMinReplicas("coredns", 2)) << propscaler->Report();
  AddNodes(2, 1);
  ASSERT_TRUE(WaitForMinReplicas("coredns", 3)) << propscaler->Report();
  Result<std::string> hpa = AdminCall(cluster(), "GET", HpaPath() + "/coredns");
  ASSERT_TRUE(hpa.ok());
  EXPECT_NE(hpa->find("\"targetCPUUtilizationPercentage\":70"),
            std::string::npos)
      << *hpa;
  EXPECT_NE(hpa->find("\"maxReplicas\":10"), std::string::npos) << *hpa;
  EXPECT_EQ(*DeploymentReplicas(cluster(), ns(), kTarget), 1);
  EXPECT_NE(propscaler->Output().find("through autoscaling/v1 (--hpa-floor)"),
            std::string::npos)
      << propscaler->Report();
  EXPECT_EQ(propscaler->Output().find("also scales"), std::string::npos);
  EXPECT_TRUE(propscaler->Running()) << propscaler->Report();
  EXPECT_TRUE(Refusals().empty()) << propscaler->Report();
}

// --hpa-floor-auto under deploy/replicas-hpa-floor-auto's RBAC: the
// target's one HPA takes the floor (through autoscaling/v1 on 1.20), no
// request refused, no conflict reported.
TEST_F(ReplicaRealServerTest, HpaFloorAutoFindsTheTargetsOneHpa) {
  GrantRbac("coredns-autoscaler",
            {kDeployRbac, "deploy/replicas-hpa-floor-auto/rbac.yaml"});
  SetUpTarget(3);
  SetParams(kPerNodeParams);
  CreateHpa("dns-load", 60);
  auto propscaler = StartPropscaler({"--hpa-floor-auto"});
  ASSERT_TRUE(WaitForMinReplicas("dns-load", 3)) << propscaler->Report();
  ASSERT_TRUE(DeleteNode(cluster(), NodeName(2)).ok());
  ASSERT_TRUE(WaitForMinReplicas("dns-load", 2)) << propscaler->Report();
  EXPECT_EQ(*DeploymentReplicas(cluster(), ns(), kTarget), 1);
  EXPECT_NE(
      propscaler->Output().find("through autoscaling/v1 (--hpa-floor-auto)"),
      std::string::npos)
      << propscaler->Report();
  EXPECT_EQ(propscaler->Output().find("also scales"), std::string::npos)
      << propscaler->Report();
  EXPECT_TRUE(Refusals().empty()) << propscaler->Report();
}

// The token file is rotated and the old token revoked: propscaler reads
// the new one and carries on.
TEST_F(ReplicaRealServerTest, RotatedTokenIsReadFromTheFile) {
  GrantRbac("coredns-autoscaler", {kDeployRbac});
  SetUpTarget(2);
  SetParams(kPerNodeParams);
  for (const char* secret : {"first", "second"}) {
    ASSERT_TRUE(
        AdminCall(cluster(), "POST", "/api/v1/namespaces/" + ns() + "/secrets",
                  std::string("{\"metadata\":{\"name\":\"") + secret + "\"}}")
            .ok());
  }
  RotateToken("first");
  auto propscaler = StartPropscaler({"--poll-period-seconds=1"});
  ASSERT_TRUE(WaitForReplicas(2, *propscaler));
  RotateToken("second");
  // Deleting the bound Secret revokes the first token.
  ASSERT_TRUE(AdminCall(cluster(), "DELETE",
                        "/api/v1/namespaces/" + ns() + "/secrets/first")
                  .ok());
  AddNodes(2, 1);
  ASSERT_TRUE(WaitForReplicas(3, *propscaler, seconds(30)));
  ASSERT_TRUE(ScaleDeployment(cluster(), ns(), kTarget, 7).ok());
  ASSERT_TRUE(WaitForReplicas(3, *propscaler, seconds(30)));
  EXPECT_TRUE(propscaler->Running()) << propscaler->Output();
}

}  // namespace
}  // namespace propscaler::envtest
