// kube-scheduler's VolumeBinding and VolumeZone filters as facts (their test
// tables: pkg/scheduler/framework/plugins/volumebinding and volumezone), and
// what they make of node-scale's placements: a pod goes where its volume is.
#include <gtest/gtest.h>

#include <random>

#include "kube/model/in_tree_volumes.h"
#include "kube/wire/volumes_json.h"
#include "nodescale/plan/scale_down/scale_down.h"
#include "nodescale/plan/scale_up/scale_up.h"
#include "nodescale/plan/simulation/node_volume_limits.h"
#include "nodescale/plan/simulation/pod_classes.h"
#include "nodescale/plan/simulation/predicates.h"
#include "nodescale/plan/simulation/volume_needs.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT
using kube::PersistentVolume;
using kube::PersistentVolumeClaim;
using kube::PodClaim;
using kube::StorageClass;
using Op = NodeSelectorRequirement::Op;

constexpr char kBetaZone[] = "failure-domain.beta.kubernetes.io/zone";
constexpr char kBetaRegion[] = "failure-domain.beta.kubernetes.io/region";
constexpr char kRegion[] = "topology.kubernetes.io/region";

Labels Zone(const std::string& zone) {
  return {{std::string(kZoneLabel), zone}};
}

NodeSelectorTerm ZoneTerm(std::vector<std::string> zones) {
  return {{{std::string(kZoneLabel), Op::kIn, std::move(zones)}}};
}

// A new object under `key`, and a handle to fill it in before it is read.
template <typename T>
T& Put(kube::SharedObjects<T>* objects, const std::string& key, T value) {
  auto object = std::make_shared<T>(std::move(value));
  (*objects)[key] = object;
  return *object;
}

class VolumeNeedsTest : public ::testing::Test {
 protected:
  PodState PodWith(std::vector<PodClaim> claims) {
    PodState pod = Pod("web-0", 100, kMi, "");
    pod.owner_kind = "StatefulSet";
    pod.owner_name = "web";
    pod.claims = std::move(claims);
    return pod;
  }

  PersistentVolumeClaim& Claim(const std::string& name,
                               const std::string& storage_class = "") {
    PersistentVolumeClaim claim;
    claim.namespace_ = "default";
    claim.name = name;
    claim.storage_class = storage_class;
    claim.request_bytes = kGi;
    claim.access_modes = {"ReadWriteOnce"};
    return Put(&objects_.claims, claim.Key(), claim);
  }

  PersistentVolumeClaim& BoundClaim(const std::string& name,
                                    const std::string& volume) {
    PersistentVolumeClaim& claim = Claim(name, "disk");
    claim.volume_name = volume;
    claim.bind_completed = true;
    return claim;
  }

  PersistentVolume& Volume(const std::string& name,
                           const std::string& storage_class = "disk") {
    PersistentVolume volume;
    volume.name = name;
    volume.storage_class = storage_class;
    volume.capacity_bytes = 10 * kGi;
    volume.access_modes = {"ReadWriteOnce"};
    return Put(&objects_.volumes, name, volume);
  }

  StorageClass& Class(const std::string& name, const std::string& provisioner,
                      bool wait_for_first_consumer) {
    return Put(&objects_.classes, name,
               StorageClass{name, provisioner, wait_for_first_consumer, {}});
  }

  // Whether `pod` can go on a node with these labels; its needs resolved
  // first.
  bool FitsOn(const PodState& pod, const Labels& labels) {
    PodState resolved = pod;
    resolved.volume_needs = ResolveVolumeNeeds(pod, objects_);
    return CheckNodeConstraints(resolved, labels, {}) == Unfit::kNone;
  }

  std::string Why(const PodState& pod, const Labels& labels) {
    PodState resolved = pod;
    resolved.volume_needs = ResolveVolumeNeeds(pod, objects_);
    return DescribeNodeConstraintFailure(resolved, labels, {});
  }

  kube::VolumeObjects objects_;
};

TEST_F(VolumeNeedsTest, PodWithoutClaimsNeedsNothing) {
  EXPECT_TRUE(ResolveVolumeNeeds(Pod("p", 1, 1), objects_).empty());
}

// While RBAC keeps a volume kind from being read, a pod with claims is
// held (it fits no node, the grant named), one without is not touched.
TEST_F(VolumeNeedsTest, UnreadableVolumeKindsHoldOnlyPodsWithClaims) {
  Volume("pv-b").node_affinity = {ZoneTerm({"b"})};
  BoundClaim("data", "pv-b");
  objects_.unreadable = {{"csinodes", "forbidden"},
                         {"persistentvolumeclaims", "forbidden"}};
  const std::vector<VolumeNeed> needs =
      ResolveVolumeNeeds(PodWith({{"data", false}}), objects_);
  ASSERT_EQ(needs.size(), 1u);
  EXPECT_TRUE(needs[0].alternatives.empty()) << "fits no node";
  EXPECT_EQ(needs[0].reason,
            "propscaler cannot read csinodes, persistentvolumeclaims "
            "(forbidden): grant list and watch on csinodes, "
            "persistentvolumeclaims to place pods with claims");
  EXPECT_EQ(UnreadableVolumesReason(objects_), needs[0].reason);
  EXPECT_TRUE(ResolveVolumeNeeds(Pod("p", 1, 1), objects_).empty());
  objects_.unreadable.clear();
  EXPECT_EQ(UnreadableVolumesReason(objects_), "");
}

// VolumeBinding: a bound claim's PV node affinity must match the node.
TEST_F(VolumeNeedsTest, BoundClaimFollowsItsVolumesNodeAffinity) {
  Volume("pv-b").node_affinity = {ZoneTerm({"b"})};
  BoundClaim("data", "pv-b");
  const PodState pod = PodWith({{"data", false}});
  EXPECT_TRUE(FitsOn(pod, Zone("b")));
  EXPECT_FALSE(FitsOn(pod, Zone("a")));
  EXPECT_FALSE(FitsOn(pod, {}));
  EXPECT_EQ(Why(pod, Zone("a")),
            "node(s) had volume node affinity conflict (claim \"data\", volume "
            "\"pv-b\")");
}

TEST_F(VolumeNeedsTest, VolumeAffinityTermsAreOredAndRequirementsAnded) {
  Volume("pv").node_affinity = {
      {{{std::string(kZoneLabel), Op::kIn, {"a"}}, {"disk", Op::kExists, {}}}},
      ZoneTerm({"c"})};
  BoundClaim("data", "pv");
  const PodState pod = PodWith({{"data", false}});
  EXPECT_FALSE(FitsOn(pod, Zone("a")));
  EXPECT_TRUE(FitsOn(pod, {{std::string(kZoneLabel), "a"}, {"disk", "ssd"}}));
  EXPECT_TRUE(FitsOn(pod, Zone("c")));
}

// A local PV pins the pod to its node (hostname affinity).
TEST_F(VolumeNeedsTest, LocalVolumePinsThePodToItsNode) {
  Volume("local-pv", "local").node_affinity = {
      {{{std::string(kHostnameLabel), Op::kIn, {"node-1"}}}}};
  BoundClaim("data", "local-pv");
  const PodState pod = PodWith({{"data", false}});
  EXPECT_TRUE(FitsOn(pod, {{std::string(kHostnameLabel), "node-1"}}));
  EXPECT_FALSE(FitsOn(pod, {{std::string(kHostnameLabel), "node-2"}}));
  EXPECT_FALSE(FitsOn(pod, Zone("a")));  // a template has no hostname
}

