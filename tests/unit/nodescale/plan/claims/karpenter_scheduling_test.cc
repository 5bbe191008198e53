// Karpenter's scheduling tests, transcribed as facts (inputs and expected
// outcomes) from kubernetes-sigs/karpenter pkg/controllers/provisioning/
// scheduling: suite_test.go, topology_test.go and
// instance_selection_test.go, over catalogues equal to its fake cloud
// provider's (pkg/cloudprovider/fake/instancetype.go). The NodePool weight
// and limits cases are from pkg/controllers/provisioning/suite_test.go,
// since the three files have none. A Karpenter test that provisions in
// several rounds is one plan here, the earlier rounds' nodes given as
// existing (in-flight) nodes.
//
// Preferences: suite_test.go's Preferential Fallback cases (required
// node terms one after the other, the final one kept; all preferred node
// terms relaxed; lighter weights used), and preferred pod (anti-)affinity
// and ScheduleAnyway spreads required while they can be met, then relaxed.
//
// And "should tolerate PreferNoSchedule taint only after trying to relax
// Affinity terms".
//
// Not transcribed:
// - NodeTaintsPolicy,
//   NodeAffinityPolicy, matchLabelKeys, DefaultConstraints (synthesized
//   spreads).
// - Volumes (VolumeUsage, CSIMigration, ephemeral volumes, PVC, storage
//   class and volume-topology cases): their needs are resolved before this
//   planner, not by it.
// - Reserved Instance Types, Offering Overrides, Dynamic Resource
//   Allocation, MaxInstanceTypes truncation, MinValuesPolicy BestEffort:
//   not in the model.
// - Node and NodeClaim lifecycle: not-ready NodePools, initialized and
//   registered labels, the not-ready NoExecute taint, startup taints after
//   initialization, deleting and terminating nodes and pods, No
//   Pre-Binding, metrics, events, the batcher, NodeClaim creation fields,
//   restricted labels and domains, runtime classes: outside the planner's
//   input and output.
// - Late commitment of a claim's zone: zonal anti-affinity when the
//   avoided pod schedules first ("other schedules first", "Schrödinger",
//   "with a zone topology") and zonal affinity to an unconstrained target.
//   Karpenter leaves such a claim's zone open until it launches and so
//   turns the other pod away until the next round; this scheduler fixes a
//   claim's zone when a counted pod lands, so one round differs by design.
// - DaemonSet cases (in provisioning/suite_test.go), and, to keep to
//   about thirty-five cases, near duplicates and further variants: the
//   repeated Well Known Labels and Scheduling Logic blocks, the other
//   cheapest-instance, minValues, limits, binpacking, in-flight node,
//   zonal spread and anti-affinity variants.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "nodescale/plan/claims/claim_scheduler.h"
#include "nodescale/plan/claims/pool_catalogue.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT
using Op = NodeSelectorRequirement::Op;

constexpr char kZone[] = "topology.kubernetes.io/zone";
constexpr char kArch[] = "kubernetes.io/arch";
constexpr char kOs[] = "kubernetes.io/os";
constexpr char kInstanceType[] = "node.kubernetes.io/instance-type";
constexpr char kCapacityType[] = "karpenter.sh/capacity-type";
// The fake provider's own labels.
constexpr char kSize[] = "size";
constexpr char kSpecial[] = "special";
constexpr char kInteger[] = "integer";
// instance_selection_test.go's custom numeric label.
constexpr char kGeneration[] = "karpenter/numerical-value";

LabelSelector Selector(const std::string& text) {
  return *LabelSelector::Parse(text);
}

Offering Offer(const std::string& capacity_type, const std::string& zone,
               double price) {
  return Offering{Labels{{kCapacityType, capacity_type}, {kZone, zone}}, price,
                  true};
}

void OnlyOs(InstanceType* type, std::vector<std::string> systems) {
  type->choices = {{kOs, std::move(systems)}};
}

// fake.NewInstanceType: amd64; linux, windows or darwin; labels for its
// name, size ("large" above 4 cpus and 8Gi, which also carry "special")
// and cpu count ("integer"); 100m and 10Mi kube-reserved; 0.1 a cpu and
// 0.1 a GB an hour, as spot in test-zone-1 and -2 and on-demand in all
// three.
InstanceType FakeType(const std::string& name, int64_t cpus, int64_t memory_gi,
                      int64_t pods = 5) {
  InstanceType type;
  type.name = name;
  type.labels = {{kInstanceType, name},
                 {kArch, "amd64"},
                 {kInteger, std::to_string(cpus)}};
  const bool large = cpus > 4 && memory_gi > 8;
  type.labels[kSize] = large ? "large" : "small";
  if (large) type.labels[kSpecial] = "optional";
  OnlyOs(&type, {"darwin", "linux", "windows"});
  type.capacity = Res(cpus * 1000, memory_gi * kGi, pods);
  type.overhead = Res(100, 10 * kMi, 0);
  const double price = 0.1 * static_cast<double>(cpus) +
                       0.1 * static_cast<double>(memory_gi * kGi) / 1e9;
  for (const char* zone : {"test-zone-1", "test-zone-2"}) {
    type.offerings.push_back(Offer("spot", zone, price));
  }
  for (const char* zone : {"test-zone-1", "test-zone-2", "test-zone-3"}) {
    type.offerings.push_back(Offer("on-demand", zone, price));
  }
  return type;
}

// Two of a GPU resource, which adds 1.0 to the price.
void AddGpus(InstanceType* type, const std::string& resource) {
  type->capacity.SetExtended(resource, 2);
  for (Offering& offering : type->offerings) offering.price += 1.0;
}

// The fake provider's default instance types.
std::vector<InstanceType> DefaultCatalogue() {
  std::vector<InstanceType> types = {
      FakeType("default-instance-type", 4, 4),
      FakeType("small-instance-type", 2, 2),
      FakeType("gpu-vendor-instance-type", 4, 4),
      FakeType("gpu-vendor-b-instance-type", 4, 4),
      FakeType("arm-instance-type", 16, 128),
      FakeType("single-pod-instance-type", 4, 4, 1)};
  AddGpus(&types[2], "fake.com/vendor-a");
  AddGpus(&types[3], "fake.com/vendor-b");
  types[4].labels[kArch] = "arm64";
  OnlyOs(&types[4], {"darwin", "ios", "linux", "windows"});
  return types;
}

