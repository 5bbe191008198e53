// Leader election decisions with a fake clock, and the elector against the
// simulated API server.
#include <gtest/gtest.h>

#include "apiserver/fake_apiserver.h"
#include "common/clock.h"
#include "kube/controllers/leader_election.h"
#include "transport/api.h"
#include "transport/http_client.h"

namespace propscaler::kube {
namespace {

using std::chrono::seconds;

Lease HeldBy(const std::string& holder) {
  Lease lease;
  lease.holder = holder;
  lease.renew_time = "t";
  return lease;
}

TEST(LeaseDecisionTest, CreatesRenewsWaitsAndTakesOver) {
  VirtualClock clock;
  const TimePoint t0 = clock.Now();
  EXPECT_EQ(DecideLeaseAction({std::nullopt, t0}, "me", t0, seconds(15)),
            LeaseAction::kCreate);
  EXPECT_EQ(DecideLeaseAction({HeldBy("me"), t0}, "me", t0, seconds(15)),
            LeaseAction::kRenew);
  EXPECT_EQ(DecideLeaseAction({HeldBy("other"), t0}, "me", t0 + seconds(14),
                              seconds(15)),
            LeaseAction::kWait);
  EXPECT_EQ(DecideLeaseAction({HeldBy("other"), t0}, "me", t0 + seconds(15),
                              seconds(15)),
            LeaseAction::kTakeOver);
  EXPECT_EQ(DecideLeaseAction({HeldBy(""), t0}, "me", t0, seconds(15)),
            LeaseAction::kTakeOver);
}

class LeaderElectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start({}).ok());
    ClientConfig config;
    config.server = server_.url();
    http_ = std::make_unique<HttpClient>(config, &RealClock::Instance());
    api_ = std::make_unique<KubeApi>(http_.get());
  }
  LeaderElectionConfig Config(const std::string& identity) {
    LeaderElectionConfig config;
    config.namespace_ = "kube-system";
    config.identity = identity;
    return config;
  }

  sim::FakeApiServer server_;
  std::unique_ptr<HttpClient> http_;
  std::unique_ptr<KubeApi> api_;
};

TEST_F(LeaderElectorTest, OneLeaderUntilItStopsRenewing) {
  VirtualClock clock;
  LeaderElector a(api_.get(), Config("a"), &clock);
  LeaderElector b(api_.get(), Config("b"), &clock);
  EXPECT_TRUE(a.TryAcquireOrRenew());
  EXPECT_FALSE(b.TryAcquireOrRenew());
  clock.Advance(seconds(2));
  EXPECT_TRUE(a.TryAcquireOrRenew());
  EXPECT_FALSE(b.TryAcquireOrRenew());
  // a stops renewing: it stops leading after the renew deadline, before b
  // may take over after the lease duration.
  clock.Advance(seconds(10));
  EXPECT_FALSE(a.IsLeader());
  EXPECT_FALSE(b.TryAcquireOrRenew());
  clock.Advance(seconds(5));
  EXPECT_TRUE(b.TryAcquireOrRenew());
  EXPECT_TRUE(b.IsLeader());
  EXPECT_FALSE(a.TryAcquireOrRenew());
  EXPECT_FALSE(a.IsLeader());
}

TEST_F(LeaderElectorTest, StaleWriteLosesWithConflict) {
  VirtualClock clock;
  LeaderElector a(api_.get(), Config("a"), &clock);
  ASSERT_TRUE(a.TryAcquireOrRenew());
  Result<Lease> lease = api_->GetLease("kube-system", "propscaler");
  ASSERT_TRUE(lease.ok());
  Lease stale = *lease;
  stale.holder = "intruder";
  ASSERT_TRUE(api_->UpdateLease(stale).ok());
  Result<Lease> again = api_->UpdateLease(stale);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kConflict);
  EXPECT_NE(again.status().message().find("\"propscaler\""), std::string::npos)
      << again.status().message();
}

}  // namespace
}  // namespace propscaler::kube