// VolumeZone's table: the PV's legacy labels against the node's.
TEST_F(VolumeNeedsTest, LegacyZoneLabelsOfTheVolume) {
  Volume("pv").topology_labels = {{kBetaZone, "us-west1-a"}};
  BoundClaim("data", "pv");
  const PodState pod = PodWith({{"data", false}});
  EXPECT_TRUE(FitsOn(pod, {{kBetaZone, "us-west1-a"}}));
  EXPECT_FALSE(FitsOn(pod, {{kBetaZone, "us-west1-b"}}));
  // A beta key on the PV also matches the GA label on the node.
  EXPECT_TRUE(FitsOn(pod, Zone("us-west1-a")));
  EXPECT_FALSE(FitsOn(pod, Zone("us-west1-b")));
  // A node with none of the four labels passes.
  EXPECT_TRUE(FitsOn(pod, {{"other", "x"}}));
  // One with some topology label but not this one does not.
  EXPECT_FALSE(FitsOn(pod, {{kRegion, "us-west1"}}));
  EXPECT_EQ(Why(pod, {{kBetaZone, "us-west1-b"}}),
            "node(s) had no available volume zone (claim \"data\", volume "
            "\"pv\", failure-domain.beta.kubernetes.io/zone=us-west1-a)");
}

TEST_F(VolumeNeedsTest, LegacyZoneLabelMayNameSeveralZones) {
  Volume("pv").topology_labels = {{std::string(kZoneLabel), "a__b"},
                                  {kBetaRegion, "r1"}};
  BoundClaim("data", "pv");
  const PodState pod = PodWith({{"data", false}});
  EXPECT_TRUE(FitsOn(pod, {{std::string(kZoneLabel), "b"}, {kRegion, "r1"}}));
  EXPECT_FALSE(FitsOn(pod, {{std::string(kZoneLabel), "c"}, {kRegion, "r1"}}));
  EXPECT_FALSE(FitsOn(pod, {{std::string(kZoneLabel), "a"}, {kRegion, "r2"}}));
}

// VolumeBinding's PreFilter: these claims fit no node at all.
TEST_F(VolumeNeedsTest, ClaimsThatFitNowhere) {
  const PodState pod = PodWith({{"data", false}});
  EXPECT_FALSE(FitsOn(pod, Zone("a")));
  EXPECT_EQ(Why(pod, {}), "persistentvolumeclaim \"data\" not found");

  Claim("data", "disk").deleting = true;
  EXPECT_EQ(Why(pod, {}), "persistentvolumeclaim \"data\" is being deleted");

  PersistentVolumeClaim& lost = BoundClaim("data", "gone");
  lost.lost = true;
  EXPECT_EQ(Why(pod, {}),
            "persistentvolumeclaim \"data\" bound to non-existent "
            "persistentvolume \"gone\"");

  BoundClaim("data", "gone");
  EXPECT_EQ(Why(pod, {}),
            "node(s) unavailable due to one or more pvc(s) bound to "
            "non-existent pv(s) (claim \"data\", volume \"gone\")");

  Class("fast", "ebs.csi.aws.com", false);
  Claim("data", "fast");
  EXPECT_EQ(Why(pod, {}),
            "pod has unbound immediate PersistentVolumeClaims (claim "
            "\"data\")");

  // Pre-bound (volumeName, no bind-completed) counts as unbound immediate.
  Claim("data", "fast").volume_name = "pv";
  Volume("pv", "fast");
  EXPECT_EQ(Why(pod, {}),
            "pod has unbound immediate PersistentVolumeClaims (claim "
            "\"data\")");

  Claim("data", "missing-class");
  EXPECT_EQ(Why(pod, {}),
            "storageclass.storage.k8s.io \"missing-class\" not found (claim "
            "\"data\")");
}

TEST_F(VolumeNeedsTest, GenericEphemeralVolumeUsesTheClaimMadeForThePod) {
  const PodState pod = PodWith({{"scratch", true}});
  EXPECT_EQ(Why(pod, {}),
            "waiting for ephemeral volume controller to create the "
            "persistentvolumeclaim \"web-0-scratch\"");
  Class("wffc", "ebs.csi.aws.com", true);
  PersistentVolumeClaim& claim = Claim("web-0-scratch", "wffc");
  EXPECT_EQ(Why(pod, {}),
            "persistentvolumeclaim \"web-0-scratch\" was not created for pod "
            "\"default/web-0\" (pod is not owner)");
  claim.owner_kind = "Pod";
  claim.owner_name = "web-0";
  EXPECT_TRUE(FitsOn(pod, Zone("a")));
}

// WaitForFirstConsumer: the class's provisioner and allowedTopologies.
TEST_F(VolumeNeedsTest, DelayedBindingGoesWhereTheClassMayProvision) {
  StorageClass& wffc = Class("zonal", "ebs.csi.aws.com", true);
  Claim("data", "zonal");
  const PodState pod = PodWith({{"data", false}});
  EXPECT_TRUE(ResolveVolumeNeeds(pod, objects_).empty());  // anywhere
  wffc.allowed_topologies = {ZoneTerm({"a"}), ZoneTerm({"c"})};
  EXPECT_TRUE(FitsOn(pod, Zone("a")));
  EXPECT_TRUE(FitsOn(pod, Zone("c")));
  EXPECT_FALSE(FitsOn(pod, Zone("b")));
  EXPECT_EQ(Why(pod, Zone("b")),
            "node(s) didn't find available persistent volumes to bind (claim "
            "\"data\", storage class \"zonal\")");
}

// VolumeBinding's capacity check: a driver whose CSIDriver has
// storageCapacity provisions only where a CSIStorageCapacity of the class
// selects the node and holds the claim (maximumVolumeSize, else capacity).
TEST_F(VolumeNeedsTest, DelayedBindingNeedsRoomWhereTheDriverChecksCapacity) {
  StorageClass& wffc = Class("zonal", "ebs.csi.aws.com", true);
  Claim("data", "zonal");  // 1Gi
  const PodState pod = PodWith({{"data", false}});
  auto capacity = [&](const std::string& name, const std::string& zone,
                      std::optional<int64_t> bytes,
                      std::optional<int64_t> max_size = std::nullopt) {
    kube::CsiStorageCapacity c;
    c.namespace_ = "kube-system";
    c.name = name;
    c.storage_class = "zonal";
    c.node_topology =
        *LabelSelector::Parse(std::string(kZoneLabel) + "=" + zone);
    c.capacity_bytes = bytes;
    c.maximum_volume_size_bytes = max_size;
    Put(&objects_.capacities, "kube-system/" + name, c);
  };
  capacity("in-a", "a", 10 * kGi);
  capacity("in-b", "b", 10 * kGi, kMi);  // no volume above 1Mi
  capacity("in-c", "c", std::nullopt);   // unknown: no room
  // The driver does not check capacity: anywhere.
  EXPECT_TRUE(ResolveVolumeNeeds(pod, objects_).empty());

  objects_.capacity_checked_drivers.insert("ebs.csi.aws.com");
  EXPECT_TRUE(FitsOn(pod, Zone("a")));
  EXPECT_FALSE(FitsOn(pod, Zone("b")));
  EXPECT_FALSE(FitsOn(pod, Zone("c")));
  EXPECT_EQ(Why(pod, Zone("b")),
            "node(s) didn't find available persistent volumes to bind (claim "
            "\"data\", storage class \"zonal\")");

  // With allowedTopologies, both must hold.
  wffc.allowed_topologies = {ZoneTerm({"b", "c"})};
  const std::vector<kube::VolumeNeed> needs = ResolveVolumeNeeds(pod, objects_);
  ASSERT_EQ(needs.size(), 1u);
  EXPECT_TRUE(needs[0].alternatives.empty());
  EXPECT_EQ(needs[0].Text(),
            "node(s) did not have enough free storage (claim \"data\", "
            "storage class \"zonal\")");
  wffc.allowed_topologies = {ZoneTerm({"a", "b"})};
  EXPECT_TRUE(FitsOn(pod, Zone("a")));
  EXPECT_FALSE(FitsOn(pod, Zone("b")));

  // A capacity whose topology selects every node: anywhere allowed.
  kube::CsiStorageCapacity everywhere;
  everywhere.name = "everywhere";
  everywhere.storage_class = "zonal";
  everywhere.node_topology = LabelSelector();
  everywhere.capacity_bytes = 10 * kGi;
  Put(&objects_.capacities, "everywhere", everywhere);
  EXPECT_TRUE(FitsOn(pod, Zone("b")));
  EXPECT_FALSE(FitsOn(pod, Zone("c")));
}