// fake.InstanceTypes(n): fake-it-i with i+1 cpus, 2(i+1)Gi, 10(i+1) pods.
std::vector<InstanceType> FakeTypes(int64_t n) {
  std::vector<InstanceType> types;
  for (int64_t i = 0; i < n; ++i) {
    types.push_back(FakeType("fake-it-" + std::to_string(i), i + 1, 2 * (i + 1),
                             10 * (i + 1)));
  }
  return types;
}

// fake.InstanceTypesAssorted: one type per cpu count, memory, zone,
// capacity type, operating system and architecture (1,344), each with its
// one offering.
std::vector<InstanceType> AssortedCatalogue() {
  std::vector<InstanceType> types;
  for (int64_t cpus : {1, 2, 4, 8, 16, 32, 64}) {
    for (int64_t memory : {1, 2, 4, 8, 16, 32, 64, 128}) {
      for (const char* zone : {"test-zone-1", "test-zone-2", "test-zone-3"}) {
        for (const char* capacity : {"spot", "on-demand"}) {
          for (const char* os : {"linux", "windows"}) {
            for (const char* arch : {"amd64", "arm64"}) {
              const std::string name = std::to_string(cpus) + "-cpu-" +
                                       std::to_string(memory) + "-mem-" + arch +
                                       "-" + os + "-" + zone + "-" + capacity;
              InstanceType type = FakeType(name, cpus, memory);
              type.labels[kArch] = arch;
              OnlyOs(&type, {os});
              type.offerings = {Offer(capacity, zone, type.offerings[0].price)};
              types.push_back(std::move(type));
            }
          }
        }
      }
    }
  }
  return types;
}

// The minValues cases' types: arm64, linux, one spot offering.
InstanceType SpotArmType(const std::string& name, int64_t cpus,
                         int64_t memory_gi, double price) {
  InstanceType type = FakeType(name, cpus, memory_gi);
  type.labels[kArch] = "arm64";
  OnlyOs(&type, {"linux"});
  type.offerings = {Offer("spot", "test-zone-1-spot", price)};
  return type;
}

double MinPrice(const std::vector<InstanceType>& catalogue) {
  double least = std::numeric_limits<double>::max();
  for (const InstanceType& type : catalogue) {
    for (const Offering& offering : type.offerings) {
      least = std::min(least, offering.price);
    }
  }
  return least;
}

const InstanceType& TypeNamed(const std::vector<InstanceType>& catalogue,
                              const std::string& name) {
  return *std::find_if(
      catalogue.begin(), catalogue.end(),
      [&](const InstanceType& type) { return type.name == name; });
}

PoolRequirement Requirement(const std::string& key, Op op,
                            std::vector<std::string> values = {},
                            int64_t min_values = 0) {
  return PoolRequirement{NodeSelectorRequirement{key, op, std::move(values)},
                         min_values};
}

NodePoolSpec PoolNamed(const std::string& name,
                       std::vector<PoolRequirement> requirements = {}) {
  NodePoolSpec pool;
  pool.name = name;
  pool.disruption.name = name;
  pool.requirements = std::move(requirements);
  return pool;
}

// suite_test.go's NodePool: every capacity type.
NodePoolSpec SuitePool() {
  return PoolNamed("default", {Requirement(kCapacityType, Op::kIn,
                                           {"spot", "on-demand", "reserved"})});
}

// topology_test.go's NodePool: a capacity type.
NodePoolSpec TopologyPool() {
  return PoolNamed("default", {Requirement(kCapacityType, Op::kExists)});
}

// instance_selection_test.go's NodePool: spot or on-demand, either arch.
NodePoolSpec SelectionPool() {
  return PoolNamed("default",
                   {Requirement(kCapacityType, Op::kIn, {"spot", "on-demand"}),
                    Requirement(kArch, Op::kIn, {"arm64", "amd64"})});
}

// Adds a required node affinity term (terms are ORed).
void AddTerm(PodState* pod, std::vector<NodeSelectorRequirement> requirements) {
  std::vector<NodeSelectorTerm> terms = *pod->node_affinity;
  terms.push_back(NodeSelectorTerm{std::move(requirements)});
  pod->node_affinity = std::move(terms);
}

PodState LabelledPod(const std::string& name, int64_t cpu_millis,
                     Labels labels) {
  PodState pod = Pod(name, cpu_millis, 0);
  pod.labels = std::move(labels);
  return pod;
}

SpreadConstraint Spread(const std::string& key, const std::string& selector,
                        int64_t max_skew = 1, int64_t min_domains = 0) {
  return SpreadConstraint{max_skew, key, Selector(selector), min_domains};
}

PodAffinityTerm Term(const std::string& selector, const std::string& key) {
  return PodAffinityTerm{Selector(selector), {}, key};
}

// A node Karpenter launched as `type` with `labels` (zone, capacity type,
// NodePool, os), not yet ready.
NodeState InFlightNode(const std::string& name, const InstanceType& type,
                       Labels labels) {
  NodeState node;
  node.name = name;
  node.allocatable = type.Allocatable();
  node.labels = std::move(labels);
  for (const auto& [key, value] : type.labels) node.labels[key] = value;
  node.labels[std::string(kHostnameLabel)] = name;
  return node;
}

std::string LabelOf(const PlannedClaim& claim, const std::string& key) {
  auto it = claim.labels.find(key);
  return it == claim.labels.end() ? "" : it->second;
}

std::vector<size_t> Unschedulable(const ClaimPlan& plan) {
  std::vector<size_t> pods;
  for (const UnplacedPod& unplaced : plan.unschedulable) {
    pods.push_back(unplaced.pod);
  }
  return pods;
}

// The claim `pod` goes with; plan.claims.size() when none.
size_t ClaimOf(const ClaimPlan& plan, size_t pod) {
  for (size_t c = 0; c < plan.claims.size(); ++c) {
    const std::vector<size_t>& pods = plan.claims[c].pods;
    if (std::find(pods.begin(), pods.end(), pod) != pods.end()) return c;
  }
  return plan.claims.size();
}

class KarpenterSchedulingTest : public ::testing::Test {
 protected:
  ClaimPlan Schedule() const {
    return ScheduleClaims({&snapshot_, &pools_, &catalogue_});
  }

  size_t Add(PodState pod) {
    snapshot_.pods.push_back(std::move(pod));
    return snapshot_.pods.size() - 1;
  }

  std::string TypeOf(const PlannedClaim& claim) const {
    return catalogue_[claim.instance_type].name;
  }

