// Cluster Autoscaler's node readiness and cluster health gate, pure.
#include "nodescale/plan/health/node_health.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

using std::chrono::minutes;

NodeState NodeCreatedAt(TimePoint created, bool ready,
                        std::vector<Taint> taints = {}) {
  NodeState node;
  node.name = "n";
  node.created = created;
  node.ready = ready;
  node.taints = std::move(taints);
  return node;
}

const TimePoint kNow = TimePoint() + std::chrono::hours(10);

TEST(NodeHealthTest, NotReadyIsNotStartedForFifteenMinutesThenUnready) {
  const NodeHealthConfig config;
  EXPECT_EQ(ReadinessOf(NodeCreatedAt(kNow - minutes(14), false), kNow, config),
            Readiness::kNotStarted);
  EXPECT_EQ(ReadinessOf(NodeCreatedAt(kNow - minutes(15), false), kNow, config),
            Readiness::kUnready);
  EXPECT_EQ(ReadinessOf(NodeCreatedAt(kNow - minutes(15), true), kNow, config),
            Readiness::kReady);
  NodeHealthConfig longer;
  longer.max_node_startup_time = minutes(30);
  EXPECT_EQ(ReadinessOf(NodeCreatedAt(kNow - minutes(20), false), kNow, longer),
            Readiness::kNotStarted);
}

// Cluster Autoscaler's updateReadinessStats: a node not ready is
// NotStarted by its age alone, --max-node-startup-time (or its group's)
// from its creation; a scale-up still in flight keeps nothing coming (with
// a 6 s startup time and a 45 s provision time, the node is Unready at 6 s).
TEST(NodeHealthTest, TheStartupTimeCountsFromTheNodesCreationAlone) {
  NodeHealthConfig config;
  config.max_node_startup_time = std::chrono::seconds(6);
  const TimePoint created = kNow - std::chrono::seconds(7);
  EXPECT_EQ(ReadinessOf(NodeCreatedAt(created, false), kNow, config),
            Readiness::kUnready);
  EXPECT_EQ(ReadinessOf(NodeCreatedAt(kNow - std::chrono::seconds(5), false),
                        kNow, config),
            Readiness::kNotStarted);
  // The group's own maxnodestartuptime wins over the flag.
  EXPECT_EQ(ReadinessOf(NodeCreatedAt(created, false), kNow, config, true,
                        minutes(1)),
            Readiness::kNotStarted);
  // A scale-up in flight whose deadline comes later changes nothing.
  EXPECT_EQ(ReadinessOf(NodeCreatedAt(created, false), kNow, config, true, {},
                        created + std::chrono::seconds(45)),
            Readiness::kUnready);
}

// The tie: a node whose startup time ends no earlier than its group's
// scale-up deadline (both 15 minutes, the node made at once, its
// creationTimestamp in whole seconds) stays NotStarted until the deadline
// decides, as on a cloud, where the node registers after the request.
TEST(NodeHealthTest, AStartupTimeEndingWithTheScaleUpsDeadlineWaitsForIt) {
  const NodeHealthConfig config;
  const TimePoint requested = kNow - minutes(15) - std::chrono::seconds(3);
  const TimePoint stamped = requested - std::chrono::milliseconds(400);
  const TimePoint deadline = requested + minutes(15);
  EXPECT_EQ(ReadinessOf(NodeCreatedAt(stamped, false), kNow, config, true, {},
                        deadline),
            Readiness::kNotStarted);
  EXPECT_EQ(ReadinessOf(NodeCreatedAt(stamped, false), kNow, config, true, {},
                        std::nullopt),
            Readiness::kUnready);
  // A node older than the request by more than its second is not its.
  EXPECT_EQ(
      ReadinessOf(NodeCreatedAt(requested - std::chrono::seconds(2), false),
                  kNow, config, true, {}, deadline),
      Readiness::kUnready);
}

// With --enable-csi-node-aware-scheduling, Cluster Autoscaler's CSI
// processor: a Ready node whose CSINode lacks a driver of its group's
// template is not ready (still starting while young); drivers the template
// does not have, and a template without drivers, change nothing.
TEST(NodeHealthTest, AReadyNodeWithoutATemplateCsiDriverIsNotReady) {
  const VolumeLimits model = {{"ebs.csi.aws.com", 25}};
  const VolumeLimits same = {{"ebs.csi.aws.com", 39}};
  const VolumeLimits more = {{"ebs.csi.aws.com", 25}, {"efs.csi.aws.com", 5}};
  const VolumeLimits other = {{"efs.csi.aws.com", 5}};
  EXPECT_FALSE(LacksTemplateCsiDriver(&same, model));
  EXPECT_FALSE(LacksTemplateCsiDriver(&more, model));
  EXPECT_TRUE(LacksTemplateCsiDriver(&other, model));
  EXPECT_TRUE(LacksTemplateCsiDriver(nullptr, model));
  EXPECT_FALSE(LacksTemplateCsiDriver(nullptr, {}));
  const NodeHealthConfig config;
  EXPECT_EQ(
      ReadinessOf(NodeCreatedAt(kNow - minutes(5), true), kNow, config, false),
      Readiness::kNotStarted);
  EXPECT_EQ(
      ReadinessOf(NodeCreatedAt(kNow - minutes(20), true), kNow, config, false),
      Readiness::kUnready);
}