// ... or an unbound PV it could bind; a no-provisioner class has nothing
// else (CA: such claims never fit a template, autoscaler#1658).
TEST_F(VolumeNeedsTest, DelayedBindingToExistingVolumes) {
  Class("local", std::string(kube::kNoProvisioner), true);
  Claim("data", "local");
  const PodState pod = PodWith({{"data", false}});
  EXPECT_FALSE(FitsOn(pod, Zone("a")));

  Volume("small", "local").capacity_bytes = kGi / 2;
  Volume("taken", "local").claim = "default/other";
  Volume("other-class", "disk");
  Volume("rwx-only", "local").access_modes = {"ReadWriteMany"};
  EXPECT_FALSE(FitsOn(pod, Zone("a")));

  Volume("on-node-2", "local").node_affinity = {
      {{{std::string(kHostnameLabel), Op::kIn, {"node-2"}}}}};
  EXPECT_TRUE(FitsOn(pod, {{std::string(kHostnameLabel), "node-2"}}));
  EXPECT_FALSE(FitsOn(pod, {{std::string(kHostnameLabel), "node-1"}}));

  Volume("anywhere", "local");
  EXPECT_TRUE(ResolveVolumeNeeds(pod, objects_).empty());
}

// The PV controller's matching (FindMatchingVolume's cases as facts): a
// free PV must match the claim's selector and volume mode; a PV pre-bound
// to the claim is not held to the selector.
TEST_F(VolumeNeedsTest, DelayedBindingHonoursSelectorAndVolumeMode) {
  Class("local", std::string(kube::kNoProvisioner), true);
  PersistentVolumeClaim& claim = Claim("data", "local");
  claim.selector = *LabelSelector::Parse("tier=fast");
  const PodState pod = PodWith({{"data", false}});
  Volume("slow", "local").labels_while_free = {{"tier", "slow"}};
  PersistentVolume& block = Volume("fast-block", "local");
  block.labels_while_free = {{"tier", "fast"}};
  block.block = true;
  EXPECT_FALSE(FitsOn(pod, Zone("a")));

  claim.block = true;
  EXPECT_TRUE(ResolveVolumeNeeds(pod, objects_).empty());
  claim.block = false;

  Volume("pre-bound", "local").claim = "default/data";
  EXPECT_TRUE(ResolveVolumeNeeds(pod, objects_).empty());
}

TEST_F(VolumeNeedsTest, SelectedNodeHoldsTheClaimToThatNode) {
  Class("zonal", "ebs.csi.aws.com", true);
  Claim("data", "zonal").selected_node = "node-1";
  const PodState pod = PodWith({{"data", false}});
  EXPECT_TRUE(FitsOn(pod, {{std::string(kHostnameLabel), "node-1"}}));
  EXPECT_FALSE(FitsOn(pod, {{std::string(kHostnameLabel), "node-2"}}));
}

TEST_F(VolumeNeedsTest, EveryClaimOfThePodMustFit) {
  Volume("pv-a").node_affinity = {ZoneTerm({"a"})};
  Volume("pv-b").node_affinity = {ZoneTerm({"b"})};
  BoundClaim("one", "pv-a");
  BoundClaim("two", "pv-b");
  const PodState pod = PodWith({{"one", false}, {"two", false}});
  EXPECT_FALSE(FitsOn(pod, Zone("a")));
  EXPECT_FALSE(FitsOn(pod, Zone("b")));
}

// Pods of one StatefulSet with volumes in different zones are not one
// equivalence class: each is placed by its own needs.
TEST_F(VolumeNeedsTest, SnapshotPodsGetTheirNeedsAndOthersStayShared) {
  Volume("pv-a").node_affinity = {ZoneTerm({"a"})};
  BoundClaim("data-0", "pv-a");
  ClusterSnapshot snapshot;
  snapshot.pods = {PodWith({{"data-0", false}}), Pod("plain", 1, 1)};
  const PodState* plain = &snapshot.pods[1];
  ResolveSnapshotVolumes(objects_, &snapshot);
  ASSERT_EQ(snapshot.pods[0].volume_needs.get().size(), 1u);
  EXPECT_EQ(&snapshot.pods[1], plain);
}

// The loop's cache: the same pod against the same objects shares last
// loop's copy; new objects resolve afresh.
TEST_F(VolumeNeedsTest, CachedCopiesAreReusedUntilTheObjectsChange) {
  Volume("pv-a").node_affinity = {ZoneTerm({"a"})};
  BoundClaim("data-0", "pv-a");
  SharedList<PodState> source;
  source.push_back(PodWith({{"data-0", false}}));
  auto snapshot_of = [&] {
    ClusterSnapshot snapshot;
    snapshot.pods.Share(source.SharedAt(0));
    return snapshot;
  };
  ResolvedPodCache cache;
  auto objects = std::make_shared<const kube::VolumeObjects>(objects_);
  ClusterSnapshot first = snapshot_of();
  ResolveSnapshotVolumes(objects, &first, &cache);
  ClusterSnapshot second = snapshot_of();
  ResolveSnapshotVolumes(objects, &second, &cache);
  EXPECT_EQ(&second.pods[0], &first.pods[0]);
  ASSERT_EQ(second.pods[0].volume_needs.get().size(), 1u);

  Volume("pv-a").node_affinity = {ZoneTerm({"b"})};
  ClusterSnapshot third = snapshot_of();
  ResolveSnapshotVolumes(std::make_shared<const kube::VolumeObjects>(objects_),
                         &third, &cache);
  EXPECT_NE(&third.pods[0], &first.pods[0]);
  EXPECT_EQ(third.pods[0].volume_needs.get()[0].alternatives,
            std::vector<NodeSelectorTerm>{ZoneTerm({"b"})});
}