  // Karpenter's ExpectSkew: the pods `selector` matches per zone, where
  // they are bound, placed or planned; sorted.
  std::vector<int64_t> ZoneCounts(const ClaimPlan& plan,
                                  const LabelSelector& selector) const {
    std::map<std::string, int64_t> counts;
    auto count = [&](size_t pod, const Labels& labels) {
      if (!selector.Matches(*snapshot_.pods[pod].labels)) return;
      auto zone = labels.find(kZone);
      if (zone != labels.end()) ++counts[zone->second];
    };
    for (size_t p = 0; p < snapshot_.pods.size(); ++p) {
      for (const NodeState& node : snapshot_.nodes) {
        if (node.name == snapshot_.pods[p].node_name) count(p, node.labels);
      }
    }
    for (const ExistingPlacement& placed : plan.existing_nodes) {
      for (size_t p : placed.pods) {
        count(p, snapshot_.nodes[placed.node].labels);
      }
    }
    for (const PlannedClaim& claim : plan.claims) {
      for (size_t p : claim.pods) count(p, claim.labels);
    }
    std::vector<int64_t> out;
    for (const auto& entry : counts) out.push_back(entry.second);
    std::sort(out.begin(), out.end());
    return out;
  }

  ClusterSnapshot snapshot_;
  std::vector<NodePoolSpec> pools_ = {SuitePool()};
  std::vector<InstanceType> catalogue_ = DefaultCatalogue();
};

// --- Custom constraints -------------------------------------------------

// suite_test.go, NodePool with Labels:
// "should schedule pods that have matching requirements"
TEST_F(KarpenterSchedulingTest, NodePoolLabelMeetsMatchingRequirement) {
  pools_[0].labels = {{"test-key", "test-value"}};
  PodState pod = Pod("p", 0, 0);
  AddTerm(&pod, {{"test-key", Op::kIn, {"test-value", "another-value"}}});
  Add(pod);
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(LabelOf(plan.claims[0], "test-key"), "test-value");
  EXPECT_TRUE(plan.unschedulable.empty());
}

// suite_test.go, NodePool with Labels:
// "should not schedule pods that have conflicting node selectors"
TEST_F(KarpenterSchedulingTest, ConflictingNodeSelectorIsUnschedulable) {
  pools_[0].labels = {{"test-key", "test-value"}};
  PodState pod = Pod("p", 0, 0);
  pod.node_selector = Labels{{"test-key", "different-value"}};
  Add(pod);
  ClaimPlan plan = Schedule();
  EXPECT_TRUE(plan.claims.empty());
  EXPECT_EQ(Unschedulable(plan), (std::vector<size_t>{0}));
}

// suite_test.go, "should schedule compatible requirements with Operator=Gt"
TEST_F(KarpenterSchedulingTest, GtRequirementOnNodePool) {
  pools_[0].requirements = {Requirement(kInteger, Op::kGt, {"8"})};
  Add(Pod("p", 0, 0));
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(LabelOf(plan.claims[0], kInteger), "16");
  EXPECT_EQ(TypeOf(plan.claims[0]), "arm-instance-type");
}

// suite_test.go, "should schedule compatible requirements with Operator=Lt"
TEST_F(KarpenterSchedulingTest, LtRequirementOnNodePool) {
  pools_[0].requirements = {Requirement(kInteger, Op::kLt, {"8"})};
  Add(Pod("p", 0, 0));
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(LabelOf(plan.claims[0], kInteger), "2");
  EXPECT_EQ(TypeOf(plan.claims[0]), "small-instance-type");
}

// suite_test.go, Scheduling Logic:
// "should schedule the pod with Exists operator and defined key"
TEST_F(KarpenterSchedulingTest, ExistsMeetsTheNodePoolsRequirement) {
  pools_[0].requirements = {Requirement("test-key", Op::kIn, {"test-value"})};
  PodState pod = Pod("p", 0, 0);
  AddTerm(&pod, {{"test-key", Op::kExists}});
  Add(pod);
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(LabelOf(plan.claims[0], "test-key"), "test-value");
}

// suite_test.go, Scheduling Logic:
// "should not schedule the pod with DoesNotExists operator and defined key"
TEST_F(KarpenterSchedulingTest, DoesNotExistFailsTheNodePoolsRequirement) {
  pools_[0].requirements = {Requirement("test-key", Op::kIn, {"test-value"})};
  PodState pod = Pod("p", 0, 0);
  AddTerm(&pod, {{"test-key", Op::kDoesNotExist}});
  Add(pod);
  ClaimPlan plan = Schedule();
  EXPECT_TRUE(plan.claims.empty());
  EXPECT_EQ(Unschedulable(plan), (std::vector<size_t>{0}));
}

// suite_test.go, Scheduling Logic:
// "should schedule compatible pods to the same node"
TEST_F(KarpenterSchedulingTest, CompatiblePodsShareAClaim) {
  pools_[0].requirements = {
      Requirement("test-key", Op::kIn, {"test-value", "another-value"})};
  PodState in = Pod("in", 0, 0);
  AddTerm(&in, {{"test-key", Op::kIn, {"test-value"}}});
  PodState not_in = Pod("not-in", 0, 0);
  AddTerm(&not_in, {{"test-key", Op::kNotIn, {"another-value"}}});
  Add(in);
  Add(not_in);
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(plan.claims[0].pods.size(), 2u);
  EXPECT_EQ(LabelOf(plan.claims[0], "test-key"), "test-value");
}

// suite_test.go, Scheduling Logic:
// "should schedule incompatible pods to the different node"
TEST_F(KarpenterSchedulingTest, IncompatiblePodsGetTheirOwnClaims) {
  pools_[0].requirements = {
      Requirement("test-key", Op::kIn, {"test-value", "another-value"})};
  PodState first = Pod("first", 0, 0);
  AddTerm(&first, {{"test-key", Op::kIn, {"test-value"}}});
  PodState second = Pod("second", 0, 0);
  AddTerm(&second, {{"test-key", Op::kIn, {"another-value"}}});
  const size_t a = Add(first);
  const size_t b = Add(second);
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 2u);
  ASSERT_TRUE(plan.unschedulable.empty());
  ASSERT_NE(ClaimOf(plan, a), ClaimOf(plan, b));
  EXPECT_EQ(LabelOf(plan.claims[ClaimOf(plan, a)], "test-key"), "test-value");
  EXPECT_EQ(LabelOf(plan.claims[ClaimOf(plan, b)], "test-key"),
            "another-value");
}

// --- Incompatible requirements ------------------------------------------

