// The soak's verdict: a run passes only when nothing went wrong, and a
// broken propscaler (a write skipped after a restart: the target left at
// the old value) or a fault that did nothing fails it, saying which.
#include <gtest/gtest.h>

#include "checks/soak_verdict.h"

namespace propscaler::bench {
namespace {

TEST(SoakVerdictTest, ACleanRunPasses) {
  EXPECT_TRUE(SoakVerdict(SoakOutcome{}).empty());
}

TEST(SoakVerdictTest, EachKindOfWrongFailsTheRun) {
  SoakOutcome exited;
  exited.propscaler_alive = false;
  EXPECT_EQ(SoakVerdict(exited), (Failures{"propscaler exited"}));

  SoakOutcome late;
  late.late = {"620 s: node added: 4 after 120 s", "700 s: node deleted"};
  EXPECT_EQ(SoakVerdict(late),
            (Failures{"2 changes followed late, the first: 620 s: node "
                      "added: 4 after 120 s"}));

  // A write skipped after a restart leaves the old value standing.
  SoakOutcome skipped;
  skipped.wrong_values = {"931 s: 3 where the model says 4"};
  EXPECT_EQ(SoakVerdict(skipped),
            (Failures{"1 wrong values between changes, the first: 931 s: 3 "
                      "where the model says 4"}));

  // The same skipped write, caught in the audit log even when a later
  // write corrected it before the harness looked.
  SoakOutcome stale;
  stale.unexplained_writes = {
      "931.200 s: patch /apis/apps/v1/namespaces/soak/deployments/coredns/"
      "scale set the target to 3 where the model says 4 since 929.000 s "
      "(node added)"};
  EXPECT_EQ(SoakVerdict(stale),
            (Failures{"1 writes the model does not explain, the first: "
                      "931.200 s: patch /apis/apps/v1/namespaces/soak/"
                      "deployments/coredns/scale set the target to 3 where the "
                      "model says 4 since 929.000 s (node added)"}));

  SoakOutcome no_effect;
  no_effect.faults_not_effective = {
      "etcd compacted, then kube-apiserver restarted: "
      "propscaler_watch_restarts_total{reason=\"expired\"} did not rise from "
      "0 within a minute"};
  ASSERT_EQ(SoakVerdict(no_effect).size(), 1u);
  EXPECT_NE(SoakVerdict(no_effect)[0].find("1 faults without effect"),
            std::string::npos);
}

TEST(SoakVerdictTest, EveryFailureIsListed) {
  SoakOutcome all;
  all.propscaler_alive = false;
  all.late = {"a"};
  all.wrong_values = {"b"};
  all.faults_not_effective = {"c"};
  all.unexplained_writes = {"d"};
  EXPECT_EQ(SoakVerdict(all).size(), 5u);
}

}  // namespace
}  // namespace propscaler::bench