// The counts the loop exports, and entries of pods gone forgotten.
TEST_F(VolumeNeedsTest, CachedResolutionCountsPodsAndForgetsGonePods) {
  BoundClaim("data-0", "pv-a");
  Volume("pv-a");
  ResolvedPodCache cache;
  auto objects = std::make_shared<const kube::VolumeObjects>(objects_);
  ClusterSnapshot snapshot;
  snapshot.pods = {PodWith({{"data-0", false}}), PodWith({{"missing", false}}),
                   Pod("plain", 1, 1)};
  ClaimCounts counts = ResolveSnapshotVolumes(objects, &snapshot, &cache);
  EXPECT_EQ(counts.pods_with_claims, 2);
  EXPECT_EQ(counts.fitting_nowhere, 1);
  EXPECT_EQ(cache.by_source.size(), 2u);

  ClusterSnapshot later;
  later.pods = {Pod("plain", 1, 1)};
  counts = ResolveSnapshotVolumes(objects, &later, &cache);
  EXPECT_EQ(counts.pods_with_claims, 0);
  EXPECT_TRUE(cache.by_source.empty());
}

// VolumeRestrictions' ReadWriteOncePod cases (volume_restrictions_test.go's
// TestAccessModeConflicts as facts): a pending pod whose RWOP claim a
// scheduled pod uses fits nowhere, naming the claim and the pod; an RWO
// claim, a finished user, or users that are all pending do not conflict.
TEST_F(VolumeNeedsTest, AReadWriteOncePodClaimInUseFitsNowhere) {
  Class("csi", "ebs.csi.aws.com", true);
  Claim("solo", "csi").access_modes = {"ReadWriteOncePod"};
  Claim("shared", "csi");
  PodState user = PodWith({{"solo", false}, {"shared", false}});
  user.name = "user";
  user.node_name = "a-1";
  PodState second = PodWith({{"solo", false}});
  second.name = "second";
  PodState rwo = PodWith({{"shared", false}});
  rwo.name = "rwo";
  auto resolve = [&](std::vector<PodState> pods) {
    ClusterSnapshot snapshot;
    snapshot.pods = PodList(std::move(pods));
    ResolvedPodCache cache;
    const ClaimCounts counts = ResolveSnapshotVolumes(
        std::make_shared<const kube::VolumeObjects>(objects_), &snapshot,
        &cache);
    return std::make_pair(snapshot, counts);
  };
  auto [snapshot, counts] = resolve({user, second, rwo});
  EXPECT_FALSE(FitsNowhere(snapshot.pods[0]));
  ASSERT_TRUE(FitsNowhere(snapshot.pods[1]));
  EXPECT_EQ(snapshot.pods[1].volume_needs.get().back().Text(),
            "node has pod using PersistentVolumeClaim with the same name and "
            "ReadWriteOncePod access mode (claim \"solo\", used by pod "
            "\"default/user\")");
  EXPECT_FALSE(FitsNowhere(snapshot.pods[2]));
  EXPECT_EQ(counts.fitting_nowhere, 1);
  EXPECT_EQ(Why(second, Zone("a")), "");  // alone it would fit

  user.terminated = true;
  EXPECT_FALSE(FitsNowhere(resolve({user, second}).first.pods[1]));
  user.terminated = false;
  user.node_name.clear();
  EXPECT_FALSE(FitsNowhere(resolve({user, second}).first.pods[1]));
}

class VolumeScaleUpTest : public VolumeNeedsTest {
 protected:
  void SetUp() override {
    groups_ = {Group("zone-a", 0, 10, 0, 4000, 16 * kGi),
               Group("zone-b", 0, 10, 0, 4000, 16 * kGi)};
    groups_[0].declared_template->labels = Zone("a");
    groups_[1].declared_template->labels = Zone("b");
  }

  // Node a-1 of zone-a, and a pod running there whose claim's PV is the
  // CSI volume vol-0 of ebs.csi.aws.com.
  std::pair<NodeState, PodState> NodeWithAttachedVolume() {
    NodeState node = Node("a-1", "zone-a", 4000, 16 * kGi);
    node.labels[std::string(kZoneLabel)] = "a";
    PersistentVolume& attached = Volume("attached");
    attached.csi_driver = "ebs.csi.aws.com";
    attached.csi_handle = "vol-0";
    BoundClaim("attached", "attached");
    PodState running = PodWith({{"attached", false}});
    running.name = "running";
    running.node_name = "a-1";
    return {node, running};
  }

  ScaleUpPlan Plan(const ScaleUpConfig& config = {}) {
    ResolveSnapshotVolumes(objects_, &snapshot_);
    std::mt19937_64 rng(7);
    auto chain = MakeExpanderChain("least-waste", {}, &rng);
    EXPECT_TRUE(chain.ok());
    return PlanScaleUp(snapshot_, groups_, {}, config, chain->get());
  }

  ClusterSnapshot snapshot_;
  std::vector<NodeGroup> groups_;
};

TEST_F(VolumeScaleUpTest, PodWithZoneBVolumeGetsAZoneBNode) {
  Volume("pv-b").node_affinity = {ZoneTerm({"b"})};
  BoundClaim("data", "pv-b");
  snapshot_.pods = {PodWith({{"data", false}})};
  const ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].group, "zone-b");
  EXPECT_EQ(plan.increases[0].delta, 1);
}

TEST_F(VolumeScaleUpTest, ExistingNodeInTheWrongZoneIsNoRoom) {
  Volume("pv-b").node_affinity = {ZoneTerm({"b"})};
  BoundClaim("data", "pv-b");
  NodeState node_a = Node("a-1", "zone-a", 4000, 16 * kGi);
  node_a.labels[std::string(kZoneLabel)] = "a";
  snapshot_.nodes = {node_a};
  groups_[0].target_size = 1;
  snapshot_.pods = {PodWith({{"data", false}})};
  const ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].group, "zone-b");
}

TEST_F(VolumeScaleUpTest, WaitForFirstConsumerClassLimitedToZoneA) {
  Class("zonal", "ebs.csi.aws.com", true).allowed_topologies = {
      ZoneTerm({"a"})};
  Claim("data", "zonal");
  snapshot_.pods = {PodWith({{"data", false}})};
  const ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].group, "zone-a");
}

// A driver that checks capacity, with room only in zone b: the zone-b
// group gets the node.
TEST_F(VolumeScaleUpTest, StorageCapacityOnlyInZoneBGetsAZoneBNode) {
  Class("zonal", "ebs.csi.aws.com", true);
  Claim("data", "zonal");
  objects_.capacity_checked_drivers.insert("ebs.csi.aws.com");
  kube::CsiStorageCapacity room;
  room.name = "room-b";
  room.storage_class = "zonal";
  room.node_topology = *LabelSelector::Parse(std::string(kZoneLabel) + "=b");
  room.capacity_bytes = 100 * kGi;
  Put(&objects_.capacities, "room-b", room);
  snapshot_.pods = {PodWith({{"data", false}})};
  const ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].group, "zone-b");
}

