// Inter-pod constraints as kube-scheduler's filters decide them.
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "nodescale/plan/scale_down/scale_down.h"
#include "nodescale/plan/scale_up/scale_up.h"
#include "nodescale/plan/simulation/topology.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

constexpr char kZone[] = "topology.kubernetes.io/zone";

LabelSelector Selector(const std::string& text) {
  return *LabelSelector::Parse(text);
}

PodState Web(const std::string& name) {
  PodState pod = Pod(name, 100, kMi);
  pod.labels = {{"app", "web"}};
  return pod;
}

PodState ZoneSpread(const std::string& name, int64_t max_skew,
                    int64_t min_domains = 0) {
  PodState pod = Web(name);
  pod.spread = {{max_skew, kZone, Selector("app=web"), min_domains}};
  return pod;
}

class TopologyTest : public ::testing::Test {
 protected:
  size_t AddNode(const std::string& name, const std::string& zone) {
    Labels& labels = labels_.emplace_back();
    labels[std::string(kHostnameLabel)] = name;
    if (!zone.empty()) labels[kZone] = zone;
    return topology_.AddNode(&labels);
  }
  // Places `count` web pods on `node`.
  void PlaceWeb(size_t node, int count) {
    for (int i = 0; i < count; ++i) {
      topology_.Place(pods_.emplace_back(Web("w" + std::to_string(i))), node);
    }
  }

  std::deque<Labels> labels_;
  std::deque<PodState> pods_;
  Topology topology_;
};

TEST_F(TopologyTest, ZoneSpreadKeepsPodsOutOfTheFullestZone) {
  const size_t a = AddNode("a1", "a");
  const size_t b = AddNode("b1", "b");
  const size_t c = AddNode("c1", "c");
  PlaceWeb(a, 2);
  PlaceWeb(b, 1);
  PlaceWeb(c, 1);
  const PodState pod = ZoneSpread("new", 1);
  EXPECT_FALSE(topology_.Allows(pod, a));  // 2 + 1 - 1 > 1
  EXPECT_TRUE(topology_.Allows(pod, b));
  EXPECT_TRUE(topology_.Allows(pod, c));
  EXPECT_TRUE(topology_.Allows(ZoneSpread("new", 2), a));
  // Pods the selector does not match count for nothing.
  PodState other = ZoneSpread("other", 1);
  other.labels = {{"app", "batch"}};
  EXPECT_TRUE(topology_.Allows(other, a));  // 2 + 0 - 1 <= 1
}

// A placed pod's anti-affinity keeps out the pods its selector matches,
// whatever the selector's operators, and also when the term comes after
// the pod's first check (its terms are looked up by the labels they
// require).
TEST_F(TopologyTest, AntiAffinityOfEveryOperatorKeepsMatchingPodsOut) {
  const size_t node = AddNode("n1", "a");
  PlaceWeb(node, 1);
  PodState api = Pod("api", 100, kMi);
  api.labels = {{"app", "api"}, {"tier", "front"}};
  PodState batch = Pod("batch", 100, kMi);
  batch.labels = {{"app", "batch"}};
  EXPECT_TRUE(topology_.Allows(api, node));
  EXPECT_TRUE(topology_.Allows(batch, node));
  const std::vector<std::pair<std::string, std::vector<bool>>> cases = {
      // selector, then whether it keeps out web, api, batch
      {"app=api", {false, true, false}},
      {"app in (api,batch)", {false, true, true}},
      {"app notin (api)", {true, false, true}},
      {"app!=web", {false, true, true}},
      {"tier", {false, true, false}},
      {"!tier", {true, false, true}},
      {"app,tier=front", {false, true, false}},
      {"", {true, true, true}},
  };
  for (const auto& [selector, keeps_out] : cases) {
    Topology topology;
    Labels labels = {{std::string(kHostnameLabel), "n1"}};
    const size_t n = topology.AddNode(&labels);
    const PodState web = Web("w");
    const std::vector<const PodState*> pods = {&web, &api, &batch};
    // Checked before the owner is placed: the selections exist first.
    for (const PodState* pod : pods) {
      EXPECT_TRUE(topology.Allows(*pod, n)) << selector;
    }
    PodState owner = Pod("owner", 100, kMi);
    owner.labels = {{"app", "owner"}};
    owner.anti_affinity = {
        {Selector(selector), {}, std::string(kHostnameLabel)}};
    topology.Place(owner, n);
    for (size_t i = 0; i < pods.size(); ++i) {
      EXPECT_EQ(topology.Allows(*pods[i], n), !keeps_out[i])
          << "selector \"" << selector << "\", pod " << pods[i]->name;
    }
  }
}

