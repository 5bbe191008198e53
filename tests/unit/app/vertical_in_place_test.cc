// Vertical mode's --resize=in-place against the in-memory cluster (whose
// pods/resize plays the kubelet's answer: apiserver/pod_resize.h), in
// virtual time: the running pods resized one by one without touching a
// deployment's template, a new pod resized as it appears, Infeasible and
// Deferred falling back to the rollout with an Event, a server without
// pods/resize, a rollout waited for, and an OnDelete statefulset whose
// template is patched too.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <atomic>
#include <string>
#include <thread>

#include "apiserver/store_objects.h"
#include "app/vertical_parts.h"
#include "memcluster/vertical_scenario.h"

namespace propscaler {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

constexpr char kNamespace[] = "kube-system";
constexpr char kDeployment[] =
    "/apis/apps/v1/namespaces/kube-system/deployments/dns";
constexpr char kPods[] = "/api/v1/namespaces/kube-system/pods";

class VerticalInPlaceTest : public memcluster::VerticalScenario {
 protected:
  void SetUp() override {
    CreateWorkload("deployments", "dns", "");
    UseConfig("100m", "10m");  // 100m plus 10m per node
    options_.namespace_ = kNamespace;
    options_.target = {kube::WorkloadRef::Kind::kDeployment, "dns"};
    options_.poll_period = seconds(10);
    options_.resize = ResizeMethod::kInPlace;
  }

  void CreateWorkload(const std::string& collection, const std::string& name,
                      const std::string& extra_spec) {
    ASSERT_TRUE(
        sim::CreateObject(
            cluster_.store(),
            "/apis/apps/v1/namespaces/kube-system/" + collection,
            R"({"metadata":{"name":")" + name + R"("},"spec":{)" + extra_spec +
                R"("selector":{"matchLabels":{"app":"dns"}},)"
                R"("template":{"metadata":{"labels":{"app":"dns"}},)"
                R"("spec":{"containers":[{"name":"dns","image":"dns:1",)"
                R"("resources":{"requests":{"cpu":"100m"}}}]}}}})")
            .ok());
  }

  void UseConfig(const std::string& base, const std::string& step) {
    Result<VerticalConfig> config = ParseVerticalConfig(
        R"({"dns":{"requests":{"cpu":{"base":")" + base + R"(","step":")" +
            step + R"(","nodesPerStep":1}}}})",
        "test");
    ASSERT_TRUE(config.ok()) << config.status().message();
    options_.default_config = *config;
  }

  // A Running pod on `node` requesting `cpu`, as its kubelet reports it.
  void AddPod(const std::string& name, const std::string& node,
              const std::string& cpu, const std::string& app = "dns") {
    ASSERT_TRUE(
        sim::CreateObject(
            cluster_.store(), kPods,
            R"({"metadata":{"name":")" + name + R"(","labels":{"app":")" + app +
                R"("}},"spec":{"nodeName":")" + node +
                R"(","containers":[{"name":"dns","image":"dns:1",)"
                R"("resources":{"requests":{"cpu":")" +
                cpu +
                R"("}}}]},"status":{"phase":"Running","containerStatuses":)"
                R"([{"name":"dns","resources":{"requests":{"cpu":")" +
                cpu + R"("}}}]}})")
            .ok());
  }

  rapidjson::Document Json(const std::string& path) {
    rapidjson::Document doc;
    doc.Parse(sim::GetObject(cluster_.store(), path).value_or("{}").c_str());
    return doc;
  }
  static std::string RequestedCpu(const rapidjson::Value& container) {
    if (!container.HasMember("resources")) return "";
    return container["resources"]["requests"]["cpu"].GetString();
  }
  // The pod's cpu request as asked (spec) and as applied (status).
  std::string PodCpu(const std::string& pod) {
    rapidjson::Document doc = Json(std::string(kPods) + "/" + pod);
    return RequestedCpu(doc["spec"]["containers"][0]);
  }
  std::string AppliedCpu(const std::string& pod) {
    rapidjson::Document doc = Json(std::string(kPods) + "/" + pod);
    return RequestedCpu(doc["status"]["containerStatuses"][0]);
  }
  std::string TemplateCpu(const std::string& path = kDeployment) {
    rapidjson::Document doc = Json(path);
    return RequestedCpu(doc["spec"]["template"]["spec"]["containers"][0]);
  }
  int EventsWith(const std::string& reason) {
    int found = 0;
    for (const std::string& event : sim::Events(cluster_.store(), kNamespace)) {
      found += event.find("\"" + reason + "\"") != std::string::npos;
    }
    return found;
  }
};