// A StatefulSet's pods whose disks are in one zone ask the same of a node
// through different claims: one pod class (planned together), and a reason
// that names no one pod's claim.
TEST_F(VolumeScaleUpTest, PodsWhoseVolumesAskTheSameAreOneClass) {
  std::vector<PodState> pods;
  for (const char* i : {"0", "1"}) {
    Volume(std::string("pv-") + i).node_affinity = {ZoneTerm({"c"})};
    BoundClaim(std::string("data-") + i, std::string("pv-") + i);
    PodState pod = PodWith({{std::string("data-") + i, false}});
    pod.name = std::string("web-") + i;
    pods.push_back(pod);
  }
  snapshot_.pods = PodList(pods);
  const ScaleUpPlan plan = Plan();
  EXPECT_TRUE(plan.increases.empty());
  ASSERT_EQ(plan.unschedulable.size(), 2u);
  ASSERT_NE(plan.unschedulable[0].reasons, nullptr);
  EXPECT_EQ(plan.unschedulable[0].reasons->at("zone-a"),
            "node(s) had volume node affinity conflict (2 pods alike)");
  EXPECT_EQ(plan.unschedulable[0].reasons, plan.unschedulable[1].reasons);
  std::vector<const PodState*> pending;
  for (const PodState& pod : snapshot_.pods) pending.push_back(&pod);
  EXPECT_EQ(ClassifyPods(pending).classes.size(), 1u);
  // Alone, the pod's own claim and volume are named.
  EXPECT_EQ(Why(pods[0], Zone("a")),
            "node(s) had volume node affinity conflict (claim \"data-0\", "
            "volume \"pv-0\")");
}

TEST_F(VolumeScaleUpTest, UnboundImmediateClaimTriggersNothingAndSaysWhy) {
  Class("fast", "ebs.csi.aws.com", false);
  Claim("data", "fast");
  snapshot_.pods = {PodWith({{"data", false}})};
  const ScaleUpPlan plan = Plan();
  EXPECT_TRUE(plan.increases.empty());
  ASSERT_EQ(plan.unschedulable.size(), 1u);
  ASSERT_NE(plan.unschedulable[0].reasons, nullptr);
  EXPECT_EQ(plan.unschedulable[0].reasons->at("zone-a"),
            "pod has unbound immediate PersistentVolumeClaims (claim "
            "\"data\")");
}

// The drain simulation too: a pod whose local volume pins it keeps its
// node; a zonal one moves only within its zone.
TEST(VolumeScaleDownTest, PinnedPodKeepsItsNodeZonalPodMovesInItsZone) {
  kube::VolumeObjects objects;
  auto bound = [&](const std::string& claim, const std::string& volume,
                   NodeSelectorTerm where) {
    PersistentVolume pv;
    pv.name = volume;
    pv.node_affinity = {std::move(where)};
    Put(&objects.volumes, volume, pv);
    PersistentVolumeClaim pvc;
    pvc.namespace_ = "default";
    pvc.name = claim;
    pvc.volume_name = volume;
    pvc.bind_completed = true;
    Put(&objects.claims, pvc.Key(), pvc);
  };
  bound("local", "local-pv",
        {{{std::string(kHostnameLabel), Op::kIn, {"a-1"}}}});
  bound("zonal", "zonal-pv", ZoneTerm({"a"}));
  std::vector<NodeGroup> groups = {Group("g", 0, 10, 3, 4000, 16 * kGi)};
  ClusterSnapshot snapshot;
  for (const char* name : {"a-1", "a-2", "b-1"}) {
    NodeState node = Node(name, "g", 4000, 16 * kGi);
    node.labels[std::string(kZoneLabel)] = std::string(1, name[0]);
    snapshot.nodes.push_back(node);
  }
  PodState pinned = BoundPod("pinned", "a-1", 100, kMi);
  pinned.claims = std::vector<PodClaim>{{"local", false}};
  PodState zonal = BoundPod("zonal", "a-2", 100, kMi);
  zonal.claims = std::vector<PodClaim>{{"zonal", false}};
  snapshot.pods = {pinned, zonal, BoundPod("filler", "b-1", 3900, kMi)};
  ResolveSnapshotVolumes(objects, &snapshot);
  const ScaleDownPlan plan = PlanScaleDown(snapshot, groups, {});
  std::vector<std::string> removed;
  for (const NodeRemoval& removal : plan.removals) {
    removed.push_back(removal.node);
  }
  // a-2's pod can only go to a-1 (zone a; b-1 is full anyway); a-1's pod
  // cannot go anywhere.
  EXPECT_EQ(removed, std::vector<std::string>{"a-2"});
}

// NodeVolumeLimits (nodevolumelimits/csi_test.go's cases as facts): unique
// volumes per driver against the node's CSINode count.
TEST_F(VolumeNeedsTest, AttachedVolumesOfBoundAndProvisionedClaims) {
  PersistentVolume& pv = Volume("pv-1");
  pv.csi_driver = "ebs.csi.aws.com";
  pv.csi_handle = "vol-1";
  BoundClaim("bound", "pv-1");
  Class("csi", "ebs.csi.aws.com", true);
  Claim("later", "csi");
  Class("local", std::string(kube::kNoProvisioner), true);
  Claim("local", "local");
  Volume("any-local", "local");
  const PodState pod =
      PodWith({{"bound", false}, {"later", false}, {"local", false}});
  EXPECT_EQ(
      ResolveVolumes(pod, objects_).attached,
      (std::vector<kube::AttachedVolume>{
          {"ebs.csi.aws.com", "vol-1"}, {"ebs.csi.aws.com", "default/later"}}));
}

TEST(AttachLimitsTest, UniqueVolumesPerDriverWithinTheLimit) {
  auto with = [](std::vector<kube::AttachedVolume> volumes) {
    PodState pod = Pod("p", 1, 1);
    pod.attached_volumes = std::move(volumes);
    return pod;
  };
  const PodState one = with({{"ebs", "vol-1"}});
  const PodState two = with({{"ebs", "vol-2"}});
  const std::vector<const PodState*> on_node = {&one, &two};
  const kube::VolumeLimits limit_two = {{"ebs", 2}};
  EXPECT_FALSE(AttachLimitsAllow(with({{"ebs", "vol-3"}}), on_node, limit_two));
  // A volume already attached there counts once.
  EXPECT_TRUE(AttachLimitsAllow(with({{"ebs", "vol-1"}}), on_node, limit_two));
  // Another driver's volumes are not counted against this one.
  EXPECT_TRUE(AttachLimitsAllow(with({{"pd", "disk-1"}}), on_node, limit_two));
  EXPECT_FALSE(AttachLimitsAllow(with({{"pd", "disk-1"}}), on_node,
                                 {{"ebs", 2}, {"pd", 0}}));
  // No limit, or no volume: nothing to count.
  EXPECT_TRUE(AttachLimitsAllow(with({{"ebs", "vol-3"}}), on_node, {}));
  EXPECT_TRUE(AttachLimitsAllow(Pod("plain", 1, 1), on_node, limit_two));
  EXPECT_TRUE(
      AttachLimitsAllow(with({{"ebs", "vol-3"}}), on_node, {{"ebs", 3}}));
}