// suite_test.go, Well Known Labels:
// "should not schedule if node selector outside of NodePool constraints"
TEST_F(KarpenterSchedulingTest, NodeSelectorOutsideNodePoolZones) {
  pools_[0].requirements = {Requirement(kZone, Op::kIn, {"test-zone-1"})};
  PodState pod = Pod("p", 0, 0);
  pod.node_selector = Labels{{kZone, "test-zone-2"}};
  Add(pod);
  ClaimPlan plan = Schedule();
  EXPECT_TRUE(plan.claims.empty());
  EXPECT_EQ(Unschedulable(plan), (std::vector<size_t>{0}));
}

// --- Required node affinity terms ---------------------------------------

// suite_test.go, Preferential Fallback / Required:
// "should relax multiple terms"
// (The terms are ORed here; every offering costs the same, and the first,
// in test-zone-1, launches.)
TEST_F(KarpenterSchedulingTest, LaterRequiredTermUsedWhenFirstCannotBe) {
  PodState pod = Pod("p", 0, 0);
  AddTerm(&pod, {{kZone, Op::kIn, {"invalid"}}});
  AddTerm(&pod, {{kZone, Op::kIn, {"invalid"}}});
  AddTerm(&pod, {{kZone, Op::kIn, {"test-zone-1"}}});
  AddTerm(&pod, {{kZone, Op::kIn, {"test-zone-2"}}});
  Add(pod);
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(LabelOf(plan.claims[0], kZone), "test-zone-1");
}

// suite_test.go, Preferential Fallback / Required:
// "should not relax the final term"
TEST_F(KarpenterSchedulingTest, FinalRequiredTermIsNotRelaxed) {
  pools_[0].requirements = {
      Requirement(kZone, Op::kIn, {"test-zone-1"}),
      Requirement(kInstanceType, Op::kIn, {"default-instance-type"})};
  PodState pod = Pod("p", 0, 0);
  AddTerm(&pod, {{kZone, Op::kIn, {"invalid"}}});
  Add(pod);
  ClaimPlan plan = Schedule();
  EXPECT_TRUE(plan.claims.empty());
  EXPECT_EQ(Unschedulable(plan), (std::vector<size_t>{0}));
}

// --- The cheapest instance type -----------------------------------------

// instance_selection_test.go, "should schedule on one of the cheapest
// instances"
TEST_F(KarpenterSchedulingTest, LaunchesTheCheapestInstance) {
  catalogue_ = AssortedCatalogue();
  pools_ = {SelectionPool()};
  Add(Pod("p", 0, 0));
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_DOUBLE_EQ(plan.claims[0].price, MinPrice(catalogue_));
  EXPECT_EQ(plan.claims[0].compatible_instance_types, 1344);
}

// instance_selection_test.go, "should schedule on one of the cheapest
// instances (prov ct = ondemand/test-zone-1/arm64/windows)"
TEST_F(KarpenterSchedulingTest, CheapestWithinNodePoolRequirements) {
  catalogue_ = AssortedCatalogue();
  pools_ = {
      PoolNamed("default", {Requirement(kArch, Op::kIn, {"arm64"}),
                            Requirement(kOs, Op::kIn, {"windows"}),
                            Requirement(kCapacityType, Op::kIn, {"on-demand"}),
                            Requirement(kZone, Op::kIn, {"test-zone-1"})})};
  Add(Pod("p", 0, 0));
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  const PlannedClaim& claim = plan.claims[0];
  EXPECT_DOUBLE_EQ(claim.price, MinPrice(catalogue_));
  EXPECT_EQ(TypeOf(claim), "1-cpu-1-mem-arm64-windows-test-zone-1-on-demand");
  EXPECT_EQ(LabelOf(claim, kOs), "windows");
  EXPECT_EQ(LabelOf(claim, kArch), "arm64");
  EXPECT_EQ(LabelOf(claim, kCapacityType), "on-demand");
  EXPECT_EQ(LabelOf(claim, kZone), "test-zone-1");
  // Every type it could be has those labels: 7 cpu counts x 8 memories.
  EXPECT_EQ(claim.compatible_instance_types, 56);
}

// instance_selection_test.go, "should schedule on cheaper on-demand instance
// even when spot price ordering would place other instance types first"
TEST_F(KarpenterSchedulingTest, CheaperOnDemandOfferingWins) {
  InstanceType first = FakeType("test-instance1", 1, 1);
  OnlyOs(&first, {"linux"});
  first.offerings = {Offer("on-demand", "test-zone-1a", 1.0),
                     Offer("spot", "test-zone-1a", 0.2)};
  InstanceType second = FakeType("test-instance2", 1, 1);
  OnlyOs(&second, {"linux"});
  second.offerings = {Offer("on-demand", "test-zone-1a", 1.3),
                      Offer("spot", "test-zone-1a", 0.1)};
  catalogue_ = {first, second};
  pools_[0].requirements = {Requirement(kCapacityType, Op::kIn, {"on-demand"})};
  Add(Pod("p", 0, 0));
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(TypeOf(plan.claims[0]), "test-instance1");
  EXPECT_EQ(LabelOf(plan.claims[0], kCapacityType), "on-demand");
}

// suite_test.go, Binpacking:
// "should select for valid instance types, regardless of price"
TEST_F(KarpenterSchedulingTest, CheapestOfTheValidTypes) {
  catalogue_ = {FakeType("medium", 2, 2), FakeType("small", 1, 1),
                FakeType("large", 4, 4)};
  const double prices[] = {3.0, 2.0, 1.0};
  for (size_t i = 0; i < catalogue_.size(); ++i) {
    catalogue_[i].offerings = {Offer("on-demand", "test-zone-1a", prices[i])};
  }
  Add(Pod("p", 1, kMi));
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(TypeOf(plan.claims[0]), "large");
  EXPECT_EQ(plan.claims[0].compatible_instance_types, 3);
}

// --- NodePool weights -----------------------------------------------------

// provisioning/suite_test.go, Weighted NodePools:
// "should schedule to the nodepool with the highest priority always"
TEST_F(KarpenterSchedulingTest, HeaviestNodePoolFirst) {
  pools_ = {PoolNamed("np-a"), PoolNamed("np-b"), PoolNamed("np-c")};
  pools_[1].weight = 20;
  pools_[2].weight = 100;
  for (int i = 0; i < 3; ++i) Add(Pod("p" + std::to_string(i), 0, 0));
  ClaimPlan plan = Schedule();
  ASSERT_FALSE(plan.claims.empty());
  size_t planned = 0;
  for (const PlannedClaim& claim : plan.claims) {
    EXPECT_EQ(claim.pool, 2u);
    EXPECT_EQ(LabelOf(claim, std::string(kNodePoolLabel)), "np-c");
    planned += claim.pods.size();
  }
  EXPECT_EQ(planned, 3u);
}

// --- NodePool limits ------------------------------------------------------

