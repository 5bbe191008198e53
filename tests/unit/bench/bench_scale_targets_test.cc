// The scale harness's targets: a run that meets them passes; a slow
// reaction, a lost trial, a poll at rest or too many watch renewals each
// fail it, saying which; CPA's own runs are not judged.
#include <gtest/gtest.h>

#include "checks/scale_targets.h"

namespace propscaler::bench {
namespace {

ScaleFigures Good() {
  ScaleFigures figures;
  figures.nodes = 5000;
  figures.rbac = "ours";
  figures.reaction_p99_ms = 21;
  figures.reaction_trials = 60;
  figures.reaction_trials_asked = 60;
  figures.requests_at_rest_per_hour = 32;
  figures.requests_at_rest = {
      {"GET /api/v1/nodes?resourceVersion=7&watch=1", 2},
      // The real server's audit log names a watch by its verb.
      {"WATCH /apis/apps/v1/namespaces/kube-system/deployments", 1}};
  return figures;
}

TEST(ScaleTargetsTest, ARunThatMeetsThemPasses) {
  EXPECT_TRUE(ScaleTargetFailures(Good(), {}).empty());
}

TEST(ScaleTargetsTest, EachMissFailsTheRun) {
  ScaleFigures slow = Good();
  slow.reaction_p99_ms = 1500;
  EXPECT_EQ(ScaleTargetFailures(slow, {}),
            (Failures{"nodes=5000 rbac=ours: reaction p99 1500 ms, over the "
                      "target of 1000 ms"}));

  ScaleFigures lost = Good();
  lost.reaction_trials = 59;
  EXPECT_EQ(ScaleTargetFailures(lost, {}),
            (Failures{"nodes=5000 rbac=ours: 59 of 60 reaction trials saw "
                      "their write"}));

  // A build that polls the target's scale at rest.
  ScaleFigures polling = Good();
  polling.requests_at_rest
      ["GET /apis/apps/v1/namespaces/kube-system/"
       "deployments/coredns/scale"] = 6;
  EXPECT_EQ(ScaleTargetFailures(polling, {}),
            (Failures{"nodes=5000 rbac=ours: polled at rest: GET "
                      "/apis/apps/v1/namespaces/kube-system/deployments/"
                      "coredns/scale (6)"}));

  ScaleFigures renewing = Good();
  renewing.requests_at_rest_per_hour = 87;
  EXPECT_EQ(ScaleTargetFailures(renewing, {}),
            (Failures{"nodes=5000 rbac=ours: 87 requests an hour at rest, "
                      "over the target of 60"}));
}

TEST(ScaleTargetsTest, CpaIsMeasuredNotJudged) {
  ScaleFigures cpa = Good();
  cpa.rbac = "CPA itself";
  cpa.reaction_p99_ms = 10000;
  cpa.requests_at_rest_per_hour = 720;
  EXPECT_TRUE(ScaleTargetFailures(cpa, {}).empty());
  // Under CPA's RBAC propscaler must poll; its reactions still count.
  ScaleFigures cpa_rbac = Good();
  cpa_rbac.rbac = "cpa";
  cpa_rbac.requests_at_rest_per_hour = 720;
  cpa_rbac.requests_at_rest["GET /apis/apps/v1/namespaces/x/scale"] = 120;
  EXPECT_TRUE(ScaleTargetFailures(cpa_rbac, {}).empty());
  cpa_rbac.reaction_p99_ms = 2000;
  EXPECT_EQ(ScaleTargetFailures(cpa_rbac, {}).size(), 1u);
}

// The README's comparison held: propscaler at 20,000 nodes against CPA in
// the same run (2026-11-29's figures pass); each ratio missed fails.
TEST(ScaleTargetsTest, RatiosToCpaInTheSameRun) {
  ScaleFigures ours = Good();
  ours.nodes = 20000;
  ours.first_scale_s = 1.057;
  ours.reaction_p50_ms = 21;
  ours.peak_rss_mib = 19.7;
  ScaleFigures cpa = ours;
  cpa.rbac = "CPA itself";
  cpa.first_scale_s = 1.994;
  cpa.reaction_p50_ms = 5074;
  cpa.peak_rss_mib = 528.9;
  EXPECT_TRUE(CpaRatioFailures(ours, cpa, {}).empty());

  ScaleFigures slow = ours;
  slow.first_scale_s = 1.5;
  EXPECT_EQ(CpaRatioFailures(slow, cpa, {}),
            (Failures{"nodes=20000 rbac=ours against CPA: first correct "
                      "scale (s) 1.500 against CPA's 1.994: ratio 0.752, "
                      "over the target of 0.667"}));
  ScaleFigures heavy = ours;
  heavy.peak_rss_mib = 30;
  EXPECT_EQ(CpaRatioFailures(heavy, cpa, {}).size(), 1u);
  // At 1,000 nodes both are near their baselines: memory is not held.
  heavy.nodes = 1000;
  EXPECT_TRUE(CpaRatioFailures(heavy, cpa, {}).empty());
  ScaleFigures lazy = ours;
  lazy.reaction_p50_ms = 600;
  EXPECT_EQ(CpaRatioFailures(lazy, cpa, {}).size(), 1u);
}

TEST(ScaleTargetsTest, AP99OfFewTrialsIsNamedTheMax) {
  EXPECT_EQ(P99Name(5), "max");
  EXPECT_EQ(P99Name(99), "max");
  EXPECT_EQ(P99Name(100), "p99");
}

}  // namespace
}  // namespace propscaler::bench