// VolumeRestrictions' inline disk conflicts (volume_restrictions_test.go's
// TestGCEDiskConflicts, TestAWSDiskConflicts, TestISCSIDiskConflicts as
// facts): a pod without volumes fits anywhere; one whose disk a pod on the
// node uses does not; another disk does. Read-only on both sides shares a
// GCE PD or an iSCSI LUN, never an EBS volume.
TEST(InlineDiskTest, VolumeRestrictionsTables) {
  auto with = [](std::vector<kube::InlineDisk> disks) {
    PodState pod = Pod("p", 1, 1);
    pod.inline_disks = std::move(disks);
    return pod;
  };
  const PodState empty = Pod("empty", 1, 1);
  for (const char* driver :
       {"pd.csi.storage.gke.io", "ebs.csi.aws.com", "iscsi"}) {
    SCOPED_TRACE(driver);
    const PodState foo = with({{driver, "foo"}});
    const PodState bar = with({{driver, "bar"}});
    EXPECT_TRUE(InlineDisksFree(empty, {}));
    EXPECT_TRUE(InlineDisksFree(empty, {&foo}));
    EXPECT_FALSE(InlineDisksFree(foo, {&foo}));
    EXPECT_TRUE(InlineDisksFree(bar, {&foo}));
    const PodState foo_read = with({{driver, "foo", true}});
    EXPECT_EQ(InlineDisksFree(foo_read, {&foo_read}),
              std::string_view(driver) != "ebs.csi.aws.com");
    EXPECT_FALSE(InlineDisksFree(foo_read, {&foo}));
  }
  // Another driver's disk of the same name is another disk.
  const PodState pd = with({{"pd.csi.storage.gke.io", "foo"}});
  EXPECT_TRUE(InlineDisksFree(with({{"ebs.csi.aws.com", "foo"}}), {&pd}));
}

// NodeVolumeLimits counts migratable inline volumes (csi_test.go's "should
// count in-tree inline volumes if migration is enabled") with the PVs' ones.
TEST(InlineDiskTest, InlineDisksCountAgainstTheirCsiDriversLimit) {
  PodState on_node = Pod("on-node", 1, 1);
  on_node.attached_volumes =
      std::vector<kube::AttachedVolume>{{"ebs.csi.aws.com", "vol-1"}};
  PodState inline_pod = Pod("inline", 1, 1);
  inline_pod.inline_disks =
      std::vector<kube::InlineDisk>{{"ebs.csi.aws.com", "vol-2"}};
  EXPECT_FALSE(
      AttachLimitsAllow(inline_pod, {&on_node}, {{"ebs.csi.aws.com", 1}}));
  EXPECT_TRUE(
      AttachLimitsAllow(inline_pod, {&on_node}, {{"ebs.csi.aws.com", 2}}));
  // And a node's inline disks count against a new claim's volume.
  PodState claimed = Pod("claimed", 1, 1);
  claimed.attached_volumes =
      std::vector<kube::AttachedVolume>{{"ebs.csi.aws.com", "vol-3"}};
  EXPECT_FALSE(
      AttachLimitsAllow(claimed, {&inline_pod}, {{"ebs.csi.aws.com", 1}}));
}

// A pending pod whose inline disk a node's pod already uses gets a new
// node, though the existing one has room.
TEST_F(VolumeScaleUpTest, ANodeUsingThePodsInlineDiskIsNoRoom) {
  NodeState node = Node("a-1", "zone-a", 4000, 16 * kGi);
  node.labels[std::string(kZoneLabel)] = "a";
  snapshot_.nodes = {node};
  groups_.resize(1);
  groups_[0].target_size = 1;
  PodState running = BoundPod("running", "a-1", 100, kMi);
  running.inline_disks =
      std::vector<kube::InlineDisk>{{"ebs.csi.aws.com", "vol-1"}};
  PodState pending = Pod("pending", 100, kMi, "");
  pending.inline_disks = running.inline_disks;
  snapshot_.pods = {running, pending};
  ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].delta, 1);

  snapshot_.nodes = {node};
  pending.inline_disks =
      std::vector<kube::InlineDisk>{{"ebs.csi.aws.com", "vol-2"}};
  snapshot_.pods = {running, pending};
  EXPECT_TRUE(Plan().increases.empty());
}

// A node at its attach limit takes no more volume pods: the pending pod
// with a CSI claim gets a new node, though the existing one has room.
TEST_F(VolumeScaleUpTest, ANodeAtItsAttachLimitIsNoRoomForVolumes) {
  Class("csi", "ebs.csi.aws.com", true);
  Claim("data", "csi");
  const auto [node, running] = NodeWithAttachedVolume();
  snapshot_.nodes = {node};
  groups_[0].target_size = 1;
  snapshot_.pods = {running, PodWith({{"data", false}})};
  objects_.node_limits["a-1"] = {{"ebs.csi.aws.com", 2}};
  EXPECT_TRUE(Plan().increases.empty());  // a-1 takes it: 2 of 2

  objects_.node_limits["a-1"] = {{"ebs.csi.aws.com", 1}};
  snapshot_.nodes = {node};
  const ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].delta, 1);
}

// --enable-csi-node-aware-scheduling: new nodes of a group take the attach
// limits of its live node; by default (CA's) they have none, and one new
// node is planned for more volumes than it can attach.
TEST_F(VolumeScaleUpTest, CsiNodeAwareNewNodesTakeTheLiveNodesLimit) {
  groups_.resize(1);
  groups_[0].target_size = 1;
  Class("csi", "ebs.csi.aws.com", true);
  // a-1 is at its limit of 1 with a running pod's volume.
  const auto [node, running] = NodeWithAttachedVolume();
  snapshot_.nodes = {node};
  snapshot_.pods = {running};
  for (const char* name : {"data-0", "data-1", "data-2"}) {
    Claim(name, "csi");
    PodState pod = PodWith({{name, false}});
    pod.name = name;
    snapshot_.pods.push_back(pod);
  }
  objects_.node_limits["a-1"] = {{"ebs.csi.aws.com", 1}};

  ScaleUpPlan plan = Plan();
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].delta, 1);  // CA's default: no limit known

  ScaleUpConfig aware;
  aware.csi_node_aware_scheduling = true;
  snapshot_.nodes = {node};
  plan = Plan(aware);
  ASSERT_EQ(plan.increases.size(), 1u);
  EXPECT_EQ(plan.increases[0].delta, 3);  // one volume per new node
}

// A pod with more volumes than a new node attaches gets no node, and the
// reason says so.
TEST_F(VolumeScaleUpTest, CsiNodeAwarePodWithTooManyVolumesGetsNoNode) {
  groups_.resize(1);
  groups_[0].target_size = 1;
  Class("csi", "ebs.csi.aws.com", true);
  NodeState node = Node("a-1", "zone-a", 100, kMi);  // no room at all
  node.labels[std::string(kZoneLabel)] = "a";
  snapshot_.nodes = {node};
  Claim("one", "csi");
  Claim("two", "csi");
  snapshot_.pods = {PodWith({{"one", false}, {"two", false}})};
  objects_.node_limits["a-1"] = {{"ebs.csi.aws.com", 1}};
  ScaleUpConfig aware;
  aware.csi_node_aware_scheduling = true;
  const ScaleUpPlan plan = Plan(aware);
  EXPECT_TRUE(plan.increases.empty());
  ASSERT_EQ(plan.unschedulable.size(), 1u);
  ASSERT_NE(plan.unschedulable[0].reasons, nullptr);
  EXPECT_EQ(plan.unschedulable[0].reasons->at("zone-a"),
            "node(s) exceed max volume count: the pod's volumes exceed the "
            "CSI attach limits of an empty new node");

  snapshot_.nodes = {node};
  EXPECT_EQ(Plan().increases.size(), 1u);  // without the flag: a node
}