// CA's GetNodeReadiness: the node lifecycle controller's not-ready,
// disk-pressure and network-unavailable taints make a node not ready; so
// does a startup taint (prefixed, or named by --startup-taint); the
// unreachable taint alone does not (it comes with Ready=Unknown, which the
// decoders read).
TEST(NodeHealthTest, TaintsThatMakeANodeNotReady) {
  NodeHealthConfig config;
  config.taints.startup_keys = {"example.com/agent-not-ready"};
  config.taints.startup_prefixes = {"agents.example.com/"};
  config.taints.status_keys = {"example.com/gpu-health"};
  const TimePoint old = kNow - minutes(60);
  for (const char* key :
       {"node.kubernetes.io/not-ready", "node.kubernetes.io/disk-pressure",
        "node.kubernetes.io/network-unavailable",
        "startup-taint.cluster-autoscaler.kubernetes.io/cni",
        "ignore-taint.cluster-autoscaler.kubernetes.io/legacy",
        "example.com/agent-not-ready", "agents.example.com/cni"}) {
    EXPECT_EQ(
        ReadinessOf(NodeCreatedAt(old, true, {{key, "", {}}}), kNow, config),
        Readiness::kUnready)
        << key;
    EXPECT_EQ(
        ReadinessOf(NodeCreatedAt(kNow, true, {{key, "", {}}}), kNow, config),
        Readiness::kNotStarted)
        << key;
  }
  for (const char* key : {"node.kubernetes.io/unreachable",
                          "status-taint.cluster-autoscaler.kubernetes.io/gpu",
                          "example.com/gpu-health", "dedicated"}) {
    EXPECT_EQ(
        ReadinessOf(NodeCreatedAt(old, true, {{key, "", {}}}), kNow, config),
        Readiness::kReady)
        << key;
  }
}

struct GateCase {
  int64_t ready, not_started, unready;
  double max_percentage;
  int64_t ok_count;
  bool healthy;
};

// IsClusterHealthy: unhealthy only when Unready is above the count AND
// above the share of every registered node (NotStarted ones included in
// the total, not in the Unready).
TEST(NodeHealthTest, TheGateNeedsBothTheCountAndTheShare) {
  const GateCase cases[] = {
      {1, 0, 3, 45, 3, true},   // 75% but only 3
      {4, 0, 4, 45, 3, false},  // 4 > 3 and 50% > 45%
      {6, 0, 4, 45, 3, true},   // 40%
      {2, 2, 4, 45, 3, false},  // 50% of 8
      {1, 6, 4, 45, 3, true},   // 36% of 11: NotStarted count in the total
      {0, 0, 2, 10, 1, false},  // CA's TestTooManyUnready
      {0, 0, 0, 45, 3, true},   // no nodes
      {0, 0, 1, 0, 0, false},   // any Unready node stops it
  };
  for (const GateCase& c : cases) {
    NodeHealthConfig config;
    config.max_total_unready_percentage = c.max_percentage;
    config.ok_total_unready_count = c.ok_count;
    const ClusterHealth health =
        AssessClusterHealth({c.ready, c.not_started, c.unready}, config);
    EXPECT_EQ(health.healthy, c.healthy)
        << c.ready << "/" << c.not_started << "/" << c.unready << ": "
        << health.reason;
    EXPECT_EQ(health.reason.empty(), c.healthy);
  }
  const ClusterHealth unhealthy = AssessClusterHealth({4, 0, 4}, {});
  EXPECT_EQ(unhealthy.reason,
            "4 of 8 nodes Unready: more than 3 (--ok-total-unready-count) and "
            "more than 45% (--max-total-unready-percentage)");
}

// IsNodeGroupHealthy: nodes not Ready beyond the ones the group waits for
// ((target - upcoming) - ready) above 3 and above 45% of its registered.
TEST(NodeHealthTest, AGroupIsUnhealthyWithTooManyNodesNotReadyBeyondComing) {
  const NodeHealthConfig config;
  // 8 registered, 4 Ready, 4 Unready, nothing coming: 4 > 3 and 50%.
  EXPECT_EQ(GroupUnhealthy({4, 0, 4}, 8, 0, config),
            "node group unhealthy: 4 of 8 nodes not Ready beyond those coming");
  // The same 4 not Ready, but the group waits for them (a scale-up of 4).
  EXPECT_EQ(GroupUnhealthy({4, 4, 0}, 8, 4, config), std::nullopt);
  // 4 of 10: 40%.
  EXPECT_EQ(GroupUnhealthy({6, 0, 4}, 10, 0, config), std::nullopt);
  // 3 of 4: not above the count.
  EXPECT_EQ(GroupUnhealthy({1, 0, 3}, 4, 0, config), std::nullopt);
}

TEST(NodeHealthTest, CountsEachReadiness) {
  const ReadinessCounts counts =
      CountReadiness({Readiness::kReady, Readiness::kUnready,
                      Readiness::kNotStarted, Readiness::kUnready});
  EXPECT_EQ(counts.ready, 1);
  EXPECT_EQ(counts.not_started, 1);
  EXPECT_EQ(counts.unready, 2);
  EXPECT_EQ(counts.registered(), 4);
}

}  // namespace
}  // namespace propscaler::nodescale
