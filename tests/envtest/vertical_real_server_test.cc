// Vertical mode on the real kube-apiserver: a Deployment under
// deploy/vertical/rbac.yaml (least privilege: not one call refused), and a
// DaemonSet under cluster-proportional-vertical-autoscaler's own example
// RBAC (nodes list only, patch only) with its config file edited.
#include <rapidjson/document.h>
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <thread>

#include "envtest/real_server_fixture.h"

namespace propscaler::envtest {
namespace {

using e2e::CountOf;
using std::chrono::seconds;

constexpr char kDeployRbac[] = "deploy/vertical/rbac.yaml";
constexpr char kCpvaRbac[] = "tests/envtest/rbac/cpva-examples.yaml";

std::string WorkloadJson(const std::string& kind, const std::string& name) {
  const std::string labels = "{\"app\":\"" + name + "\"}";
  return R"({"apiVersion":"apps/v1","kind":")" + kind +
         R"(","metadata":{"name":")" + name +
         R"("},"spec":{"selector":{"matchLabels":)" + labels +
         R"(},"template":{"metadata":{"labels":)" + labels +
         R"(},"spec":{"containers":[)"
         R"({"name":"coredns","image":"registry.k8s.io/coredns/coredns:v1.11.1",)"
         R"("resources":{"requests":{"cpu":"100m"},"limits":{"memory":"1Gi"}}},)"
         R"({"name":"sidecar","image":"registry.k8s.io/pause:3.9"}]}}}})";
}

class VerticalRealServerTest : public RealServerTest {
 protected:
  void CreateWorkload(const std::string& collection, const std::string& kind,
                      const std::string& name) {
    Result<std::string> created =
        AdminCall(cluster(), "POST",
                  "/apis/apps/v1/namespaces/" + ns() + "/" + collection,
                  WorkloadJson(kind, name));
    ASSERT_TRUE(created.ok()) << created.status().message();
  }

  // The container's side.resource as the server stores it; "" when unset.
  std::string Resource(const std::string& collection, const std::string& name,
                       const std::string& container, const std::string& side,
                       const std::string& resource) {
    Result<std::string> body = AdminCall(
        cluster(), "GET",
        "/apis/apps/v1/namespaces/" + ns() + "/" + collection + "/" + name);
    if (!body.ok()) return "";
    rapidjson::Document doc;
    doc.Parse(body->c_str());
    for (const auto& c :
         doc["spec"]["template"]["spec"]["containers"].GetArray()) {
      if (c["name"].GetString() != container) continue;
      if (!c.HasMember("resources") || !c["resources"].HasMember(side.c_str()))
        return "";
      const auto& list = c["resources"][side.c_str()];
      return list.HasMember(resource.c_str())
                 ? list[resource.c_str()].GetString()
                 : "";
    }
    return "";
  }

