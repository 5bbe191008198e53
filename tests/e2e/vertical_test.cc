// Vertical mode end to end: the real binary against the simulated server,
// sizing a Deployment's and a DaemonSet's containers as
// cluster-proportional-vertical-autoscaler would, and following the nodes
// and the config file.
#include <rapidjson/document.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>

#include "e2e/chromium.h"
#include "e2e/prometheus.h"
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

// 100m + 10m per node; 50Mi + 1Mi per node.
constexpr char kDnsConfig[] =
    R"({"dns":{"requests":{"cpu":{"base":"100m","step":"10m","nodesPerStep":1},)"
    R"("memory":{"base":"50Mi","step":"1Mi","nodesPerStep":1}}}})";

std::string WorkloadJson(const std::string& kind, const std::string& name) {
  return R"({"apiVersion":"apps/v1","kind":")" + kind +
         R"(","metadata":{"name":")" + name +
         R"("},"spec":{"selector":{"matchLabels":{"app":")" + name +
         R"("}},"template":{"metadata":{"labels":{"app":")" + name +
         R"("}},"spec":{"containers":[)"
         R"({"name":"dns","image":"dns:1","resources":{"requests":{"cpu":"100m"},"limits":{"memory":"1Gi"}}},)"
         R"({"name":"sidecar","image":"sidecar:1"}]}}}})";
}

class VerticalModeTest : public ReplicaClusterTest {
 protected:
  void CreateTargets() {
    ASSERT_TRUE(server_
                    .CreateObject("/apis/apps/v1/namespaces/kube-system/"
                                  "deployments",
                                  WorkloadJson("Deployment", "dns"))
                    .ok());
    ASSERT_TRUE(server_
                    .CreateObject("/apis/apps/v1/namespaces/kube-system/"
                                  "daemonsets",
                                  WorkloadJson("DaemonSet", "agent"))
                    .ok());
  }

  std::vector<std::string> VerticalArgs(const std::string& target) const {
    return {"--mode=vertical",
            "--kubeconfig=" + kubeconfig_,
            std::string("--namespace=") + kNamespace,
            "--target=" + target,
            "--poll-period-seconds=1",
            "--healthz-port=0"};
  }

  // One --once run with the kubeconfig and namespace; the exit code (-1 if
  // it hung).
  int RunOnceWith(std::vector<std::string> args,
                  std::string* output = nullptr) {
    args.insert(args.begin(), {"--kubeconfig=" + kubeconfig_,
                               std::string("--namespace=") + kNamespace,
                               "--healthz-port=0", "--once"});
    Process process(PropscalerBinary(), args);
    std::optional<int> code = process.WaitForExit(std::chrono::seconds(30));
    if (output != nullptr) *output = process.Output();
    return code.value_or(-1);
  }

  std::unique_ptr<Process> StartVertical(const std::string& target,
                                         std::vector<std::string> extra) {
    std::vector<std::string> args = VerticalArgs(target);
    args.insert(args.end(), extra.begin(), extra.end());
    return std::make_unique<Process>(PropscalerBinary(), args);
  }

  // A propscaler serving on `port` that sizes the dns Deployment by the
  // default config, once it has set the dns container's cpu request.
  std::unique_ptr<Process> StartSizingDns(int port) {
    StartServer();
    CreateTargets();
    std::unique_ptr<Process> process = StartVertical(
        "deployment/dns", {"--healthz-port=" + std::to_string(port),
                           std::string("--default-config=") + kDnsConfig});
    EXPECT_TRUE(
        WaitForResource(kDns, "dns", "requests", "cpu", "140m", process.get()));
    return process;
  }

  // "requests.cpu" of container `container` of the workload at `path`, or
  // "" when unset or unreadable.
  std::string Resource(const std::string& path, const std::string& container,
                       const std::string& side,
                       const std::string& resource) const {
    std::optional<std::string> json = server_.GetObject(path);
    if (!json) return "";
    rapidjson::Document doc;
    doc.Parse(json->c_str());
    const auto& containers = doc["spec"]["template"]["spec"]["containers"];
    for (const auto& c : containers.GetArray()) {
      if (std::string(c["name"].GetString()) != container) continue;
      if (!c.HasMember("resources") || !c["resources"].HasMember(side.c_str()))
        return "";
      const auto& list = c["resources"][side.c_str()];
      if (!list.HasMember(resource.c_str())) return "";
      return list[resource.c_str()].GetString();
    }
    return "";
  }

  ::testing::AssertionResult WaitForResource(const std::string& path,
                                             const std::string& container,
                                             const std::string& side,
                                             const std::string& resource,
                                             const std::string& want,
                                             Process* process) const {
    std::string seen;
    if (WaitUntil(
            [&] {
              seen = Resource(path, container, side, resource);
              return seen == want;
            },
            std::chrono::seconds(20))) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << path << " " << container << " " << side << "." << resource
           << " is \"" << seen << "\", not \"" << want << "\"\n"
           << (process ? process->Output() : "");
  }

  // A Running pod of the dns Deployment on `node`, at the template's size,
  // as its kubelet reports it.
  void CreateDnsPod(const std::string& name, const std::string& node) {
    ASSERT_TRUE(
        server_
            .CreateObject(
                "/api/v1/namespaces/kube-system/pods",
                R"({"metadata":{"name":")" + name +
                    R"(","labels":{"app":"dns"}},"spec":{"nodeName":")" + node +
                    R"(","containers":[{"name":"dns","image":"dns:1",)"
                    R"("resources":{"requests":{"cpu":"100m"},"limits":{"memory":"1Gi"}}},)"
                    R"({"name":"sidecar","image":"sidecar:1"}]},)"
                    R"("status":{"phase":"Running","containerStatuses":[)"
                    R"({"name":"dns","resources":{"requests":{"cpu":"100m"},"limits":{"memory":"1Gi"}}},)"
                    R"({"name":"sidecar","resources":{}}]}})")
            .ok());
  }
  // The dns container's cpu request of pod `name`: asked (spec) or applied
  // (status).
  std::string PodCpu(const std::string& name, bool applied = false) const {
    std::optional<std::string> json =
        server_.GetObject("/api/v1/namespaces/kube-system/pods/" + name);
    if (!json) return "";
    rapidjson::Document doc;
    doc.Parse(json->c_str());
    const auto& c = applied ? doc["status"]["containerStatuses"][0]
                            : doc["spec"]["containers"][0];
    return c["resources"]["requests"].HasMember("cpu")
               ? c["resources"]["requests"]["cpu"].GetString()
               : "";
  }

  static constexpr char kDns[] =
      "/apis/apps/v1/namespaces/kube-system/deployments/dns";
  static constexpr char kAgent[] =
      "/apis/apps/v1/namespaces/kube-system/daemonsets/agent";
};

TEST_F(VerticalModeTest, SizesTheDeploymentAndFollowsTheNodes) {
  StartServer();
  CreateTargets();
  auto process = StartVertical("deployment/dns",
                               {std::string("--default-config=") + kDnsConfig,
                                "--resize-threshold-percent=0"});
  // 4 nodes: 140m and 54Mi (as CPVA writes it, in decimal bytes).
  EXPECT_TRUE(
      WaitForResource(kDns, "dns", "requests", "cpu", "140m", process.get()));
  EXPECT_TRUE(WaitForResource(kDns, "dns", "requests", "memory", "56623104",
                              process.get()));
  // What propscaler does not own stays: the limit, the other container.
  EXPECT_EQ(Resource(kDns, "dns", "limits", "memory"), "1Gi");
  std::optional<std::string> json = server_.GetObject(kDns);
  ASSERT_TRUE(json);
  EXPECT_NE(json->find("sidecar:1"), std::string::npos);

  AddNodes(2);
  EXPECT_TRUE(
      WaitForResource(kDns, "dns", "requests", "cpu", "160m", process.get()));

  // The Event is posted after the patch: wait for it.
  EXPECT_TRUE(WaitUntil(
      [&] {
        for (const std::string& event : server_.Events(kNamespace)) {
          if (event.find("ResizedContainers") != std::string::npos &&
              event.find("dns requests.cpu 140m -> 160m") !=
                  std::string::npos &&
              event.find("nodes 6, cores 24") != std::string::npos) {
            return true;
          }
        }
        return false;
      },
      std::chrono::seconds(10)));
  process->Signal(SIGTERM);
  EXPECT_EQ(process->WaitForExit(std::chrono::seconds(10)), 0);
  EXPECT_NE(process->Output().find("resizing deployment/dns: dns "
                                   "requests.cpu 140m -> 160m"),
            std::string::npos)
      << process->Output();
}

TEST_F(VerticalModeTest, DaemonSetFollowsAnEditedConfigFile) {
  StartServer();
  CreateTargets();
  const std::string file = dir_.Write(
      "config",
      R"({"dns":{"limits":{"cpu":{"base":"1","step":"500m","coresPerStep":8}}}})");
  auto process = StartVertical("daemonset/agent", {"--config-file=" + file});
  // 16 cores: 1 + 0.5 * 2.
  EXPECT_TRUE(
      WaitForResource(kAgent, "dns", "limits", "cpu", "2", process.get()));
  {
    std::ofstream out(file + ".new");
    out << R"({"dns":{"limits":{"cpu":{"base":"3"}}}})";
  }
  ASSERT_EQ(std::rename((file + ".new").c_str(), file.c_str()), 0);
  EXPECT_TRUE(
      WaitForResource(kAgent, "dns", "limits", "cpu", "3", process.get()));
}

TEST_F(VerticalModeTest, CountsEveryNodeAsCpvaUnlessAskedOtherwise) {
  StartServer();
  CreateTargets();
  ASSERT_TRUE(server_.CreateNode(NodeJson("cordoned", "4", true, true)).ok());
  ASSERT_TRUE(server_.CreateNode(NodeJson("not-ready", "4", false)).ok());
  const std::string config =
      R"({"dns":{"requests":{"cpu":{"base":"0","step":"1","nodesPerStep":1}}}})";
  EXPECT_EQ(RunOnceWith({"--mode=vertical", "--target=deployment/dns",
                         "--default-config=" + std::string(config)}),
            0);
  EXPECT_EQ(Resource(kDns, "dns", "requests", "cpu"), "6");
  EXPECT_EQ(RunOnceWith({"--mode=vertical", "--target=deployment/dns",
                         "--default-config=" + std::string(config),
                         "--schedulable-nodes-only"}),
            0);
  EXPECT_EQ(Resource(kDns, "dns", "requests", "cpu"), "4");
}

TEST_F(VerticalModeTest, AContainerTheTemplateLacksFailsTheCycleByName) {
  StartServer();
  CreateTargets();
  std::string output;
  EXPECT_EQ(
      RunOnceWith(
          {"--mode=vertical", "--target=deployment/dns",
           R"(--default-config={"dnss":{"requests":{"cpu":{"base":"1"}}}})"},
          &output),
      1);
  EXPECT_NE(output.find("container dnss is not in the pod template (it has "
                        "dns, sidecar)"),
            std::string::npos)
      << output;
}

TEST_F(VerticalModeTest, AWatchedConfigMapIsFollowedWithinASecond) {
  StartServer();
  CreateTargets();
  ASSERT_TRUE(
      server_
          .PutConfigMap(
              kNamespace, "dns-sizing",
              {{"dns-sizing", R"({"dns":{"requests":{"cpu":{"base":"1"}}}})"}})
          .ok());
  auto process = StartVertical(
      "deployment/dns", {"--configmap=dns-sizing", "--poll-period-seconds=60"});
  EXPECT_TRUE(
      WaitForResource(kDns, "dns", "requests", "cpu", "1", process.get()));
  const auto edited = std::chrono::steady_clock::now();
  ASSERT_TRUE(
      server_
          .PutConfigMap(
              kNamespace, "dns-sizing",
              {{"dns-sizing", R"({"dns":{"requests":{"cpu":{"base":"2"}}}})"}})
          .ok());
  EXPECT_TRUE(
      WaitForResource(kDns, "dns", "requests", "cpu", "2", process.get()));
  EXPECT_LT(std::chrono::steady_clock::now() - edited, std::chrono::seconds(5))
      << "followed from the watch, not the 60 s poll";
  // An invalid edit keeps the last valid config and says why.
  ASSERT_TRUE(server_
                  .PutConfigMap(kNamespace, "dns-sizing",
                                {{"dns-sizing", R"({"dns":{"requests":[]}})"}})
                  .ok());
  EXPECT_TRUE(WaitUntil(
      [&] {
        return process->Output().find("keeping the last valid config") !=
               std::string::npos;
      },
      std::chrono::seconds(10)))
      << process->Output();
  EXPECT_EQ(Resource(kDns, "dns", "requests", "cpu"), "2");
}

// The /status page in a browser draws what it set over time: the dns
// container's cpu request (100m as created, then 140m) and the 4 nodes it
// counted, with a mark at the resize.
TEST_F(VerticalModeTest, StatusPageDrawsTheResourcesItSetInABrowser) {
  const int port = FreePort();
  std::unique_ptr<Process> process = StartSizingDns(port);
  TempDir browser;
  const std::string url =
      "http://127.0.0.1:" + std::to_string(port) + "/status";
  std::string dom;
  EXPECT_TRUE(WaitUntil(
      [&] {
        dom = ChromiumDom(browser, url);
        return HasPictureLine(dom, "dns requests.cpu", "100 140");
      },
      std::chrono::seconds(30)))
      << dom << process->Output();
  EXPECT_TRUE(HasPictureLine(dom, "nodes", "4")) << dom;
  EXPECT_NE(dom.find("data-mark=\"set dns requests.cpu 100m -&gt; 140m"),
            std::string::npos)
      << dom;
  EXPECT_NE(dom.find("cpu (millicores) (UTC)"), std::string::npos) << dom;
}

TEST_F(VerticalModeTest, ServesHealthMetricsAndStatus) {
  const int port = FreePort();
  std::unique_ptr<Process> process = StartSizingDns(port);
  httplib::Result healthz = HealthGet(port, "/healthz");
  ASSERT_TRUE(healthz) << process->Output();
  EXPECT_EQ(healthz->status, 200);
  // The cycle records what it wrote once the write is back: poll.
  const std::string computed =
      "propscaler_vertical_computed{container=\"dns\",side=\"requests\","
      "resource=\"cpu\"} 0.14";
  std::string metrics;
  EXPECT_TRUE(WaitUntil(
      [&] {
        httplib::Result got = HealthGet(port, "/metrics");
        if (got) metrics = got->body;
        return metrics.find(computed) != std::string::npos;
      },
      std::chrono::seconds(10)))
      << metrics;
  EXPECT_NE(metrics.find("propscaler_vertical_nodes 4"), std::string::npos);
  int status_code = 0;
  std::string status;
  EXPECT_TRUE(WaitUntil(
      [&] {
        httplib::Result got = HealthGet(port, "/status");
        if (!got) return false;
        status_code = got->status;
        status = got->body;
        return status.find("dns requests.cpu 100m -&gt; 140m") !=
               std::string::npos;
      },
      std::chrono::seconds(10)))
      << status;
  EXPECT_EQ(status_code, 200);
  EXPECT_NE(status.find("deployment/dns"), std::string::npos);
  EXPECT_NE(status.find("requests.cpu"), std::string::npos);
  httplib::Result last_poll = HealthGet(port, "/last-poll");
  ASSERT_TRUE(last_poll);
  EXPECT_EQ(last_poll->status, 200) << last_poll->body;
}

// Every panel of the shipped vertical-mode dashboard has data.
TEST_F(VerticalModeTest, TheShippedDashboardsQueriesHaveData) {
  const int port = FreePort();
  std::unique_ptr<Process> process = StartSizingDns(port);
  const std::vector<std::string> queries =
      DashboardQueries("propscaler-vertical");
  ASSERT_FALSE(queries.empty());
  EXPECT_TRUE(PrometheusScrapes(port, queries)) << process->Report();
}

TEST_F(VerticalModeTest, PrometheusScrapesTheDocumentedSeries) {
  const int port = FreePort();
  std::unique_ptr<Process> process = StartSizingDns(port);
  EXPECT_TRUE(PrometheusScrapes(
      port, {"up{job=\"propscaler\"} == 1",
             "propscaler_vertical_computed{container=\"dns\",side="
             "\"requests\",resource=\"cpu\"} == 0.14",
             "propscaler_vertical_nodes == 4",
             "propscaler_last_successful_cycle_timestamp_seconds > 0",
             "propscaler_build_info == 1", "process_open_fds > 0"}))
      << process->Report();
}

TEST_F(VerticalModeTest, DryRunWritesNothing) {
  StartServer();
  CreateTargets();
  std::string output;
  EXPECT_EQ(
      RunOnceWith({"--mode=vertical", "--target=deployment/dns", "--dry-run",
                   std::string("--default-config=") + kDnsConfig},
                  &output),
      0);
  EXPECT_NE(output.find("dry run: would resize deployment/dns: dns "
                        "requests.cpu 100m -> 140m"),
            std::string::npos)
      << output;
  EXPECT_EQ(Resource(kDns, "dns", "requests", "cpu"), "100m");
  EXPECT_EQ(Resource(kDns, "dns", "requests", "memory"), "");
}

// CPVA's manifests run /cpvpa with CPVA's flags and no --mode: the image's
// /cpvpa link (deploy/Dockerfile) is vertical mode, and so are CPVA's config
// flags on the propscaler binary itself.
TEST_F(VerticalModeTest, CpvaCommandLinesNeedNoModeFlag) {
  StartServer();
  CreateTargets();
  const std::string cpvpa = dir_.path() + "/cpvpa";
  ASSERT_EQ(symlink(PropscalerBinary().c_str(), cpvpa.c_str()), 0);
  const std::vector<std::string> cpva_flags = {
      "--kubeconfig=" + kubeconfig_,
      std::string("--namespace=") + kNamespace,
      "--target=daemonset/agent",
      "--healthz-port=0",
      "--once",
      "--logtostderr=true",
      "--v=2",
      R"(--default-config={"dns":{"requests":{"cpu":{"base":"1","step":"1","nodesPerStep":2}}}})"};
  Process linked(cpvpa, cpva_flags);
  EXPECT_EQ(linked.WaitForExit(std::chrono::seconds(30)), 0) << linked.Output();
  EXPECT_EQ(Resource(kAgent, "dns", "requests", "cpu"), "3");

  std::vector<std::string> file_flags = cpva_flags;
  file_flags.back() =
      "--config-file=" +
      dir_.Write("config", R"({"dns":{"requests":{"cpu":{"base":"2"}}}})");
  Process direct(PropscalerBinary(), file_flags);
  EXPECT_EQ(direct.WaitForExit(std::chrono::seconds(30)), 0) << direct.Output();
  EXPECT_EQ(Resource(kAgent, "dns", "requests", "cpu"), "2");
}

// --resize=in-place: the Deployment's running pods are resized through
// pods/resize and its template is left as it is.
TEST_F(VerticalModeTest, InPlaceResizesTheRunningPodsNotTheTemplate) {
  StartServer();
  CreateTargets();
  CreateDnsPod("dns-a", "node-0");
  CreateDnsPod("dns-b", "node-1");
  auto process = StartVertical(
      "deployment/dns",
      {std::string("--default-config=") + kDnsConfig, "--resize=in-place"});
  for (const char* pod : {"dns-a", "dns-b"}) {
    EXPECT_TRUE(
        WaitUntil([&] { return PodCpu(pod, /*applied=*/true) == "140m"; },
                  std::chrono::seconds(20)))
        << pod << " " << PodCpu(pod) << "\n"
        << process->Output();
  }
  AddNodes(2);
  for (const char* pod : {"dns-a", "dns-b"}) {
    EXPECT_TRUE(
        WaitUntil([&] { return PodCpu(pod, /*applied=*/true) == "160m"; },
                  std::chrono::seconds(20)))
        << pod << " " << PodCpu(pod) << "\n"
        << process->Output();
  }
  EXPECT_EQ(Resource(kDns, "dns", "requests", "cpu"), "100m");
  EXPECT_TRUE(WaitUntil(
      [&] {
        for (const std::string& event : server_.Events(kNamespace)) {
          if (event.find("ResizedPodInPlace") != std::string::npos &&
              event.find("pod dns-b: set dns requests.cpu 140m -> 160m") !=
                  std::string::npos) {
            return true;
          }
        }
        return false;
      },
      std::chrono::seconds(10)));
  process->Signal(SIGTERM);
  EXPECT_EQ(process->WaitForExit(std::chrono::seconds(10)), 0);
  EXPECT_NE(process->Output().find("resizing pod kube-system/dns-a of "
                                   "deployment/dns in place: dns "
                                   "requests.cpu 100m -> 140m"),
            std::string::npos)
      << process->Output();
}

// With --once, a run takes one step: one pod resized, the next run the
// other.
TEST_F(VerticalModeTest, InPlaceOnceResizesOnePodARun) {
  StartServer();
  CreateTargets();
  CreateDnsPod("dns-a", "node-0");
  CreateDnsPod("dns-b", "node-1");
  const std::vector<std::string> args = {
      "--mode=vertical", "--target=deployment/dns", "--resize=in-place",
      std::string("--default-config=") + kDnsConfig};
  std::string output;
  EXPECT_EQ(RunOnceWith(args, &output), 0) << output;
  EXPECT_EQ(PodCpu("dns-a"), "140m") << output;
  EXPECT_EQ(PodCpu("dns-b"), "100m") << output;
  EXPECT_EQ(RunOnceWith(args, &output), 0) << output;
  EXPECT_EQ(PodCpu("dns-b"), "140m") << output;
  EXPECT_EQ(Resource(kDns, "dns", "requests", "cpu"), "100m");
}

// A server without pods/resize (before 1.33) is found at start and said
// once; the template is patched instead.
TEST_F(VerticalModeTest, InPlaceOnAServerWithoutPodsResizePatchesTheTemplate) {
  sim::FakeApiServerOptions options;
  options.pod_resize = false;
  StartServer(options);
  CreateTargets();
  CreateDnsPod("dns-a", "node-0");
  auto process = StartVertical(
      "deployment/dns",
      {std::string("--default-config=") + kDnsConfig, "--resize=in-place"});
  EXPECT_TRUE(
      WaitForResource(kDns, "dns", "requests", "cpu", "140m", process.get()));
  EXPECT_EQ(PodCpu("dns-a"), "100m");
  EXPECT_TRUE(WaitUntil(
      [&] {
        for (const std::string& event : server_.Events(kNamespace)) {
          if (event.find("InPlaceResizeUnavailable") != std::string::npos) {
            return true;
          }
        }
        return false;
      },
      std::chrono::seconds(10)));
  process->Signal(SIGTERM);
  EXPECT_EQ(process->WaitForExit(std::chrono::seconds(10)), 0);
  EXPECT_NE(process->Output().find("does not serve pods/resize"),
            std::string::npos)
      << process->Output();
}

TEST_F(VerticalModeTest, BadFlagsExitTwoAndSayWhatIsWrong) {
  StartServer();
  struct Case {
    std::vector<std::string> args;
    const char* message;
  };
  for (const Case& c : {
           Case{{"--target=deployments/dns", "--default-config={}"},
                "has unsupported kind \"deployments\""},
           Case{{"--target=deployment/dns"},
                "either --default-config or --config-file must be specified"},
           Case{{"--target=deployment/dns",
                 R"(--default-config={"a":{"requests":{"cpu":{"base":"x"}}}})"},
                "--default-config: a.requests.cpu.base: quantity \"x\""},
           Case{{"--target=deployment/dns", "--default-config={}",
                 "--poll-period-seconds=0"},
                "--poll-period-seconds cannot be less than 1"},
           Case{{"--target=deployment/dns", "--default-config={}",
                 "--resize=sideways"},
                "--resize must be rollout or in-place, got \"sideways\""},
       }) {
    std::vector<std::string> args = {"--mode=vertical"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    std::string output;
    EXPECT_EQ(RunOnceWith(args, &output), 2) << output;
    EXPECT_NE(output.find(c.message), std::string::npos) << output;
  }
}

}  // namespace
}  // namespace propscaler::e2e
