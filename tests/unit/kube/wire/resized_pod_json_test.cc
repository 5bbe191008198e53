// What in-place resize reads off the wire: a pod's asked and applied
// resources and where its resize stands (1.33+ conditions, 1.27-1.32
// status.resize), and of its workload the pod selector, the update strategy
// and whether a rollout is under way.
#include "kube/wire/resized_pod_json.h"

#include <gtest/gtest.h>

#include <string>

#include "kube/wire/pod_template_json.h"

namespace propscaler::kube {
namespace {

std::string PodWithStatus(const std::string& status) {
  return R"({"metadata":{"name":"dns-1","uid":"u","resourceVersion":"7"},)"
         R"("spec":{"nodeName":"node-1","containers":[{"name":"dns",)"
         R"("resources":{"requests":{"cpu":"200m"},"limits":{"memory":"1Gi"}}}]},)"
         R"("status":)" +
         status + "}";
}

TEST(ResizedPodJsonTest, AskedAndAppliedResources) {
  Result<ResizedPod> pod = DecodeResizedPod(
      PodWithStatus(R"({"phase":"Running","containerStatuses":[{"name":"dns",)"
                    R"("resources":{"requests":{"cpu":"100m"}}}]})"));
  ASSERT_TRUE(pod.ok()) << pod.status().message();
  EXPECT_EQ(pod->name, "dns-1");
  EXPECT_EQ(pod->resource_version, "7");
  EXPECT_EQ(pod->node_name, "node-1");
  EXPECT_EQ(pod->phase, "Running");
  EXPECT_FALSE(pod->terminating);
  ASSERT_EQ(pod->containers.size(), 1u);
  EXPECT_EQ(pod->containers[0].requests.at("cpu"), "200m");
  EXPECT_EQ(pod->containers[0].limits.at("memory"), "1Gi");
  ASSERT_EQ(pod->applied.size(), 1u);
  EXPECT_EQ(pod->applied[0].requests.at("cpu"), "100m");
  EXPECT_EQ(pod->resize, ResizeState::kNone);
}

TEST(ResizedPodJsonTest, ResizeConditions) {
  const struct {
    std::string conditions;
    ResizeState want;
    std::string message;
  } cases[] = {
      {R"([{"type":"PodResizePending","status":"True","reason":"Deferred","message":"no room"}])",
       ResizeState::kDeferred, "no room"},
      {R"([{"type":"PodResizePending","status":"True","reason":"Infeasible","message":"too big"}])",
       ResizeState::kInfeasible, "too big"},
      {R"([{"type":"PodResizeInProgress","status":"True"}])",
       ResizeState::kInProgress, ""},
      {R"([{"type":"PodResizeInProgress","status":"True","reason":"Error","message":"oom"}])",
       ResizeState::kError, "oom"},
      // Pending wins over in progress, whatever the order.
      {R"([{"type":"PodResizeInProgress","status":"True"},{"type":"PodResizePending","status":"True","reason":"Deferred"}])",
       ResizeState::kDeferred, ""},
      {R"([{"type":"Ready","status":"True"},{"type":"PodResizePending","status":"False","reason":"Deferred"}])",
       ResizeState::kNone, ""},
  };
  for (const auto& c : cases) {
    Result<ResizedPod> pod = DecodeResizedPod(PodWithStatus(
        R"({"phase":"Running","conditions":)" + c.conditions + "}"));
    ASSERT_TRUE(pod.ok()) << pod.status().message();
    EXPECT_EQ(pod->resize, c.want) << c.conditions;
    EXPECT_EQ(pod->resize_message, c.message) << c.conditions;
  }
}

TEST(ResizedPodJsonTest, StatusResizeOfOlderReleases) {
  for (const auto& [value, want] :
       {std::pair{"Proposed", ResizeState::kInProgress},
        {"InProgress", ResizeState::kInProgress},
        {"Deferred", ResizeState::kDeferred},
        {"Infeasible", ResizeState::kInfeasible}}) {
    Result<ResizedPod> pod = DecodeResizedPod(PodWithStatus(
        std::string(R"({"phase":"Running","resize":")") + value + "\"}"));
    ASSERT_TRUE(pod.ok());
    EXPECT_EQ(pod->resize, want) << value;
  }
}

TEST(ResizedPodJsonTest, TerminatingPod) {
  Result<ResizedPod> pod = DecodeResizedPod(
      R"({"metadata":{"name":"a","deletionTimestamp":"2026-01-01T00:00:00Z"}})");
  ASSERT_TRUE(pod.ok());
  EXPECT_TRUE(pod->terminating);
}

std::string Workload(const std::string& extra) {
  return R"({"metadata":{"name":"dns","generation":4},"spec":{"replicas":3,)"
         R"("selector":{"matchLabels":{"app":"dns"},"matchExpressions":)"
         R"([{"key":"tier","operator":"In","values":["a","b"]}]},)"
         R"("template":{"spec":{"containers":[{"name":"dns"}]}})" +
         extra + "}";
}

TEST(PodTemplateWorkloadJsonTest, SelectorStrategyAndRollout) {
  Result<PodTemplateWorkload> workload = DecodePodTemplateWorkload(
      Workload(R"(,"updateStrategy":{"type":"OnDelete"}})"));
  ASSERT_TRUE(workload.ok()) << workload.status().message();
  EXPECT_EQ(workload->pod_selector, "app=dns,tier in (a,b)");
  EXPECT_EQ(workload->update_strategy, "OnDelete");
  EXPECT_FALSE(workload->rolling_out) << "no controller has written status";

  const struct {
    std::string status;
    bool rolling_out;
  } cases[] = {
      {R"({"observedGeneration":3,"updatedReplicas":3})", true},
      {R"({"observedGeneration":4,"updatedReplicas":2})", true},
      {R"({"observedGeneration":4})", true},  // updatedReplicas 0, omitted
      {R"({"observedGeneration":4,"updatedReplicas":3})", false},
      {R"({"observedGeneration":4,"desiredNumberScheduled":5,"updatedNumberScheduled":4})",
       true},
      {R"({"observedGeneration":4,"desiredNumberScheduled":5,"updatedNumberScheduled":5})",
       false},
  };
  for (const auto& c : cases) {
    workload = DecodePodTemplateWorkload(Workload(R"(},"status":)" + c.status));
    ASSERT_TRUE(workload.ok()) << workload.status().message();
    EXPECT_EQ(workload->rolling_out, c.rolling_out) << c.status;
  }
}

TEST(PodTemplateWorkloadJsonTest, TemplateChangeRolls) {
  using Kind = WorkloadRef::Kind;
  EXPECT_TRUE(TemplateChangeRolls(Kind::kDeployment, ""));
  EXPECT_FALSE(TemplateChangeRolls(Kind::kReplicaSet, ""));
  EXPECT_TRUE(TemplateChangeRolls(Kind::kDaemonSet, "RollingUpdate"));
  EXPECT_TRUE(TemplateChangeRolls(Kind::kStatefulSet, ""));
  EXPECT_FALSE(TemplateChangeRolls(Kind::kDaemonSet, "OnDelete"));
  EXPECT_FALSE(TemplateChangeRolls(Kind::kStatefulSet, "OnDelete"));
}

TEST(PodTemplateWorkloadJsonTest, PodResizePatch) {
  EXPECT_EQ(
      EncodePodResizePatch("9",
                           {{"dns", {{"cpu", "200m"}}, {{"memory", "1Gi"}}}}),
      R"({"metadata":{"resourceVersion":"9"},"spec":{"containers":[{"name":"dns",)"
      R"("resources":{"requests":{"cpu":"200m"},"limits":{"memory":"1Gi"}}}]}})");
}

}  // namespace
}  // namespace propscaler::kube