TEST_F(TopologyTest, ANodeWithoutTheKeyTakesNoSpreadPod) {
  const size_t a = AddNode("a1", "a");
  const size_t bare = AddNode("bare", "");
  EXPECT_TRUE(topology_.Allows(ZoneSpread("new", 1), a));
  EXPECT_FALSE(topology_.Allows(ZoneSpread("new", 1), bare));
  // Anti-affinity on a key the node lacks does not apply there.
  PodState anti = Web("anti");
  anti.anti_affinity = {{Selector("app=web"), {}, kZone}};
  PlaceWeb(bare, 1);
  EXPECT_TRUE(topology_.Allows(anti, bare));
}

TEST_F(TopologyTest, HostnameSpreadCountsEveryNodeEvenEmptyOnes) {
  const size_t n1 = AddNode("n1", "a");
  const size_t n2 = AddNode("n2", "a");
  PlaceWeb(n1, 1);
  PodState pod = Web("new");
  pod.spread = {{1, std::string(kHostnameLabel), Selector("app=web"), 0}};
  EXPECT_FALSE(topology_.Allows(pod, n1));  // n2 is empty: minimum 0
  EXPECT_TRUE(topology_.Allows(pod, n2));
  PlaceWeb(n2, 1);
  EXPECT_TRUE(topology_.Allows(pod, n1));
}

TEST_F(TopologyTest, FewerDomainsThanMinDomainsMakeTheMinimumZero) {
  const size_t a = AddNode("a1", "a");
  const size_t b = AddNode("b1", "b");
  PlaceWeb(a, 1);
  PlaceWeb(b, 1);
  EXPECT_TRUE(topology_.Allows(ZoneSpread("new", 1), a));
  EXPECT_FALSE(topology_.Allows(ZoneSpread("new", 1, 3), a));
  AddNode("c1", "c");  // a third domain, empty: the minimum is 0 anyway
  EXPECT_FALSE(topology_.Allows(ZoneSpread("new", 1, 3), a));
}

TEST_F(TopologyTest, SpreadDomainsAreThoseOfNodesThePodMayUse) {
  const size_t a = AddNode("a1", "a");
  AddNode("b1", "b");
  labels_[0]["disk"] = "ssd";
  PlaceWeb(a, 1);
  PodState pod = ZoneSpread("new", 1);
  EXPECT_FALSE(topology_.Allows(pod, a));  // zone b (0) counts
  pod.node_selector = {{"disk", "ssd"}};
  EXPECT_TRUE(topology_.Allows(pod, a));  // only zone a is eligible
}

TEST_F(TopologyTest, ZonalAntiAffinityWorksBothWays) {
  const size_t a1 = AddNode("a1", "a");
  const size_t a2 = AddNode("a2", "a");
  const size_t b1 = AddNode("b1", "b");
  PodState& db = pods_.emplace_back(Pod("db", 100, kMi));
  db.labels = {{"app", "db"}};
  db.anti_affinity = {{Selector("app=web"), {}, kZone}};
  topology_.Place(db, a1);
  // The db's term keeps web out of all of zone a.
  EXPECT_FALSE(topology_.Allows(Web("w"), a2));
  EXPECT_TRUE(topology_.Allows(Web("w"), b1));
  PodState other_namespace = Web("w");
  other_namespace.namespace_ = "elsewhere";
  EXPECT_TRUE(topology_.Allows(other_namespace, a2));
  // A web pod's own term keeps it away from db's zone.
  PodState avoid_db = Pod("x", 100, kMi);
  avoid_db.anti_affinity = {{Selector("app=db"), {}, kZone}};
  EXPECT_FALSE(topology_.Allows(avoid_db, a2));
  EXPECT_TRUE(topology_.Allows(avoid_db, b1));
  // Once db has gone, zone a is open again.
  topology_.Remove(db, a1);
  EXPECT_TRUE(topology_.Allows(Web("w"), a2));
  EXPECT_TRUE(topology_.Allows(avoid_db, a2));
}