// Labels are kept only while a PV is free; the claim's selector and both
// volume modes are read, and a mode the API would refuse is named.
TEST(VolumesJsonTest, DecodesSelectorsVolumeModesAndFreeLabels) {
  Result<kube::VolumeObjects> objects = kube::DecodeVolumeObjectsJson(R"({
    "kind": "List", "items": [
    {"kind": "PersistentVolume", "metadata": {"name": "free",
       "labels": {"tier": "fast"}}, "spec": {"volumeMode": "Block"}},
    {"kind": "PersistentVolume", "metadata": {"name": "taken",
       "labels": {"tier": "fast"}},
     "spec": {"claimRef": {"namespace": "shop", "name": "data"}}},
    {"kind": "PersistentVolumeClaim", "metadata": {"name": "data",
       "namespace": "shop"},
     "spec": {"volumeMode": "Block", "selector": {
       "matchLabels": {"tier": "fast"},
       "matchExpressions": [{"key": "zone", "operator": "NotIn",
                             "values": ["c"]}]}}}]})");
  ASSERT_TRUE(objects.ok()) << objects.status().message();
  EXPECT_EQ(objects->volumes.at("free")->labels_while_free,
            (Labels{{"tier", "fast"}}));
  EXPECT_TRUE(objects->volumes.at("free")->block);
  EXPECT_TRUE(objects->volumes.at("taken")->labels_while_free.empty());
  const PersistentVolumeClaim& claim = *objects->claims.at("shop/data");
  EXPECT_TRUE(claim.block);
  EXPECT_TRUE(claim.selector.Matches({{"tier", "fast"}, {"zone", "a"}}));
  EXPECT_FALSE(claim.selector.Matches({{"tier", "fast"}, {"zone", "c"}}));

  Result<kube::VolumeObjects> bad = kube::DecodeVolumeObjectsJson(R"({
    "kind": "List", "items": [{"kind": "PersistentVolume",
      "metadata": {"name": "odd"}, "spec": {"volumeMode": "Raw"}}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(
                "spec.volumeMode: \"Raw\" is not Filesystem or Block"),
            std::string::npos)
      << bad.status().message();
}

TEST(VolumesJsonTest, DecodesAKubectlListOfEveryKind) {
  Result<kube::VolumeObjects> objects = kube::DecodeVolumeObjectsJson(R"({
    "kind": "List", "items": [
    {"kind": "PersistentVolume", "metadata": {"name": "pv-b",
       "labels": {"topology.kubernetes.io/zone": "b", "app": "x"}},
     "spec": {"storageClassName": "disk", "capacity": {"storage": "10Gi"},
       "accessModes": ["ReadWriteOnce"],
       "claimRef": {"namespace": "shop", "name": "data"},
       "nodeAffinity": {"required": {"nodeSelectorTerms": [
         {"matchExpressions": [{"key": "topology.kubernetes.io/zone",
           "operator": "In", "values": ["b"]}]}]}}}},
    {"kind": "PersistentVolumeClaim", "metadata": {"name": "data",
       "namespace": "shop", "deletionTimestamp": "2026-01-01T00:00:00Z",
       "annotations": {"pv.kubernetes.io/bind-completed": "yes",
         "volume.kubernetes.io/selected-node": "n1"},
       "ownerReferences": [{"kind": "Pod", "name": "web-0",
         "controller": true}]},
     "spec": {"volumeName": "pv-b", "storageClassName": "disk",
       "resources": {"requests": {"storage": "1Gi"}}},
     "status": {"phase": "Lost"}},
    {"kind": "PersistentVolumeClaim", "metadata": {"name": "old",
       "annotations": {"volume.beta.kubernetes.io/storage-class": "slow"}}},
    {"kind": "StorageClass", "metadata": {"name": "zonal"},
     "provisioner": "ebs.csi.aws.com",
     "volumeBindingMode": "WaitForFirstConsumer",
     "allowedTopologies": [{"matchLabelExpressions": [
       {"key": "topology.kubernetes.io/zone", "values": ["a", "c"]}]}]},
    {"kind": "CSINode", "metadata": {"name": "n1"}},
    {"kind": "CSINode", "metadata": {"name": "n2"}, "spec": {"drivers": [
      {"name": "ebs.csi.aws.com", "nodeID": "i-1", "allocatable": {"count": 25}},
      {"name": "efs.csi.aws.com", "nodeID": "i-1"}]}}]})");
  ASSERT_TRUE(objects.ok()) << objects.status().message();
  const PersistentVolume& pv = *objects->volumes.at("pv-b");
  EXPECT_EQ(pv.storage_class, "disk");
  EXPECT_EQ(pv.capacity_bytes, 10 * kGi);
  EXPECT_EQ(pv.claim, "shop/data");
  EXPECT_EQ(pv.topology_labels, Zone("b"));
  EXPECT_EQ(pv.node_affinity, std::vector<NodeSelectorTerm>{ZoneTerm({"b"})});
  const PersistentVolumeClaim& claim = *objects->claims.at("shop/data");
  EXPECT_TRUE(claim.bind_completed);
  EXPECT_TRUE(claim.deleting);
  EXPECT_TRUE(claim.lost);
  EXPECT_EQ(claim.volume_name, "pv-b");
  EXPECT_EQ(claim.selected_node, "n1");
  EXPECT_EQ(claim.request_bytes, kGi);
  EXPECT_EQ(claim.owner_kind + "/" + claim.owner_name, "Pod/web-0");
  EXPECT_EQ(objects->claims.at("default/old")->storage_class, "slow");
  EXPECT_EQ(pv.csi_driver, "");
  EXPECT_EQ(objects->node_limits,
            (std::map<std::string, kube::VolumeLimits, std::less<>>{
                {"n2", {{"ebs.csi.aws.com", 25}}}}));
  const StorageClass& zonal = *objects->classes.at("zonal");
  EXPECT_TRUE(zonal.wait_for_first_consumer);
  EXPECT_EQ(zonal.allowed_topologies,
            std::vector<NodeSelectorTerm>{ZoneTerm({"a", "c"})});
}

// In-tree volumes as the CSI volumes they migrate to (csi-translation-lib's
// driver names): a PV's in-tree source, a class's in-tree provisioner.
TEST(VolumesJsonTest, InTreeVolumesAreCountedAsTheirCsiDrivers) {
  Result<kube::VolumeObjects> objects = kube::DecodeVolumeObjectsJson(R"({
    "kind": "List", "items": [
    {"kind": "PersistentVolume", "metadata": {"name": "ebs"},
     "spec": {"awsElasticBlockStore": {"volumeID": "vol-1", "fsType": "ext4"}}},
    {"kind": "PersistentVolume", "metadata": {"name": "pd"},
     "spec": {"gcePersistentDisk": {"pdName": "disk-1"}}},
    {"kind": "PersistentVolume", "metadata": {"name": "nfs"},
     "spec": {"nfs": {"server": "s", "path": "/"}}}]})");
  ASSERT_TRUE(objects.ok()) << objects.status().message();
  EXPECT_EQ(objects->volumes.at("ebs")->csi_driver, "ebs.csi.aws.com");
  EXPECT_EQ(objects->volumes.at("ebs")->csi_handle, "vol-1");
  EXPECT_EQ(objects->volumes.at("pd")->csi_driver, "pd.csi.storage.gke.io");
  EXPECT_EQ(objects->volumes.at("pd")->csi_handle, "disk-1");
  EXPECT_EQ(objects->volumes.at("nfs")->csi_driver, "");

  Result<kube::VolumeObjects> bad = kube::DecodeVolumeObjectsJson(R"({
    "items": [{"kind": "PersistentVolume", "metadata": {"name": "x"},
     "spec": {"awsElasticBlockStore": {"volumeID": 7}}}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(
                "items[0].spec.awsElasticBlockStore.volumeID"),
            std::string::npos)
      << bad.status().message();

  EXPECT_EQ(kube::MigratedDriverName("kubernetes.io/aws-ebs"),
            "ebs.csi.aws.com");
  EXPECT_EQ(kube::MigratedDriverName("kubernetes.io/azure-disk"),
            "disk.csi.azure.com");
  EXPECT_EQ(kube::MigratedDriverName("ebs.csi.aws.com"), "ebs.csi.aws.com");
}

