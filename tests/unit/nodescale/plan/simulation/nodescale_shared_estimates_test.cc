// Groups that pack alike share one estimate per round (ScaleUpConfig::
// share_estimates): planning with sharing must give the very plan that
// planning every group on its own gives.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "common/label_selector.h"
#include "nodescale/plan/scale_up/scale_up.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

// Few shapes over many groups, so that groups share packings: zonal copies
// (a zone label no pod selects), pools some pods select, GPU taints and
// extended resources, some groups already running nodes.
std::vector<NodeGroup> RandomGroups(std::mt19937_64* rng,
                                    ClusterSnapshot* snapshot) {
  std::vector<NodeGroup> groups;
  const int count = 4 + static_cast<int>((*rng)() % 30);
  for (int i = 0; i < count; ++i) {
    const int64_t cpus = int64_t{2} << ((*rng)() % 3);
    NodeGroup group = Group("group-" + std::to_string(i), 0,
                            3 + static_cast<int64_t>((*rng)() % 60), 0,
                            cpus * 1000, cpus * 4 * kGi);
    NodeTemplate& t = *group.declared_template;
    t.labels["zone"] = "zone-" + std::to_string((*rng)() % 3);
    if ((*rng)() % 4 == 0) t.labels["pool"] = "pool-" + std::to_string(i % 2);
    if ((*rng)() % 6 == 0) {
      t.taints.push_back({"gpu", "yes", TaintEffect::kNoSchedule});
      t.allocatable.SetExtended("nvidia.com/gpu", 2);
    }
    if ((*rng)() % 5 == 0) {
      NodeState node =
          Node("node-" + std::to_string(i), group.name,
               t.allocatable.cpu_millis, t.allocatable.memory_bytes);
      for (const auto& [key, value] : t.labels) node.labels[key] = value;
      node.taints = t.taints;
      snapshot->nodes.push_back(node);
      group.target_size = 1 + static_cast<int64_t>((*rng)() % 2);
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

// Deployments of 1-20 replicas; some select a pool, tolerate the GPU taint,
// ask for a GPU or spread by hostname anti-affinity.
std::vector<PodState> RandomPods(std::mt19937_64* rng) {
  std::vector<PodState> pods;
  const int deployments = 20 + static_cast<int>((*rng)() % 100);
  for (int d = 0; d < deployments; ++d) {
    const std::string owner = "deploy-" + std::to_string(d);
    PodState shape =
        Pod("", 100 + static_cast<int64_t>((*rng)() % 3000),
            (1 + static_cast<int64_t>((*rng)() % 24)) * 256 * kMi, owner);
    shape.labels = {{"app", owner}};
    if ((*rng)() % 5 == 0) {
      shape.node_selector = {{"pool", "pool-" + std::to_string(d % 2)}};
    }
    if ((*rng)() % 6 == 0) {
      shape.tolerations = {{"gpu", Toleration::Op::kExists, ""}};
      if ((*rng)() % 2 == 0) shape.requests.SetExtended("nvidia.com/gpu", 1);
    }
    if ((*rng)() % 8 == 0) {
      shape.anti_affinity = {{*LabelSelector::Parse("app=" + owner), {}}};
    }
    const int replicas = 1 + static_cast<int>((*rng)() % 20);
    for (int r = 0; r < replicas; ++r) {
      PodState pod = shape;
      pod.name = owner + "-" + std::to_string(r);
      pods.push_back(std::move(pod));
    }
  }
  return pods;
}

void ExpectSamePlan(const ScaleUpPlan& got, const ScaleUpPlan& want) {
  ASSERT_EQ(got.increases.size(), want.increases.size());
  for (size_t i = 0; i < want.increases.size(); ++i) {
    EXPECT_EQ(got.increases[i].group, want.increases[i].group);
    EXPECT_EQ(got.increases[i].delta, want.increases[i].delta);
    EXPECT_EQ(got.increases[i].pods, want.increases[i].pods);
  }
  ASSERT_EQ(got.unschedulable.size(), want.unschedulable.size());
  for (size_t i = 0; i < want.unschedulable.size(); ++i) {
    EXPECT_EQ(got.unschedulable[i].pod, want.unschedulable[i].pod);
    EXPECT_EQ(*got.unschedulable[i].reasons, *want.unschedulable[i].reasons);
  }
  EXPECT_EQ(got.fit_existing, want.fit_existing);
}

ScaleUpPlan Plan(const ClusterSnapshot& snapshot,
                 const std::vector<NodeGroup>& groups,
                 const ScaleUpConfig& config, const std::string& expander,
                 uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto chain = MakeExpanderChain(expander, {}, &rng);
  EXPECT_TRUE(chain.ok());
  return PlanScaleUp(snapshot, groups, {}, config, chain->get());
}

TEST(NodescaleSharedEstimatesTest, SharingGivesThePlanOfEstimatingEachGroup) {
  const char* expanders[] = {"least-waste", "most-pods", "random", "price"};
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    ClusterSnapshot snapshot;
    const std::vector<NodeGroup> groups = RandomGroups(&rng, &snapshot);
    snapshot.pods = PodList(RandomPods(&rng));
    ScaleUpConfig config;
    config.balance_similar_node_groups = rng() % 2 == 0;
    config.limits.max_nodes_per_scale_up = 5 + static_cast<int64_t>(rng() % 80);
    if (rng() % 3 == 0) config.limits.max_nodes_total = 20 + rng() % 200;
    if (rng() % 3 == 0) config.limits.max_cores = 100 + rng() % 600;
    const std::string expander = expanders[seed % 4];

    ScaleUpConfig alone = config;
    alone.share_estimates = false;
    const ScaleUpPlan want = Plan(snapshot, groups, alone, expander, seed);
    const ScaleUpPlan got = Plan(snapshot, groups, config, expander, seed);
    EXPECT_FALSE(want.increases.empty());
    ExpectSamePlan(got, want);
  }
}

TEST(NodescaleSharedEstimatesTest, PodsOfOneClassShareTheirReasons) {
  ClusterSnapshot snapshot;
  for (int i = 0; i < 3; ++i) {
    snapshot.pods.push_back(Pod("big-" + std::to_string(i), 9000, kGi));
  }
  const ScaleUpPlan plan =
      Plan(snapshot, {Group("small", 0, 5, 0, 4000, 8 * kGi)}, {}, "random", 1);
  ASSERT_EQ(plan.unschedulable.size(), 3u);
  EXPECT_EQ(plan.unschedulable[0].reasons, plan.unschedulable[2].reasons);
  EXPECT_EQ(plan.unschedulable[0].reasons->at("small"),
            "does not fit: insufficient cpu on an empty new node");
}

}  // namespace
}  // namespace propscaler::nodescale