TEST_F(TopologyTest, AffinityNeedsAMatchInTheDomainButTheFirstPodMayStart) {
  const size_t a1 = AddNode("a1", "a");
  const size_t b1 = AddNode("b1", "b");
  const size_t bare = AddNode("bare", "");
  PodState pod = Web("new");
  pod.affinity = {{Selector("app=web"), {}, kZone}};
  // No web pod anywhere and the pod matches its own term: any node with
  // the key will do.
  EXPECT_TRUE(topology_.Allows(pod, a1));
  EXPECT_TRUE(topology_.Allows(pod, b1));
  EXPECT_FALSE(topology_.Allows(pod, bare));
  PlaceWeb(b1, 1);
  EXPECT_FALSE(topology_.Allows(pod, a1));
  EXPECT_TRUE(topology_.Allows(pod, b1));
  // Affinity to pods that exist nowhere never starts.
  PodState to_cache = Web("needs-cache");
  to_cache.affinity = {{Selector("app=cache"), {}, kZone}};
  EXPECT_FALSE(topology_.Allows(to_cache, a1));
}

TEST_F(TopologyTest, AGoneNodeIsNoDomainAndItsPodsCountNowhere) {
  const size_t a = AddNode("a1", "a");
  const size_t b = AddNode("b1", "b");
  PlaceWeb(a, 2);
  PlaceWeb(b, 1);
  const PodState pod = ZoneSpread("new", 1);
  EXPECT_TRUE(topology_.Allows(pod, b));
  topology_.SetNodeGone(b, true);
  EXPECT_FALSE(topology_.Allows(pod, b));
  EXPECT_TRUE(topology_.Allows(pod, a));  // zone a is the only one left
  topology_.SetNodeGone(b, false);
  EXPECT_FALSE(topology_.Allows(pod, a));
}

// The minimum over every domain is kept as pods and nodes come and go; a
// pod with a node selector that every node meets is checked by scanning the
// nodes. Both must always agree, over zones and hostnames, whatever the
// order of placements, removals, nodes taken back and nodes gone.
TEST_F(TopologyTest, KeptSpreadMinimumAgreesWithAScanOfTheNodes) {
  std::mt19937_64 rng(11);
  std::vector<std::vector<const PodState*>> placed;
  auto add_node = [&] {
    const size_t n = placed.size();
    Labels& labels = labels_.emplace_back();
    labels[std::string(kHostnameLabel)] = "n" + std::to_string(n);
    labels["pool"] = "any";
    if (rng() % 5 != 0) labels[kZone] = std::string(1, 'a' + rng() % 3);
    EXPECT_EQ(topology_.AddNode(&labels), n);
    placed.emplace_back();
  };
  for (int i = 0; i < 4; ++i) add_node();
  std::vector<bool> gone(4, false);
  for (int step = 0; step < 1500; ++step) {
    const size_t node = rng() % placed.size();
    switch (rng() % 10) {
      case 0:
        add_node();
        gone.push_back(false);
        break;
      case 1:
        if (placed.back().empty() && !gone.back() && placed.size() > 1) {
          topology_.RemoveLastNode();
          placed.pop_back();
          gone.pop_back();
          labels_.pop_back();
        }
        break;
      case 2:
        gone[node] = !gone[node];
        topology_.SetNodeGone(node, gone[node]);
        break;
      case 3:
        if (!placed[node].empty()) {
          topology_.Remove(*placed[node].back(), node);
          placed[node].pop_back();
        }
        break;
      default:
        placed[node].push_back(
            &pods_.emplace_back(Web("w" + std::to_string(step))));
        topology_.Place(*placed[node].back(), node);
    }
    for (const std::string& key :
         {std::string(kZone), std::string(kHostnameLabel)}) {
      for (int64_t min_domains : {0, 3}) {
        PodState kept = Web("kept");
        kept.spread = {{1, key, Selector("app=web"), min_domains}};
        PodState scanned = kept;
        scanned.node_selector = {{"pool", "any"}};
        for (size_t n = 0; n < placed.size(); ++n) {
          ASSERT_EQ(topology_.Allows(kept, n), topology_.Allows(scanned, n))
              << "step " << step << ", key " << key << ", node " << n;
        }
      }
    }
  }
}