// provisioning/suite_test.go, Resource Limits:
// "should partially schedule if limits would be exceeded"
TEST_F(KarpenterSchedulingTest, CpuLimitLeavesRoomForOneNode) {
  pools_ = {PoolNamed("default")};
  pools_[0].limits["cpu"] = 3000;
  for (int i = 0; i < 2; ++i) {
    PodState pod =
        LabelledPod("p" + std::to_string(i), 1500, Labels{{"app", "foo"}});
    pod.anti_affinity = std::vector<PodAffinityTerm>{
        Term("app=foo", std::string(kHostnameLabel))};
    Add(pod);
  }
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(plan.claims[0].pods.size(), 1u);
  EXPECT_EQ(TypeOf(plan.claims[0]), "small-instance-type");
  EXPECT_EQ(plan.unschedulable.size(), 1u);
}

// provisioning/suite_test.go, Resource Limits: "should not schedule to a
// nodepool after a scheduling round if limits would be exceeded"
TEST_F(KarpenterSchedulingTest, NodeOfAnEarlierRoundCountsAgainstLimit) {
  pools_ = {PoolNamed("default")};
  pools_[0].limits["cpu"] = 2000;
  Add(Pod("first", 1750, 0));
  ClaimPlan first = Schedule();
  ASSERT_EQ(first.claims.size(), 1u);  // a 2-cpu node fits the limit
  EXPECT_EQ(TypeOf(first.claims[0]), "small-instance-type");

  ClusterSnapshot later;
  later.nodes = {InFlightNode("default-1",
                              catalogue_[first.claims[0].instance_type],
                              first.claims[0].labels)};
  later.pods.push_back(BoundPod("first", "default-1", 1750, 0));
  later.pods.push_back(Pod("second", 1750, 0));
  ClaimPlan second = ScheduleClaims({&later, &pools_, &catalogue_});
  EXPECT_TRUE(second.claims.empty());
  EXPECT_TRUE(second.existing_nodes.empty());
  EXPECT_EQ(Unschedulable(second), (std::vector<size_t>{1}));
}

// --- minValues ------------------------------------------------------------

// instance_selection_test.go, MinValues: "should schedule respecting the
// minValues from instance-type requirements"
TEST_F(KarpenterSchedulingTest, MinValuesKeepsTwoInstanceTypesPerClaim) {
  catalogue_ = {SpotArmType("instance-type-1", 1, 1, 0.52),
                SpotArmType("instance-type-2", 4, 4, 1.0)};
  pools_ = {PoolNamed(
      "default", {Requirement(kInstanceType, Op::kIn,
                              {"instance-type-1", "instance-type-2"}, 2)})};
  // Together they fit only instance-type-2.
  Add(Pod("p1", 900, 9 * kGi / 10));
  Add(Pod("p2", 900, 9 * kGi / 10));
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 2u);
  for (const PlannedClaim& claim : plan.claims) {
    EXPECT_EQ(claim.pods.size(), 1u);
    EXPECT_GE(claim.compatible_instance_types, 2);
  }
}

// instance_selection_test.go, MinValues: "scheduler should fail if the
// minValues in Gt operator is not satisfied"
TEST_F(KarpenterSchedulingTest, MinValuesUnmetAfterThePodsGt) {
  catalogue_ = {SpotArmType("instance-type-1", 1, 1, 0.52),
                SpotArmType("instance-type-2", 4, 4, 1.0)};
  catalogue_[0].labels[kGeneration] = "2";
  catalogue_[1].labels[kGeneration] = "3";
  pools_ = {
      PoolNamed("default", {Requirement(kGeneration, Op::kExists, {}, 2)})};
  for (const char* name : {"p1", "p2"}) {
    PodState pod = Pod(name, 900, 9 * kGi / 10);
    AddTerm(&pod, {{kGeneration, Op::kGt, {"2"}}});
    Add(pod);
  }
  ClaimPlan plan = Schedule();
  EXPECT_TRUE(plan.claims.empty());
  EXPECT_EQ(Unschedulable(plan), (std::vector<size_t>{0, 1}));
}

// instance_selection_test.go, MinValues:
// "should schedule and respect multiple requirement keys with minValues"
TEST_F(KarpenterSchedulingTest, MinValuesOnTwoKeys) {
  catalogue_ = {SpotArmType("instance-type-1", 1, 1, 0.52),
                SpotArmType("instance-type-2", 4, 4, 1.0)};
  catalogue_[1].labels[kArch] = "amd64";
  pools_ = {PoolNamed(
      "default", {Requirement(kArch, Op::kExists, {}, 2),
                  Requirement(kInstanceType, Op::kIn,
                              {"instance-type-1", "instance-type-2"}, 1)})};
  Add(Pod("p1", 900, 9 * kGi / 10));
  Add(Pod("p2", 900, 9 * kGi / 10));
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 2u);
  for (const PlannedClaim& claim : plan.claims) {
    EXPECT_EQ(claim.pods.size(), 1u);
    EXPECT_GE(claim.compatible_instance_types, 2);
  }
}

// --- Taints ---------------------------------------------------------------

// topology_test.go, "should schedule pods that tolerate NodePool
// constraints"
TEST_F(KarpenterSchedulingTest, OnlyPodsThatTolerateTheTaintGetClaims) {
  pools_ = {TopologyPool()};
  pools_[0].taints = {
      Taint{"test-key", "test-value", TaintEffect::kNoSchedule}};
  const std::vector<std::vector<Toleration>> tolerations = {
      {{.key = "test-key", .op = Toleration::Op::kExists, .any_effect = false}},
      {{.key = "test-key",
        .op = Toleration::Op::kEqual,
        .value = "test-value",
        .any_effect = false}},
      {},                                                   // none
      {{.key = "invalid", .op = Toleration::Op::kExists}},  // other key
      {{.key = "test-key",
        .op = Toleration::Op::kEqual,
        .any_effect = false}}};  // other value
  for (size_t i = 0; i < tolerations.size(); ++i) {
    PodState pod = Pod("p" + std::to_string(i), 0, 0);
    pod.tolerations = tolerations[i];
    Add(pod);
  }
  ClaimPlan plan = Schedule();
  EXPECT_LT(ClaimOf(plan, 0), plan.claims.size());
  EXPECT_LT(ClaimOf(plan, 1), plan.claims.size());
  EXPECT_EQ(Unschedulable(plan), (std::vector<size_t>{2, 3, 4}));
}