TEST_F(VerticalInPlaceTest, ResizesEachPodAndLeavesTheDeploymentsTemplate) {
  AddNodes(1, 3);
  for (int i = 1; i <= 3; ++i) {
    AddPod("dns-" + std::to_string(i), "node-" + std::to_string(i), "100m");
  }
  AddPod("other", "node-1", "100m", "other");
  Start();
  clock_.SleepFor(seconds(1));
  for (int i = 1; i <= 3; ++i) {
    const std::string pod = "dns-" + std::to_string(i);
    EXPECT_EQ(PodCpu(pod), "130m") << pod;
    EXPECT_EQ(AppliedCpu(pod), "130m") << pod;
  }
  EXPECT_EQ(PodCpu("other"), "100m") << "a pod the target does not select";
  EXPECT_EQ(TemplateCpu(), "100m") << "patching it would replace every pod";
  EXPECT_EQ(Calls("patch deployments"), 0);
  EXPECT_EQ(Calls("patch pods/resize"), 3);
  EXPECT_EQ(EventsWith("ResizedPodInPlace"), 3);

  // Two nodes more: 150m, each pod resized again; then an hour at rest
  // writes nothing.
  AddNodes(4, 2);
  clock_.SleepFor(seconds(1));
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(PodCpu("dns-" + std::to_string(i)), "150m");
  }
  clock_.SleepFor(hours(1));
  EXPECT_EQ(Calls("patch pods/resize"), 6);
  EXPECT_EQ(Calls("patch deployments"), 0);
  EXPECT_EQ(board_.Snapshot().in_place, "every pod has its size");
  ASSERT_TRUE(health_.LastCycle().has_value());
  EXPECT_TRUE(health_.LastCycle()->ok()) << health_.LastCycle()->message();
}

// A pod the deployment creates later starts at the template's size, and is
// resized within a second.
TEST_F(VerticalInPlaceTest, ANewPodIsResizedAsItAppears) {
  AddNodes(1, 2);
  AddPod("dns-1", "node-1", "100m");
  Start();
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(PodCpu("dns-1"), "120m");
  AddPod("dns-2", "node-2", "100m");
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(PodCpu("dns-2"), "120m");
  EXPECT_EQ(AppliedCpu("dns-2"), "120m");
  EXPECT_EQ(TemplateCpu(), "100m");
}

// 5 cores on nodes of 3.92: the kubelet answers Infeasible, and the new
// size goes to the template (the deployment's rollout), with a Warning.
TEST_F(VerticalInPlaceTest, InfeasibleFallsBackToTheRollout) {
  UseConfig("5", "0");
  AddNodes(1, 2);
  AddPod("dns-1", "node-1", "100m");
  AddPod("dns-2", "node-2", "100m");
  Start();
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(AppliedCpu("dns-1"), "100m");
  EXPECT_EQ(TemplateCpu(), "5");
  EXPECT_EQ(EventsWith("InPlaceResizeFallback"), 1);
  EXPECT_EQ(Calls("patch pods/resize"), 1) << "the walk stopped at dns-1";
  // It stays so, reported once, for an hour.
  clock_.SleepFor(hours(1));
  EXPECT_EQ(EventsWith("InPlaceResizeFallback"), 1);
  EXPECT_EQ(Calls("patch deployments"), 1);
  EXPECT_EQ(Calls("patch pods/resize"), 1);
  const VerticalStatus status = board_.Snapshot();
  EXPECT_NE(status.in_place_fallback.find("Infeasible"), std::string::npos)
      << status.in_place_fallback;
  // Both pods go; a new pod of dns-1's name meeting the same answer is
  // reported again.
  for (const char* pod : {"dns-2", "dns-1"}) {
    ASSERT_TRUE(cluster_.store()
                    .Delete(*sim::FindResourceType("pods"), kNamespace, pod, {})
                    .ok());
  }
  clock_.SleepFor(seconds(1));
  AddPod("dns-1", "node-1", "100m");
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(EventsWith("InPlaceResizeFallback"), 2);
}

// A Guaranteed pod (requests equal to limits) cannot have its cpu request
// raised alone: the API server refuses the resize (422), and the new size
// is rolled out instead, said once.
TEST_F(VerticalInPlaceTest, AResizeTheApiRefusesFallsBackToTheRollout) {
  AddNodes(1, 3);
  ASSERT_TRUE(
      sim::CreateObject(
          cluster_.store(), kPods,
          R"({"metadata":{"name":"dns-1","labels":{"app":"dns"}},)"
          R"("spec":{"nodeName":"node-1","containers":[{"name":"dns",)"
          R"("image":"dns:1","resources":{"requests":{"cpu":"100m","memory":"100Mi"},)"
          R"("limits":{"cpu":"100m","memory":"100Mi"}}}]},)"
          R"("status":{"phase":"Running"}})")
          .ok());
  Start();
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(PodCpu("dns-1"), "100m");
  EXPECT_EQ(TemplateCpu(), "130m");
  EXPECT_EQ(EventsWith("InPlaceResizeFallback"), 1);
  clock_.SleepFor(minutes(10));
  EXPECT_EQ(Calls("patch pods/resize"), 1) << "not asked again";
  EXPECT_NE(board_.Snapshot().in_place_fallback.find("Refused"),
            std::string::npos)
      << board_.Snapshot().in_place_fallback;
}