  ::testing::AssertionResult WaitForResource(const std::string& collection,
                                             const std::string& name,
                                             const std::string& side,
                                             const std::string& resource,
                                             const std::string& want,
                                             const e2e::Process& propscaler) {
    std::string seen;
    if (e2e::WaitUntil(
            [&] {
              seen = Resource(collection, name, "coredns", side, resource);
              return seen == want;
            },
            seconds(20))) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << collection << "/" << name << " coredns " << side << "."
           << resource << " is \"" << seen << "\", not \"" << want << "\"\n"
           << propscaler.Output();
  }
};

// 100m + 10m per node and 50Mi + 1Mi per node, on this test's nodes.
constexpr char kConfig[] =
    R"({"coredns":{"requests":{"cpu":{"base":"100m","step":"10m","nodesPerStep":1},)"
    R"("memory":{"base":"50Mi","step":"1Mi","nodesPerStep":1}}}})";

TEST_F(VerticalRealServerTest, DeployRbacIsEnoughAndOtherFieldsStay) {
  GrantRbac("coredns-vertical-autoscaler", {kDeployRbac});
  AddNodes(0, 3);
  CreateWorkload("deployments", "Deployment", "coredns");
  auto propscaler =
      StartWithToken({"--mode=vertical", "--target=deployment/coredns",
                      "--nodelabels=" + NodeLabel(), "--poll-period-seconds=60",
                      "--resize-threshold-percent=0", "--v=2",
                      std::string("--default-config=") + kConfig});
  ASSERT_TRUE(WaitForResource("deployments", "coredns", "requests", "cpu",
                              "130m", *propscaler));
  // 53Mi as CPVA writes it (decimal bytes); the server keeps that form.
  ASSERT_TRUE(WaitForResource("deployments", "coredns", "requests", "memory",
                              "55574528", *propscaler));
  EXPECT_EQ(Resource("deployments", "coredns", "coredns", "limits", "memory"),
            "1Gi");
  // A node watched, not polled: the change lands well within the minute.
  AddNodes(3, 2);
  ASSERT_TRUE(WaitForResource("deployments", "coredns", "requests", "cpu",
                              "150m", *propscaler));
  // The server shows the patch before the process logs its answer.
  const std::string patched = "API request PATCH /apis/apps/v1/namespaces/" +
                              ns() + "/deployments/coredns: 200";
  EXPECT_TRUE(e2e::WaitUntil(
      [&] { return CountOf(propscaler->Output(), patched) >= 2; }, seconds(10)))
      << propscaler->Output();
  const std::string log = propscaler->Output();
  EXPECT_EQ(CountOf(log, "HTTP 403"), 0) << log;
  EXPECT_EQ(CountOf(log, "is forbidden: User"), 0) << log;
  // The target is watched: never read with a GET.
  EXPECT_EQ(CountOf(log, "API request GET /apis/apps/v1/namespaces/" + ns() +
                             "/deployments/coredns:"),
            0)
      << log;
  EXPECT_NE(log.find("resizing deployment/coredns: coredns requests.cpu "
                     "130m -> 150m"),
            std::string::npos)
      << log;
  Result<std::string> events =
      AdminCall(cluster(), "GET", "/api/v1/namespaces/" + ns() + "/events");
  ASSERT_TRUE(events.ok());
  EXPECT_NE(events->find("ResizedContainers"), std::string::npos) << *events;
  EXPECT_TRUE(propscaler->Running()) << log;
}

// --resize=in-place on this 1.20 server, which has no pods/resize (1.33+):
// found at start from its discovery, said once in the log and in an Event,
// and the template is patched instead, under deploy/vertical-in-place's
// RBAC with no call refused.
TEST_F(VerticalRealServerTest, InPlaceFindsNoPodsResizeAndPatchesTheTemplate) {
  GrantRbac("coredns-vertical-autoscaler",
            {kDeployRbac, "deploy/vertical-in-place/rbac.yaml"});
  AddNodes(0, 3);
  CreateWorkload("deployments", "Deployment", "coredns");
  auto propscaler =
      StartWithToken({"--mode=vertical", "--target=deployment/coredns",
                      "--nodelabels=" + NodeLabel(), "--poll-period-seconds=60",
                      "--resize=in-place", "--v=2",
                      std::string("--default-config=") + kConfig});
  ASSERT_TRUE(WaitForResource("deployments", "coredns", "requests", "cpu",
                              "130m", *propscaler));
  EXPECT_TRUE(e2e::WaitUntil(
      [&] {
        Result<std::string> events = AdminCall(
            cluster(), "GET", "/api/v1/namespaces/" + ns() + "/events");
        return events.ok() &&
               events->find("InPlaceResizeUnavailable") != std::string::npos;
      },
      seconds(10)));
  const std::string log = propscaler->Output();
  EXPECT_EQ(CountOf(log, "does not serve pods/resize"), 1) << log;
  EXPECT_EQ(CountOf(log, "HTTP 403"), 0) << log;
  EXPECT_EQ(CountOf(log, "is forbidden: User"), 0) << log;
  EXPECT_TRUE(propscaler->Running()) << log;
}

// Two replicas under deploy/vertical/rbac.yaml with --leader-elect: only the
// holder of the Lease resizes; killed, the other takes over and resizes.
TEST_F(VerticalRealServerTest, TwoReplicasResizeFromOneLeader) {
  GrantRbac("coredns-vertical-autoscaler", {kDeployRbac});
  AddNodes(0, 3);
  CreateWorkload("deployments", "Deployment", "coredns");
  constexpr char kLease[] = "coredns-vertical-autoscaler";
  auto start = [&] {
    return StartWithToken(
        {"--mode=vertical", "--target=deployment/coredns",
         "--nodelabels=" + NodeLabel(), "--poll-period-seconds=60",
         "--resize-threshold-percent=0",
         std::string("--default-config=") + kConfig, "--leader-elect",
         std::string("--leader-elect-resource-name=") + kLease,
         "--leader-elect-lease-duration=3s", "--leader-elect-renew-deadline=2s",
         "--leader-elect-retry-period=500ms"});
  };
  auto first = start();
  std::string holder;
  ASSERT_TRUE(e2e::WaitUntil(
      [&] {
        Result<std::string> read = LeaseHolder(cluster(), ns(), kLease);
        holder = read.ok() ? *read : "";
        return !holder.empty();
      },
      seconds(20)))
      << first->Output();
  auto second = start();
  ASSERT_TRUE(WaitForResource("deployments", "coredns", "requests", "cpu",
                              "130m", *first));
  EXPECT_NE(first->Output().find(" as " + holder + ":"), std::string::npos)
      << "the first replica leads\n"
      << first->Output();
  first->Signal(SIGKILL);
  AddNodes(3, 2);
  ASSERT_TRUE(WaitForResource("deployments", "coredns", "requests", "cpu",
                              "150m", *second));
  Result<std::string> now = LeaseHolder(cluster(), ns(), kLease);
  ASSERT_TRUE(now.ok());
  EXPECT_NE(*now, holder);
  EXPECT_NE(second->Output().find(" as " + *now + ":"), std::string::npos)
      << second->Output();
  EXPECT_EQ(CountOf(second->Output(), "is forbidden: User"), 0)
      << second->Output();
}

TEST_F(VerticalRealServerTest, CpvaRbacDaemonSetFollowsTheConfigFile) {
  GrantRbac("cluster-proportional-vertical-autoscaler-example", {kCpvaRbac});
  AddNodes(0, 2);
  CreateWorkload("daemonsets", "DaemonSet", "coredns");
  const std::string file = Write(
      "config",
      R"({"coredns":{"limits":{"cpu":{"base":"1","step":"500m","coresPerStep":4}}}})");
  auto propscaler =
      StartWithToken({"--mode=vertical", "--target=daemonset/coredns",
                      "--nodelabels=" + NodeLabel(), "--poll-period-seconds=1",
                      "--config-file=" + file});
  // 8 cores: 1 + 0.5 * 2.
  ASSERT_TRUE(WaitForResource("daemonsets", "coredns", "limits", "cpu", "2",
                              *propscaler));
  {
    std::ofstream out(file + ".new");
    out << R"({"coredns":{"limits":{"cpu":{"base":"3"}}}})";
  }
  ASSERT_EQ(std::rename((file + ".new").c_str(), file.c_str()), 0);
  ASSERT_TRUE(WaitForResource("daemonsets", "coredns", "limits", "cpu", "3",
                              *propscaler));
  // Under CPVA's RBAC: nodes listed every cycle, the target patched blind.
  const std::string log = propscaler->Output();
  EXPECT_NE(log.find("listing nodes every cycle"), std::string::npos) << log;
  EXPECT_NE(log.find("whenever the computed resources change"),
            std::string::npos)
      << log;
  EXPECT_EQ(Resource("daemonsets", "coredns", "coredns", "requests", "cpu"),
            "100m");
  EXPECT_TRUE(propscaler->Running()) << log;
  // Ten more polls: the refused GET of the target, watch of the nodes and
  // Event are not sent again (the server's audit log counts them).
  std::this_thread::sleep_for(seconds(10));
  const std::map<std::string, int> refused = Refusals();
  EXPECT_TRUE(NoKindRefusedMoreThanTwice()) << propscaler->Output();
  EXPECT_EQ(refused.count("get daemonsets"), 1u) << propscaler->Output();
}

// CPVA's drop-in details: --target in any case (CPVA lower-cases the whole
// flag) and a --config-file invalid at start (CPVA logs it and applies
// --default-config).
TEST_F(VerticalRealServerTest, CpvaTargetCaseAndAnInvalidConfigFileAtStart) {
  GrantRbac("cluster-proportional-vertical-autoscaler-example", {kCpvaRbac});
  AddNodes(0, 2);
  CreateWorkload("daemonsets", "DaemonSet", "app-main");
  const std::string file = Write("config", "{not json");
  auto propscaler = StartWithToken(
      {"--mode=vertical", "--target=DAEMONSET/App-Main",
       "--nodelabels=" + NodeLabel(), "--poll-period-seconds=1",
       "--config-file=" + file, std::string("--default-config=") + kConfig});
  // 100m + 10m per node on 2 nodes.
  ASSERT_TRUE(WaitForResource("daemonsets", "app-main", "requests", "cpu",
                              "120m", *propscaler));
  EXPECT_NE(propscaler->Output().find("applying --default-config until it is "
                                      "valid"),
            std::string::npos)
      << propscaler->Output();
  EXPECT_TRUE(NoKindRefusedMoreThanTwice()) << propscaler->Output();
}

}  // namespace
}  // namespace propscaler::envtest