// topology_test.go, "should provision nodes with taints and schedule pods if
// the taint is only a startup taint"
TEST_F(KarpenterSchedulingTest, StartupTaintNeedsNoToleration) {
  pools_ = {TopologyPool()};
  pools_[0].startup_taints = {
      Taint{"ignore-me", "nothing-to-see-here", TaintEffect::kNoSchedule}};
  Add(Pod("p", 0, 0));
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_TRUE(plan.unschedulable.empty());
}

// --- Binpacking -----------------------------------------------------------

// suite_test.go, Binpacking: "should schedule multiple small pods on the
// smallest possible instance type"
TEST_F(KarpenterSchedulingTest, SmallPodsShareTheSmallestType) {
  for (int i = 0; i < 5; ++i) {
    Add(Pod("p" + std::to_string(i), 0, 10'000'000));
  }
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(plan.claims[0].pods.size(), 5u);
  EXPECT_EQ(TypeOf(plan.claims[0]), "small-instance-type");
}

// suite_test.go, Binpacking:
// "should create new nodes when a node is at capacity"
TEST_F(KarpenterSchedulingTest, FullClaimsOpenNewOnes) {
  PodState pod = Pod("p", 0, 1'800'000'000);
  pod.node_selector = Labels{{kArch, "amd64"}};
  for (int i = 0; i < 40; ++i) {
    pod.name = "p" + std::to_string(i);
    Add(pod);
  }
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 20u);
  for (const PlannedClaim& claim : plan.claims) {
    EXPECT_EQ(claim.pods.size(), 2u);
    EXPECT_EQ(TypeOf(claim), "default-instance-type");
  }
  EXPECT_TRUE(plan.unschedulable.empty());
}

// suite_test.go, Binpacking: "should pack nodes tightly"
TEST_F(KarpenterSchedulingTest, BigPodGetsTheBigTypeSmallOneASmallType) {
  catalogue_ = FakeTypes(5);
  const size_t big = Add(Pod("big", 4500, 0));
  const size_t little = Add(Pod("little", 1000, 0));
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 2u);
  ASSERT_TRUE(plan.unschedulable.empty());
  ASSERT_NE(ClaimOf(plan, big), ClaimOf(plan, little));
  EXPECT_EQ(TypeOf(plan.claims[ClaimOf(plan, big)]), "fake-it-4");
  EXPECT_NE(TypeOf(plan.claims[ClaimOf(plan, little)]), "fake-it-4");
}

// --- Existing nodes first -------------------------------------------------

// suite_test.go, In-Flight Nodes: "should not launch a second node if there
// is an in-flight node that can support the pod (node selectors)"
TEST_F(KarpenterSchedulingTest, InFlightNodeTakesTheCompatiblePod) {
  snapshot_.nodes = {InFlightNode("default-1",
                                  TypeNamed(catalogue_, "small-instance-type"),
                                  {{kZone, "test-zone-2"},
                                   {kCapacityType, "spot"},
                                   {kOs, "linux"},
                                   {std::string(kNodePoolLabel), "default"}})};
  PodState first = BoundPod("first", "default-1", 10, 0);
  AddTerm(&first, {{kZone, Op::kIn, {"test-zone-2"}}});
  Add(first);
  PodState second = Pod("second", 10, 0);
  AddTerm(&second, {{kZone, Op::kIn, {"test-zone-1", "test-zone-2"}}});
  const size_t fits = Add(second);
  PodState third = Pod("third", 10, 0);
  AddTerm(&third, {{kZone, Op::kIn, {"test-zone-1", "test-zone-3"}}});
  const size_t elsewhere = Add(third);
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.existing_nodes.size(), 1u);
  EXPECT_EQ(plan.existing_nodes[0].pods, (std::vector<size_t>{fits}));
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(plan.claims[0].pods, (std::vector<size_t>{elsewhere}));
  EXPECT_NE(LabelOf(plan.claims[0], kZone), "test-zone-2");
}

// suite_test.go, Existing Nodes: "should schedule multiple pods to an
// existing node unowned by Karpenter"
TEST_F(KarpenterSchedulingTest, ExistingNodeTakesPodsBeforeAnyClaim) {
  snapshot_.nodes = {Node("existing", "", 10000, 100 * kGi)};
  for (int i = 0; i < 100; ++i) Add(Pod("p" + std::to_string(i), 10, 0));
  ClaimPlan plan = Schedule();
  EXPECT_TRUE(plan.claims.empty());
  ASSERT_EQ(plan.existing_nodes.size(), 1u);
  EXPECT_EQ(plan.existing_nodes[0].pods.size(), 100u);
}

// --- Topology spread ------------------------------------------------------

// topology_test.go, Zonal: "should balance pods across zones (match
// labels)"
TEST_F(KarpenterSchedulingTest, ZonalSpreadBalancesThreeZones) {
  pools_ = {TopologyPool()};
  for (int i = 0; i < 4; ++i) {
    PodState pod =
        LabelledPod("p" + std::to_string(i), 0, Labels{{"test", "test"}});
    pod.spread = std::vector<SpreadConstraint>{Spread(kZone, "test=test")};
    Add(pod);
  }
  ClaimPlan plan = Schedule();
  EXPECT_EQ(ZoneCounts(plan, Selector("test=test")),
            (std::vector<int64_t>{1, 1, 2}));
  EXPECT_EQ(plan.claims.size(), 3u);
}

// topology_test.go, Zonal: "should respect NodePool zonal constraints
// (subset) with requirements"
TEST_F(KarpenterSchedulingTest, ZonalSpreadOverTheNodePoolsZones) {
  pools_ = {
      PoolNamed("default",
                {Requirement(kZone, Op::kIn, {"test-zone-1", "test-zone-2"})})};
  for (int i = 0; i < 4; ++i) {
    PodState pod =
        LabelledPod("p" + std::to_string(i), 0, Labels{{"test", "test"}});
    pod.spread = std::vector<SpreadConstraint>{Spread(kZone, "test=test")};
    Add(pod);
  }
  ClaimPlan plan = Schedule();
  EXPECT_EQ(ZoneCounts(plan, Selector("test=test")),
            (std::vector<int64_t>{2, 2}));
}

// topology_test.go, Zonal: "should respect NodePool zonal constraints
// (subset) with labels"
TEST_F(KarpenterSchedulingTest, ZonalSpreadWithTheNodePoolsZoneLabel) {
  pools_ = {TopologyPool()};
  pools_[0].labels = {{kZone, "test-zone-1"}};
  for (int i = 0; i < 4; ++i) {
    PodState pod =
        LabelledPod("p" + std::to_string(i), 0, Labels{{"test", "test"}});
    pod.spread = std::vector<SpreadConstraint>{Spread(kZone, "test=test")};
    Add(pod);
  }
  ClaimPlan plan = Schedule();
  EXPECT_EQ(ZoneCounts(plan, Selector("test=test")), (std::vector<int64_t>{4}));
}