TEST_F(VolumeNeedsTest, AClaimOfAnInTreeClassAttachesItsCsiDriversVolume) {
  Class("gp2", "kubernetes.io/aws-ebs", true);
  Claim("data", "gp2");
  EXPECT_EQ(
      ResolveVolumes(PodWith({{"data", false}}), objects_).attached,
      (std::vector<kube::AttachedVolume>{{"ebs.csi.aws.com", "default/data"}}));
}

// NodeVolumeLimits' limits: node allocatable attachable-volumes-csi-<driver>
// and the in-tree plugins' keys (for their migrated drivers), each
// overridden by the CSINode's count.
TEST(NodeVolumeLimitsTest, AllocatableKeysUnderTheCsiNodesCounts) {
  Resources allocatable;
  allocatable.SetExtended("attachable-volumes-aws-ebs", 39);
  allocatable.SetExtended("attachable-volumes-csi-pd.csi.storage.gke.io", 15);
  allocatable.SetExtended("example.com/gpu", 2);
  EXPECT_TRUE(HasAllocatableVolumeLimits(allocatable));
  EXPECT_EQ(NodeVolumeLimits(allocatable, nullptr),
            (kube::VolumeLimits{{"ebs.csi.aws.com", 39},
                                {"pd.csi.storage.gke.io", 15}}));
  const kube::VolumeLimits csi_node = {{"ebs.csi.aws.com", 25},
                                       {"efs.csi.aws.com", 5}};
  EXPECT_EQ(NodeVolumeLimits(allocatable, &csi_node),
            (kube::VolumeLimits{{"ebs.csi.aws.com", 25},
                                {"efs.csi.aws.com", 5},
                                {"pd.csi.storage.gke.io", 15}}));
  Resources plain;
  plain.SetExtended("example.com/gpu", 2);
  EXPECT_FALSE(HasAllocatableVolumeLimits(plain));

  // The snapshot's nodes get them.
  ClusterSnapshot snapshot;
  NodeState node = Node("n", "g", 4000, kGi);
  node.allocatable.SetExtended("attachable-volumes-aws-ebs", 2);
  snapshot.nodes = {node};
  ResolveSnapshotVolumes(kube::VolumeObjects{}, &snapshot);
  EXPECT_EQ(snapshot.nodes[0].volume_limits,
            (kube::VolumeLimits{{"ebs.csi.aws.com", 2}}));
}

TEST(VolumesJsonTest, DecodesCsiDriversAndStorageCapacities) {
  Result<kube::VolumeObjects> objects = kube::DecodeVolumeObjectsJson(R"({
    "kind": "List", "items": [
    {"kind": "CSIDriver", "metadata": {"name": "ebs.csi.aws.com"},
     "spec": {"storageCapacity": true}},
    {"kind": "CSIDriver", "metadata": {"name": "efs.csi.aws.com"},
     "spec": {"storageCapacity": false}},
    {"kind": "CSIStorageCapacity", "metadata": {"name": "cap-a",
       "namespace": "kube-system"},
     "storageClassName": "zonal", "capacity": "100Gi",
     "maximumVolumeSize": "16Ti",
     "nodeTopology": {"matchLabels": {"topology.kubernetes.io/zone": "a"}}},
    {"kind": "CSIStorageCapacity", "metadata": {"name": "bare",
       "namespace": "kube-system"}, "storageClassName": "zonal"}]})");
  ASSERT_TRUE(objects.ok()) << objects.status().message();
  EXPECT_EQ(objects->capacity_checked_drivers,
            (std::set<std::string, std::less<>>{"ebs.csi.aws.com"}));
  const kube::CsiStorageCapacity& a =
      *objects->capacities.at("kube-system/cap-a");
  EXPECT_EQ(a.storage_class, "zonal");
  EXPECT_EQ(a.capacity_bytes, 100 * kGi);
  EXPECT_EQ(a.maximum_volume_size_bytes, int64_t{16} << 40);
  ASSERT_TRUE(a.node_topology.has_value());
  EXPECT_TRUE(a.node_topology->Matches(Zone("a")));
  EXPECT_FALSE(a.node_topology->Matches(Zone("b")));
  const kube::CsiStorageCapacity& bare =
      *objects->capacities.at("kube-system/bare");
  EXPECT_FALSE(bare.node_topology.has_value());
  EXPECT_FALSE(bare.capacity_bytes.has_value());

  Result<kube::VolumeObjects> bad = kube::DecodeVolumeObjectsJson(R"({
    "items": [{"kind": "CSIStorageCapacity", "metadata": {"name": "x"},
      "capacity": "lots"}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "items[0].capacity: \"lots\" is not a quantity");
  Result<kube::VolumeObjects> odd = kube::DecodeVolumeObjectsJson(R"({
    "items": [{"kind": "CSIDriver", "metadata": {"name": "x"},
      "spec": {"storageCapacity": "yes"}}]})");
  ASSERT_FALSE(odd.ok());
  EXPECT_NE(odd.status().message().find("items[0].spec.storageCapacity"),
            std::string::npos)
      << odd.status().message();
}

TEST(VolumesJsonTest, BadInputNamesTheFieldAndValue) {
  auto error = [](const char* text) {
    Result<kube::VolumeObjects> objects = kube::DecodeVolumeObjectsJson(text);
    return objects.ok() ? std::string("ok") : objects.status().message();
  };
  EXPECT_EQ(error(R"({"items": [{"kind": "StorageClass", "metadata":
      {"name": "x"}, "volumeBindingMode": "Later"}]})"),
            "items[0].volumeBindingMode: \"Later\" is neither Immediate nor "
            "WaitForFirstConsumer");
  EXPECT_EQ(error(R"({"items": [{"kind": "PersistentVolume", "metadata":
      {"name": "x"}, "spec": {"capacity": {"storage": "ten"}}}]})"),
            "items[0].spec.capacity.storage: \"ten\" is not a quantity");
  EXPECT_EQ(error(R"({"items": [{"metadata": {"name": "x"}}]})"),
            "items[0].kind: missing (each item must say whether it is a "
            "PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode, "
            "CSIDriver or CSIStorageCapacity)");
  EXPECT_EQ(error(R"({"items": [{"kind": "PersistentVolumeClaim",
      "metadata": {}}]})"),
            "items[0].metadata.name: missing");
}

}  // namespace
}  // namespace propscaler::nodescale