// No room on the node now: Deferred falls back too.
TEST_F(VerticalInPlaceTest, DeferredFallsBackToTheRollout) {
  AddNodes(1, 3);
  AddPod("dns-1", "node-1", "100m");
  AddPod("hog", "node-1", "3800m", "other");  // 3920m allocatable
  Start();
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(PodCpu("dns-1"), "130m") << "asked";
  EXPECT_EQ(AppliedCpu("dns-1"), "100m") << "not applied";
  EXPECT_EQ(TemplateCpu(), "130m");
  EXPECT_EQ(EventsWith("InPlaceResizeFallback"), 1);
}

TEST_F(VerticalInPlaceTest, WithoutPodsResizeTheTemplateIsPatched) {
  options_.pod_resize_served = false;
  AddNodes(1, 3);
  AddPod("dns-1", "node-1", "100m");
  Start();
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(TemplateCpu(), "130m");
  EXPECT_EQ(PodCpu("dns-1"), "100m");
  EXPECT_EQ(Calls("patch pods/resize"), 0);
  EXPECT_EQ(Calls("list pods"), 0) << "its pods are not even watched";
  AddNodes(4, 1);
  clock_.SleepFor(minutes(1));
  EXPECT_EQ(TemplateCpu(), "140m");
  EXPECT_EQ(EventsWith("InPlaceResizeUnavailable"), 1);
}

// While the deployment rolls out a template (its controller has not yet
// observed the newest generation), no pod is resized: the rollout replaces
// them.
TEST_F(VerticalInPlaceTest, NothingIsResizedWhileARolloutRuns) {
  ASSERT_TRUE(sim::PatchObject(cluster_.store(), kDeployment,
                               R"({"metadata":{"generation":3},)"
                               R"("status":{"observedGeneration":2}})")
                  .ok());
  AddNodes(1, 3);
  AddPod("dns-1", "node-1", "100m");
  Start();
  clock_.SleepFor(minutes(1));
  EXPECT_EQ(PodCpu("dns-1"), "100m");
  EXPECT_EQ(Calls("patch pods/resize"), 0);
  // Rolled out (every replica updated): resized within a second.
  ASSERT_TRUE(sim::PatchObject(cluster_.store(), kDeployment,
                               R"({"status":{"observedGeneration":3,)"
                               R"("updatedReplicas":1}})")
                  .ok());
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(PodCpu("dns-1"), "130m");
}

// A statefulset updated OnDelete does not replace its pods when its
// template changes: the template is patched (new pods start at the new
// size) and the running pods are resized in place.
TEST_F(VerticalInPlaceTest, AnOnDeleteStatefulSetGetsBoth) {
  CreateWorkload("statefulsets", "dns-set",
                 R"("updateStrategy":{"type":"OnDelete"},)");
  options_.target = {kube::WorkloadRef::Kind::kStatefulSet, "dns-set"};
  AddNodes(1, 3);
  AddPod("dns-set-0", "node-1", "100m");
  Start();
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(
      TemplateCpu("/apis/apps/v1/namespaces/kube-system/statefulsets/dns-set"),
      "130m");
  EXPECT_EQ(PodCpu("dns-set-0"), "130m");
  EXPECT_EQ(AppliedCpu("dns-set-0"), "130m");
}

// Where the template does not roll, a refused resize is answered by
// evicting the pod: its controller recreates it from the template, which
// already has the new size.
TEST_F(VerticalInPlaceTest, AnOnDeleteStatefulSetEvictsAPodThatCannotGrow) {
  CreateWorkload("statefulsets", "dns-set",
                 R"("updateStrategy":{"type":"OnDelete"},)");
  options_.target = {kube::WorkloadRef::Kind::kStatefulSet, "dns-set"};
  UseConfig("5", "0");
  AddNodes(1, 1);
  AddPod("dns-set-0", "node-1", "100m");
  Start();
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(
      TemplateCpu("/apis/apps/v1/namespaces/kube-system/statefulsets/dns-set"),
      "5");
  EXPECT_EQ(Calls("create pods/eviction"), 1);
  EXPECT_FALSE(
      sim::GetObject(cluster_.store(), std::string(kPods) + "/dns-set-0")
          .has_value());
  EXPECT_EQ(EventsWith("InPlaceResizeFallback"), 1);
}

}  // namespace
}  // namespace propscaler