// topology_test.go, Zonal: "should respect NodePool zonal constraints
// (existing pod)"
TEST_F(KarpenterSchedulingTest, ZonalSpreadCountsThePodOfAnEarlierRound) {
  snapshot_.nodes = {InFlightNode("default-1",
                                  TypeNamed(catalogue_, "small-instance-type"),
                                  {{kZone, "test-zone-3"},
                                   {kCapacityType, "on-demand"},
                                   {kOs, "linux"},
                                   {std::string(kNodePoolLabel), "default"}})};
  PodState earlier = LabelledPod("earlier", 1100, Labels{{"test", "test"}});
  earlier.node_name = "default-1";
  earlier.node_selector = Labels{{kZone, "test-zone-3"}};
  Add(earlier);
  pools_ = {
      PoolNamed("default",
                {Requirement(kZone, Op::kIn, {"test-zone-1", "test-zone-2"})})};
  for (int i = 0; i < 6; ++i) {
    PodState pod =
        LabelledPod("p" + std::to_string(i), 1100, Labels{{"test", "test"}});
    pod.spread = std::vector<SpreadConstraint>{Spread(kZone, "test=test")};
    Add(pod);
  }
  ClaimPlan plan = Schedule();
  // Two in each of the NodePool's zones: a third would leave test-zone-3,
  // with its one pod, more than 1 behind.
  EXPECT_EQ(ZoneCounts(plan, Selector("test=test")),
            (std::vector<int64_t>{1, 2, 2}));
  EXPECT_EQ(plan.unschedulable.size(), 2u);
}

// topology_test.go, Hostname: "should balance pods across nodes"
TEST_F(KarpenterSchedulingTest, HostnameSpreadOnePodPerClaim) {
  pools_ = {TopologyPool()};
  for (int i = 0; i < 4; ++i) {
    PodState pod =
        LabelledPod("p" + std::to_string(i), 0, Labels{{"test", "test"}});
    pod.spread = std::vector<SpreadConstraint>{
        Spread(std::string(kHostnameLabel), "test=test")};
    Add(pod);
  }
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 4u);
  for (const PlannedClaim& claim : plan.claims) {
    EXPECT_EQ(claim.pods.size(), 1u);
  }
}

// --- Pod affinity and anti-affinity ---------------------------------------

// topology_test.go, Pod Affinity/Anti-Affinity: "should separate nodes using
// simple pod anti-affinity on hostname"
TEST_F(KarpenterSchedulingTest, HostnameAntiAffinitySeparatesThePods) {
  pools_ = {TopologyPool()};
  PodState avoiding = Pod("avoiding", 0, 0);
  avoiding.anti_affinity = std::vector<PodAffinityTerm>{
      Term("security=s2", std::string(kHostnameLabel))};
  const size_t a = Add(avoiding);
  const size_t b = Add(LabelledPod("avoided", 0, Labels{{"security", "s2"}}));
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 2u);
  EXPECT_NE(ClaimOf(plan, a), ClaimOf(plan, b));
  EXPECT_TRUE(plan.unschedulable.empty());
}

// topology_test.go, Pod Affinity/Anti-Affinity: "should respect self pod
// affinity (zone)"
TEST_F(KarpenterSchedulingTest, SelfAffinityKeepsThePodsInOneZone) {
  pools_ = {TopologyPool()};
  for (int i = 0; i < 3; ++i) {
    PodState pod =
        LabelledPod("p" + std::to_string(i), 0, Labels{{"security", "s2"}});
    pod.affinity = std::vector<PodAffinityTerm>{Term("security=s2", kZone)};
    Add(pod);
  }
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(plan.claims[0].pods.size(), 3u);
}

// topology_test.go, Pod Affinity/Anti-Affinity: "should support pod affinity
// with zone topology (constrained target)"
TEST_F(KarpenterSchedulingTest, ZoneAffinityFollowsAConstrainedTarget) {
  pools_ = {TopologyPool()};
  for (int i = 0; i < 10; ++i) {
    PodState pod = Pod("p" + std::to_string(i), 0, 0);
    pod.affinity = std::vector<PodAffinityTerm>{Term("security=s2", kZone)};
    Add(pod);
  }
  PodState target = LabelledPod("target", 0, Labels{{"security", "s2"}});
  AddTerm(&target, {{kZone, Op::kIn, {"test-zone-1"}}});
  Add(target);
  ClaimPlan plan = Schedule();
  EXPECT_TRUE(plan.unschedulable.empty());
  EXPECT_EQ(ZoneCounts(plan, LabelSelector()), (std::vector<int64_t>{11}));
  for (const PlannedClaim& claim : plan.claims) {
    EXPECT_EQ(LabelOf(claim, kZone), "test-zone-1");
  }
}

// Preferential Fallback, Required (suite_test.go): "should not relax the
// final term" (a pod whose only term no type meets stays pending) and
// "should relax multiple terms" (the first term that can be met is used:
// zone 1, though zone 2 costs the same).
TEST_F(KarpenterSchedulingTest, RequiredNodeTermsOneAfterTheOther) {
  PodState stuck = Pod("stuck", 0, 0);
  AddTerm(&stuck, {{kZone, Op::kIn, {"invalid"}}});
  Add(stuck);
  PodState pod = Pod("p", 0, 0);
  AddTerm(&pod, {{kZone, Op::kIn, {"invalid"}}});
  AddTerm(&pod, {{kZone, Op::kIn, {"invalid"}}});
  AddTerm(&pod, {{kZone, Op::kIn, {"test-zone-1"}}});
  AddTerm(&pod, {{kZone, Op::kIn, {"test-zone-2"}}});
  Add(pod);
  ClaimPlan plan = Schedule();
  EXPECT_EQ(Unschedulable(plan), (std::vector<size_t>{0}));
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(LabelOf(plan.claims[0], kZone), "test-zone-1");
  ASSERT_EQ(plan.relaxed.size(), 2u);
  EXPECT_EQ(plan.relaxed[0].pod, 1u);
  EXPECT_EQ(plan.relaxed[0].dropped,
            "the first of its required node affinity terms (3 left)");
}