// Planner scenarios: groups in zones, pods spread over zones.
class TopologyPlanTest : public ::testing::Test {
 protected:
  static NodeGroup ZoneGroup(const std::string& name, const std::string& zone,
                             int64_t target) {
    NodeGroup group = Group(name, 0, 10, target, 4000, 16 * kGi);
    group.declared_template->labels = {{kZone, zone}};
    return group;
  }
  NodeState& AddNode(const std::string& name, const std::string& group,
                     const std::string& zone) {
    NodeState& node =
        snapshot_.nodes.emplace_back(Node(name, group, 4000, 16 * kGi));
    node.labels[kZone] = zone;
    return node;
  }
  ScaleUpPlan PlanUp() {
    std::mt19937_64 rng(7);
    auto chain = MakeExpanderChain("least-waste", {}, &rng);
    EXPECT_TRUE(chain.ok());
    return PlanScaleUp(snapshot_, groups_, {}, {}, chain->get());
  }

  ClusterSnapshot snapshot_;
  std::vector<NodeGroup> groups_;
};

TEST_F(TopologyPlanTest, ZoneSpreadPodsGoToTheGroupsOfTheEmptierZones) {
  groups_ = {ZoneGroup("in-a", "a", 1), ZoneGroup("in-b", "b", 1)};
  // By resources alone in-a would win: its 3-cpu nodes (the template is
  // taken from a-1) waste nothing.
  AddNode("a-1", "in-a", "a").allocatable = Res(3000, 16 * kGi);
  AddNode("b-1", "in-b", "b");
  // Zone a has 3 web pods and no room; zone b has 1 and no room.
  for (int i = 0; i < 3; ++i) {
    PodState& pod = snapshot_.pods.emplace_back(
        BoundPod("a" + std::to_string(i), "a-1", 1000, kGi));
    pod.labels = {{"app", "web"}};
  }
  PodState& in_b =
      snapshot_.pods.emplace_back(BoundPod("b0", "b-1", 4000, kGi));
  in_b.labels = {{"app", "web"}};
  for (int i = 0; i < 2; ++i) {
    snapshot_.pods.push_back(ZoneSpread("new" + std::to_string(i), 1));
    snapshot_.pods.MutableBack().requests = Res(3000, kGi, 1);
  }
  const ScaleUpPlan plan = PlanUp();
  // Zone a is at 3, b at 1: both new pods belong in b (then b is at 3).
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].group, "in-b");
  EXPECT_EQ(plan.increases[0].delta, 2);
  EXPECT_TRUE(plan.unschedulable.empty());
}

TEST_F(TopologyPlanTest, RoomOnANodeTheSpreadForbidsTriggersAScaleUp) {
  groups_ = {ZoneGroup("in-a", "a", 1), ZoneGroup("in-b", "b", 1)};
  AddNode("a-1", "in-a", "a");
  AddNode("b-1", "in-b", "b");
  for (int i = 0; i < 2; ++i) {
    PodState& pod = snapshot_.pods.emplace_back(
        BoundPod("a" + std::to_string(i), "a-1", 500, kGi));
    pod.labels = {{"app", "web"}};
  }
  snapshot_.pods.push_back(BoundPod("batch", "b-1", 4000, kGi));
  snapshot_.pods.push_back(ZoneSpread("new", 1));
  const ScaleUpPlan plan = PlanUp();
  // a-1 has 3 cpus free, but zone a would hold 3 web pods to b's 0.
  EXPECT_TRUE(plan.fit_existing.empty());
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].group, "in-b");
}

