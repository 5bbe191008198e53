#include <gtest/gtest.h>

#include <chrono>

#include "vertical/resize_plan.h"

namespace propscaler {
namespace {

using std::chrono::seconds;

const std::map<std::string, ComputedResources> kWanted = {
    {"dns",
     {{{"cpu", 110}, {"memory", 80LL * 1000 * 1000 * 1000}},
      {{"memory", 200LL * 1000 * 1000 * 1000}}}}};

TEST(ResizePlanTest, ChangesOnlyWhatMovedBeyondTheThreshold) {
  // cpu 100m -> 110m is 10%: beyond 5%; memory 78M -> 80M is 2.6%: within.
  const std::vector<kube::ContainerResources> current = {
      {"sidecar", {{"cpu", "1"}}, {}},
      {"dns", {{"cpu", "100m"}, {"memory", "78M"}}, {}}};
  ResizePlan plan =
      PlanResize(kWanted, current, {.threshold_percent = 5}, {}, TimePoint());
  ASSERT_EQ(plan.changes.size(), 2u);
  EXPECT_EQ(plan.changes[0].ToString(), "dns requests.cpu 100m -> 110m");
  EXPECT_EQ(plan.changes[1].ToString(), "dns limits.memory (unset) -> 200M");
  EXPECT_TRUE(plan.missing_containers.empty());
  const auto edits = EditsOf(plan.changes);
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(edits[0].container, "dns");
  EXPECT_EQ(edits[0].requests, (kube::ResourceList{{"cpu", "110m"}}));
  EXPECT_EQ(edits[0].limits, (kube::ResourceList{{"memory", "200M"}}));

  plan =
      PlanResize(kWanted, current, {.threshold_percent = 0}, {}, TimePoint());
  EXPECT_EQ(plan.changes.size(), 3u);
  plan =
      PlanResize(kWanted, current, {.threshold_percent = 10}, {}, TimePoint());
  EXPECT_EQ(plan.changes.size(), 1u) << "10% is not beyond 10%";
}

TEST(ResizePlanTest, EqualValuesInAnotherSpellingAreNotChanges) {
  const std::vector<kube::ContainerResources> current = {
      {"dns", {{"cpu", "0.11"}, {"memory", "80000k"}}, {{"memory", "0.2G"}}}};
  ResizePlan plan =
      PlanResize(kWanted, current, {.threshold_percent = 0}, {}, TimePoint());
  EXPECT_TRUE(plan.changes.empty());
}

TEST(ResizePlanTest, UnreadableValuesAreReplaced) {
  const std::vector<kube::ContainerResources> current = {
      {"dns", {{"cpu", "lots"}, {"memory", "80M"}}, {{"memory", "200M"}}}};
  ResizePlan plan = PlanResize(kWanted, current, {}, {}, TimePoint());
  ASSERT_EQ(plan.changes.size(), 1u);
  EXPECT_EQ(plan.changes[0].ToString(), "dns requests.cpu lots -> 110m");
}

TEST(ResizePlanTest, NamesContainersTheTemplateLacks) {
  ResizePlan plan =
      PlanResize(kWanted, {{"a", {}, {}}, {"b", {}, {}}}, {}, {}, TimePoint());
  EXPECT_TRUE(plan.changes.empty());
  ASSERT_EQ(plan.missing_containers.size(), 1u);
  EXPECT_EQ(plan.missing_containers[0],
            "container dns is not in the pod template (it has a, b)");
}

TEST(ResizePlanTest, DecreasesWaitForTheDelayIncreasesDoNot) {
  const ResizePolicy policy{.threshold_percent = 0,
                            .scale_down_delay = seconds(300)};
  const std::vector<kube::ContainerResources> current = {
      {"dns", {{"cpu", "200m"}, {"memory", "70M"}}, {{"memory", "200M"}}}};
  const TimePoint t0 = TimePoint() + seconds(1000);
  ResizePlan plan = PlanResize(kWanted, current, policy, {}, t0);
  ASSERT_EQ(plan.changes.size(), 1u);
  EXPECT_EQ(plan.changes[0].ToString(), "dns requests.memory 70M -> 80M");
  ASSERT_EQ(plan.held.size(), 1u);
  EXPECT_EQ(plan.held[0],
            "dns requests.cpu 200m -> 110m held 300s more "
            "(--scale-down-delay-seconds)");

  plan = PlanResize(kWanted, current, policy, plan.history, t0 + seconds(299));
  EXPECT_EQ(plan.changes.size(), 1u);
  EXPECT_EQ(plan.held.size(), 1u);
  plan = PlanResize(kWanted, current, policy, plan.history, t0 + seconds(300));
  EXPECT_EQ(plan.changes.size(), 2u);
  EXPECT_TRUE(plan.held.empty());

  // A break in the wish starts the wait again.
  plan = PlanResize(kWanted, current, policy, {}, t0);
  const std::vector<kube::ContainerResources> settled = {
      {"dns", {{"cpu", "110m"}, {"memory", "80M"}}, {{"memory", "200M"}}}};
  plan = PlanResize(kWanted, settled, policy, plan.history, t0 + seconds(100));
  EXPECT_TRUE(plan.history.empty());
  plan = PlanResize(kWanted, current, policy, plan.history, t0 + seconds(350));
  EXPECT_EQ(plan.held.size(), 1u);
}

}  // namespace
}  // namespace propscaler
