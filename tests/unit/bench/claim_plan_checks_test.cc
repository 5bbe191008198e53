// CheckClaimPlan: the scheduler's plan for Karpenter's mix holds, and each
// way a plan can be wrong (a shared host for anti-affinity pods, an
// overfull claim, a spread broken as pods land, an affinity without its
// peer, a pod left out, fewer claims than the lower bound) is caught.
#include "checks/claim_plan_checks.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "checks/karpenter_mix.h"

namespace propscaler::bench {
namespace {

using namespace ::propscaler::nodescale;  // NOLINT: the checks' subject

class ClaimPlanCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    snapshot_.pods = PodList(KarpenterDiversePods(500, 42));
    plan_ = ScheduleClaims({&snapshot_, &pools_, &catalogue_});
  }
  Failures Check() const {
    return CheckClaimPlan(snapshot_, pools_, catalogue_, plan_);
  }
  bool Reports(const std::string& text) const {
    const Failures failures = Check();
    return std::any_of(failures.begin(), failures.end(),
                       [&](const std::string& f) {
                         return f.find(text) != std::string::npos;
                       });
  }
  // The first claim holding a pod with app=nginx, from `from` on.
  size_t NginxClaim(size_t from) const {
    for (size_t c = from; c < plan_.claims.size(); ++c) {
      for (size_t pod : plan_.claims[c].pods) {
        if (snapshot_.pods[pod].labels->contains("app")) return c;
      }
    }
    return plan_.claims.size();
  }
  size_t NginxPodOf(size_t claim) const {
    for (size_t pod : plan_.claims[claim].pods) {
      if (snapshot_.pods[pod].labels->contains("app")) return pod;
    }
    return 0;
  }
  void Move(size_t pod, size_t from, size_t to) {
    auto& pods = plan_.claims[from].pods;
    pods.erase(std::find(pods.begin(), pods.end(), pod));
    plan_.claims[to].pods.push_back(pod);
  }

  ClusterSnapshot snapshot_;
  std::vector<NodePoolSpec> pools_ = {KarpenterNodePool()};
  std::vector<InstanceType> catalogue_ = KarpenterInstanceTypes();
  ClaimPlan plan_;
};

TEST_F(ClaimPlanCheckTest, TheSchedulersPlanHolds) {
  EXPECT_TRUE(plan_.unschedulable.empty());
  EXPECT_EQ(Check(), Failures{});
  EXPECT_EQ(static_cast<int64_t>(plan_.claims.size()),
            ClaimLowerBound(snapshot_, catalogue_));
}

TEST_F(ClaimPlanCheckTest, CatchesAntiAffinityPodsSharingAHost) {
  const size_t a = NginxClaim(0);
  const size_t b = NginxClaim(a + 1);
  ASSERT_LT(b, plan_.claims.size());
  Move(NginxPodOf(b), b, a);
  EXPECT_TRUE(Reports("with a pod its anti-affinity (app=nginx) selects"));
}

TEST_F(ClaimPlanCheckTest, CatchesAClaimWithoutRoom) {
  plan_.claims[0].instance_type = 0;  // 1 cpu, 2 GiB
  plan_.claims[0].labels["node.kubernetes.io/instance-type"] = "fake-it-0";
  EXPECT_TRUE(Reports("than it has"));
}

TEST_F(ClaimPlanCheckTest, CatchesLabelsThatAreNotTheTypes) {
  plan_.claims[0].labels["node.kubernetes.io/instance-type"] = "other";
  EXPECT_TRUE(Reports("labels are not"));
}

TEST_F(ClaimPlanCheckTest, CatchesASpreadBrokenAsPodsLand) {
  // All claims but the last in one zone: the other zone's count stays
  // below the skew those pods allow.
  for (PlannedClaim& claim : plan_.claims) {
    claim.labels["topology.kubernetes.io/zone"] = "test-zone-1";
  }
  plan_.claims.back().labels["topology.kubernetes.io/zone"] = "test-zone-2";
  EXPECT_TRUE(Reports("breaks its spread over topology.kubernetes.io/zone"));
}

TEST_F(ClaimPlanCheckTest, CatchesAnAffinityWithoutItsPeer) {
  // A self-affine pod alone in a zone of its own.
  for (PlannedClaim& claim : plan_.claims) {
    auto affine = std::find_if(
        claim.pods.begin(), claim.pods.end(),
        [&](size_t pod) { return !snapshot_.pods[pod].affinity.empty(); });
    if (affine == claim.pods.end()) continue;
    const size_t pod = *affine;
    claim.labels["topology.kubernetes.io/zone"] = "elsewhere";
    claim.pods = {pod};
    EXPECT_TRUE(Reports("has no pod its affinity"));
    return;
  }
  FAIL() << "no pod with affinity in the plan";
}

TEST_F(ClaimPlanCheckTest, CatchesAPodLeftOut) {
  const size_t pod = plan_.placement_order.back();
  plan_.placement_order.pop_back();
  EXPECT_TRUE(Reports("is in the plan 0 times"));
  (void)pod;
}

TEST_F(ClaimPlanCheckTest, CatchesFewerClaimsThanTheLowerBound) {
  plan_.claims.pop_back();
  EXPECT_TRUE(Reports("fewer than the lower bound"));
}

// A scheduler that asks for 3x the nodes: each claim's pods spread over it
// and two copies of it, as a planner that never packs a second pod would.
TEST_F(ClaimPlanCheckTest, CatchesThreeTimesTheClaims) {
  const size_t claims = plan_.claims.size();
  for (size_t c = 0; c < claims; ++c) {
    for (int copy = 0; copy < 2; ++copy) {
      PlannedClaim empty = plan_.claims[c];
      empty.name += "-" + std::to_string(copy);
      empty.pods.clear();
      plan_.claims.push_back(std::move(empty));
    }
  }
  EXPECT_TRUE(Reports("more than 1.7x the lower bound"));
}

}  // namespace
}  // namespace propscaler::bench