TEST_F(TopologyPlanTest, AGroupRefusedInOneRoundIsAskedAgainInTheNext) {
  groups_ = {ZoneGroup("in-a", "a", 1), ZoneGroup("in-b", "b", 1)};
  AddNode("a-1", "in-a", "a");
  AddNode("b-1", "in-b", "b");
  PodState& web = snapshot_.pods.emplace_back(BoundPod("a0", "a-1", 4000, kGi));
  web.labels = {{"app", "web"}};
  snapshot_.pods.push_back(BoundPod("batch", "b-1", 4000, kGi));
  for (int i = 0; i < 3; ++i) {
    snapshot_.pods.push_back(ZoneSpread("new" + std::to_string(i), 1));
    snapshot_.pods.MutableBack().requests = Res(3000, kGi, 1);
  }
  const ScaleUpPlan plan = PlanUp();
  // Zone a (1 web pod) cannot take one before zone b has 1; b takes two
  // (b = 2, a = 1), then a the third.
  EXPECT_TRUE(plan.unschedulable.empty());
  ASSERT_EQ(plan.increases.size(), 2u);
  EXPECT_EQ(plan.increases[0].group, "in-b");
  EXPECT_EQ(plan.increases[0].delta, 2);
  EXPECT_EQ(plan.increases[1].group, "in-a");
  EXPECT_EQ(plan.increases[1].delta, 1);
}

TEST_F(TopologyPlanTest, APodNoGroupCanTakeSaysTopologyIsWhy) {
  groups_ = {ZoneGroup("in-a", "a", 1)};
  AddNode("a-1", "in-a", "a");
  NodeState& b = AddNode("b-1", "", "b");  // no group: cannot grow
  b.allocatable = Res(100, kGi);
  PodState& in_a =
      snapshot_.pods.emplace_back(BoundPod("a0", "a-1", 4000, kGi));
  in_a.labels = {{"app", "web"}};
  snapshot_.pods.push_back(ZoneSpread("new", 1));
  snapshot_.pods.MutableBack().requests = Res(1000, kGi, 1);
  const ScaleUpPlan plan = PlanUp();
  EXPECT_TRUE(plan.increases.empty());
  ASSERT_EQ(plan.unschedulable.size(), 1u);
  EXPECT_EQ(plan.unschedulable[0].reasons->at("in-a"),
            "pod affinity, anti-affinity or topology spread not met on a new "
            "node");
}

TEST_F(TopologyPlanTest, ScaleDownKeepsANodeWhosePodsWouldBreakTheirSpread) {
  groups_ = {ZoneGroup("in-a", "a", 2), ZoneGroup("in-b", "b", 1)};
  AddNode("a-1", "in-a", "a");
  AddNode("a-2", "in-a", "a");
  AddNode("b-1", "in-b", "b");
  // One web pod per node, spread over zones with maxSkew 1, minDomains 2.
  for (const char* node : {"a-1", "a-2", "b-1"}) {
    PodState& pod = snapshot_.pods.emplace_back(
        BoundPod(std::string("w-") + node, node, 500, kGi));
    pod.labels = {{"app", "web"}};
    pod.spread = {{1, kZone, Selector("app=web"), 2}};
  }
  ScaleDownConfig config;
  const ScaleDownPlan plan = PlanScaleDown(snapshot_, groups_, config);
  // a-1 goes first: its pod moves to a-2 (zones a and b hold 2 and 1).
  // Without b-1 zone a would be the only domain, fewer than minDomains, so
  // the minimum is 0 and a third pod in zone a has skew 3: b-1 stays,
  // though by resources its pod fits a-2.
  ASSERT_EQ(plan.removals.size(), 1u);
  EXPECT_EQ(plan.removals[0].node, "a-1");
  bool b_removed = false;
  for (const NodeRemoval& removal : plan.removals) {
    if (removal.node == "b-1") b_removed = true;
  }
  EXPECT_FALSE(b_removed);
  bool b_kept = false;
  for (const auto& kept : plan.kept) {
    if (kept.node == "b-1") {
      b_kept = true;
      EXPECT_EQ(kept.reason, "pod default/w-b-1 fits on no other node");
    }
  }
  EXPECT_TRUE(b_kept);
}

}  // namespace
}  // namespace propscaler::nodescale