// Preferential Fallback, Preferences (suite_test.go): "should relax all
// node affinity terms". Neither preferred term can be met; the pod still
// schedules, in the NodePool's only zone.
TEST_F(KarpenterSchedulingTest, RelaxesAllPreferredNodeTerms) {
  pools_[0].requirements.push_back(
      Requirement(kZone, Op::kIn, {"test-zone-1"}));
  PodState pod = Pod("p", 0, 0);
  PodPreferences preferences;
  preferences.node_affinity = {
      {1, NodeSelectorTerm{{{kZone, Op::kIn, {"invalid"}}}}},
      {1, NodeSelectorTerm{{{kInstanceType, Op::kIn, {"invalid"}}}}}};
  pod.preferences = preferences;
  Add(pod);
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(LabelOf(plan.claims[0], kZone), "test-zone-1");
  ASSERT_EQ(plan.relaxed.size(), 2u);
  EXPECT_EQ(plan.relaxed[0].dropped,
            "preferred node affinity term of weight 1");
}

// "should relax to use lighter weights": the heaviest term (zone 3) cannot
// be met, the next (zone 2, weight 50) can.
TEST_F(KarpenterSchedulingTest, RelaxesToLighterNodeTerms) {
  pools_[0].requirements.push_back(
      Requirement(kZone, Op::kIn, {"test-zone-1", "test-zone-2"}));
  PodState pod = Pod("p", 0, 0);
  PodPreferences preferences;
  preferences.node_affinity = {
      {100, NodeSelectorTerm{{{kZone, Op::kIn, {"test-zone-3"}}}}},
      {50, NodeSelectorTerm{{{kZone, Op::kIn, {"test-zone-2"}}}}},
      {1, NodeSelectorTerm{{{kZone, Op::kIn, {"test-zone-1"}}}}}};
  pod.preferences = preferences;
  Add(pod);
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(LabelOf(plan.claims[0], kZone), "test-zone-2");
  ASSERT_EQ(plan.relaxed.size(), 1u);
  EXPECT_EQ(plan.relaxed[0].dropped,
            "preferred node affinity term of weight 100");
}

// Preferred hostname anti-affinity is required while it can be met: three
// replicas get three claims. Under a NodePool limit of one node it cannot,
// so the other two drop it and share the one claim.
TEST_F(KarpenterSchedulingTest, PreferredAntiAffinityHoldsUntilItCannot) {
  PodPreferences preferences;
  preferences.anti_affinity = {
      {10, Term("app=dns", std::string(kHostnameLabel))}};
  for (int i = 0; i < 3; ++i) {
    PodState pod =
        LabelledPod("dns-" + std::to_string(i), 100, Labels{{"app", "dns"}});
    pod.preferences = preferences;
    Add(pod);
  }
  ClaimPlan plan = Schedule();
  EXPECT_EQ(plan.claims.size(), 3u);
  EXPECT_TRUE(plan.relaxed.empty());

  pools_[0].limits["nodes"] = 1;
  plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(plan.claims[0].pods.size(), 3u);
  EXPECT_TRUE(plan.unschedulable.empty());
  ASSERT_EQ(plan.relaxed.size(), 2u);
  EXPECT_EQ(plan.relaxed[0].dropped,
            "preferred pod anti-affinity term of weight 10");
}

// A ScheduleAnyway zone spread is met while it can be (one pod a zone);
// preferred affinity to pods that do not exist is dropped.
TEST_F(KarpenterSchedulingTest, ScheduleAnywaySpreadHoldsAffinityToNoneDrops) {
  PodPreferences preferences;
  preferences.spread = {Spread(kZone, "app=web")};
  preferences.affinity = {{5, Term("app=db", kZone)}};
  for (int i = 0; i < 3; ++i) {
    PodState pod =
        LabelledPod("web-" + std::to_string(i), 100, Labels{{"app", "web"}});
    pod.preferences = preferences;
    Add(pod);
  }
  ClaimPlan plan = Schedule();
  EXPECT_TRUE(plan.unschedulable.empty());
  EXPECT_EQ(ZoneCounts(plan, Selector("app=web")),
            (std::vector<int64_t>{1, 1, 1}));
  ASSERT_EQ(plan.relaxed.size(), 3u);
  for (const Relaxation& relaxed : plan.relaxed) {
    EXPECT_EQ(relaxed.dropped, "preferred pod affinity term of weight 5");
  }
}

// Preferential Fallback (suite_test.go): "should tolerate PreferNoSchedule
// taint only after trying to relax Affinity terms". The NodePool's only
// zone and its PreferNoSchedule taint: both preferred terms are dropped
// first, then the taint is tolerated, and the pod schedules there.
TEST_F(KarpenterSchedulingTest, ToleratesPreferNoScheduleLast) {
  pools_[0].requirements.push_back(
      Requirement(kZone, Op::kIn, {"test-zone-1"}));
  pools_[0].taints = {{"foo", "bar", TaintEffect::kPreferNoSchedule}};
  PodState pod = Pod("p", 0, 0);
  PodPreferences preferences;
  preferences.node_affinity = {
      {1, NodeSelectorTerm{{{kZone, Op::kIn, {"invalid"}}}}},
      {1, NodeSelectorTerm{{{kInstanceType, Op::kIn, {"invalid"}}}}}};
  pod.preferences = preferences;
  Add(pod);
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  ASSERT_EQ(plan.relaxed.size(), 3u);
  EXPECT_EQ(plan.relaxed[2].dropped,
            "its intolerance of PreferNoSchedule taints");
}

// A heavier NodePool tainted PreferNoSchedule is passed over for a lighter
// one while that can take the pod, as Karpenter does.
TEST_F(KarpenterSchedulingTest, PreferNoSchedulePoolIsTriedAfterTheOthers) {
  NodePoolSpec soft = SuitePool();
  soft.name = "soft";
  soft.disruption.name = "soft";
  soft.weight = 100;
  soft.taints = {{"maintenance", "", TaintEffect::kPreferNoSchedule}};
  pools_ = {soft, SuitePool()};
  Add(Pod("p", 0, 0));
  ClaimPlan plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(pools_[plan.claims[0].pool].name, "default");
  EXPECT_TRUE(plan.relaxed.empty());

  // A pod that tolerates it goes to the heavier one.
  PodState tolerant = Pod("t", 0, 0);
  tolerant.tolerations =
      std::vector<Toleration>{{"maintenance", Toleration::Op::kExists, "",
                               false, TaintEffect::kPreferNoSchedule}};
  snapshot_.pods = {tolerant};
  plan = Schedule();
  ASSERT_EQ(plan.claims.size(), 1u);
  EXPECT_EQ(pools_[plan.claims[0].pool].name, "soft");
}

}  // namespace
}  // namespace propscaler::nodescale
