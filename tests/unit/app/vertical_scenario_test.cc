// Vertical mode's whole loop against the in-memory cluster in virtual time:
// node churn within the threshold writes nothing, a decrease waits out its
// delay, and under CPVA's RBAC it patches exactly when the computed values
// change.
#include "memcluster/vertical_scenario.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

#include "apiserver/store_objects.h"
#include "app/vertical_parts.h"
#include "kube/controllers/leader_election.h"

namespace propscaler {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

constexpr char kNamespace[] = "kube-system";
constexpr char kPath[] = "/apis/apps/v1/namespaces/kube-system/deployments/dns";

class VerticalScenarioTest : public memcluster::VerticalScenario {
 protected:
  void SetUp() override {
    ASSERT_TRUE(
        sim::CreateObject(
            cluster_.store(),
            "/apis/apps/v1/namespaces/kube-system/deployments",
            R"({"metadata":{"name":"dns"},"spec":{"selector":{"matchLabels":)"
            R"({"app":"dns"}},"template":{"metadata":{"labels":{"app":"dns"}},)"
            R"("spec":{"containers":[{"name":"dns","image":"dns:1"}]}}}})")
            .ok());
    // 100m plus 10m per node.
    Result<VerticalConfig> config = ParseVerticalConfig(
        R"({"dns":{"requests":{"cpu":{"base":"100m","step":"10m","nodesPerStep":1}}}})",
        "test");
    ASSERT_TRUE(config.ok());
    options_.namespace_ = kNamespace;
    options_.target = {kube::WorkloadRef::Kind::kDeployment, "dns"};
    options_.default_config = *config;
    options_.poll_period = seconds(10);
  }

  // What CPVA's example RBAC (nodes list, the target patch) refuses, plus
  // `more` calls.
  static memcluster::MemoryCluster::Fault CpvaRbac(
      std::vector<std::string> more = {}) {
    return [more](std::string_view call) {
      const bool refused =
          call == "watch nodes" || call == "get deployments" ||
          call == "list deployments" || call == "watch deployments" ||
          std::find(more.begin(), more.end(), call) != more.end();
      return refused ? Status(StatusCode::kPermissionDenied,
                              std::string(call) + ": HTTP 403: injected")
                     : Status::Ok();
    };
  }

  std::string Cpu() {
    std::optional<std::string> json = sim::GetObject(cluster_.store(), kPath);
    if (!json) return "";
    rapidjson::Document doc;
    doc.Parse(json->c_str());
    const auto& c = doc["spec"]["template"]["spec"]["containers"][0];
    if (!c.HasMember("resources")) return "";
    return c["resources"]["requests"]["cpu"].GetString();
  }
};

TEST_F(VerticalScenarioTest, ChurnWithinTheThresholdWritesNothing) {
  options_.policy = {.threshold_percent = 10, .scale_down_delay = minutes(10)};
  AddNodes(1, 10);
  Start();
  clock_.SleepFor(milliseconds(100));
  EXPECT_EQ(Cpu(), "200m");
  const int64_t patches = Calls("patch deployments");
  EXPECT_EQ(patches, 1);

  // One node more: 210m is 5% over 200m, within 10%: nothing is written,
  // for an hour.
  AddNodes(11, 1);
  clock_.SleepFor(hours(1));
  EXPECT_EQ(Calls("patch deployments"), patches);
  EXPECT_EQ(Cpu(), "200m");

  // Five more: 260m is 30% over: written within a second.
  AddNodes(12, 5);
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Cpu(), "260m");

  // Back to 10 nodes: 200m is a decrease of 23%, held for ten minutes.
  RemoveNodes(7, 6);
  clock_.SleepFor(minutes(9) + seconds(50));
  EXPECT_EQ(Cpu(), "260m");
  clock_.SleepFor(seconds(20));
  EXPECT_EQ(Cpu(), "200m");
  EXPECT_EQ(Calls("patch deployments"), patches + 2);
  EXPECT_TRUE(health_.LastCycle().has_value() && health_.LastCycle()->ok());
}

// With --leader-elect: while another replica holds the lease nothing is
// patched (the standby stays healthy); once it stops renewing, this one
// takes over within the lease duration and resizes at once.
TEST_F(VerticalScenarioTest, AStandbyResizesNothingUntilItLeads) {
  const kube::LeaderElectionConfig lease{.namespace_ = kNamespace,
                                         .name = "propscaler-vertical",
                                         .identity = "me"};
  kube::LeaderElectionConfig others = lease;
  others.identity = "other";
  kube::LeaderElector other(&cluster_.client(), others, &clock_);
  ASSERT_TRUE(other.TryAcquireOrRenew());
  const TimePoint last_renewed = clock_.Now();
  kube::LeaderElector me(&cluster_.client(), lease, &clock_);
  options_.may_act = [&me] { return me.IsLeader(); };
  StopSignal elector_stop(&clock_);
  std::thread elector = clock_.StartThread([&] { me.Run(&elector_stop); });
  AddNodes(1, 3);
  Start();
  clock_.SleepFor(seconds(14));
  EXPECT_EQ(Cpu(), "");
  EXPECT_EQ(Calls("patch deployments"), 0);
  ASSERT_TRUE(health_.LastCycle().has_value());
  EXPECT_TRUE(health_.LastCycle()->ok()) << health_.LastCycle()->message();
  // Taken over by lease duration (15 s) + a retry period (2 s).
  clock_.SleepFor(last_renewed + seconds(17) + milliseconds(1) - clock_.Now());
  EXPECT_TRUE(me.IsLeader());
  EXPECT_EQ(Cpu(), "130m");
  elector_stop.Stop();
  clock_.SleepFor(milliseconds(1));
  elector.join();
}

TEST_F(VerticalScenarioTest, AnotherWritersChangeIsSetBackAndNothingIsPolled) {
  options_.policy = {.threshold_percent = 0};
  AddNodes(1, 2);
  Start();
  clock_.SleepFor(milliseconds(100));
  EXPECT_EQ(Cpu(), "120m");
  ASSERT_TRUE(
      sim::PatchObject(
          cluster_.store(), kPath,
          R"({"spec":{"template":{"spec":{"containers":[{"name":"dns",)"
          R"("image":"dns:2","resources":{"requests":{"cpu":"1"}}}]}}}})")
          .ok());
  // Watched: set back within a second, not at the next poll.
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Cpu(), "120m");
  std::optional<std::string> json = sim::GetObject(cluster_.store(), kPath);
  ASSERT_TRUE(json);
  EXPECT_NE(json->find("dns:2"), std::string::npos) << "the image stays";

  // At rest: six hours, not one read or write, only the watches' renewals.
  const std::map<std::string, int64_t> before = cluster_.Calls();
  clock_.SleepFor(hours(6));
  for (const auto& [call, count] : cluster_.Calls()) {
    auto it = before.find(call);
    const int64_t made = count - (it == before.end() ? 0 : it->second);
    if (call.starts_with("watch ")) {
      EXPECT_LE(made, 6 * 12 + 1) << call;  // renewed every 5-10 minutes
    } else {
      EXPECT_EQ(made, 0) << call;
    }
  }
  EXPECT_EQ(Cpu(), "120m");
}

// A busy server answers propscaler's patch 0.6 s after committing it;
// meanwhile another writer sets the container's cpu to 1, and the watch
// brings both changes first. The older answer must not hide the newer
// change: it is set back.
TEST_F(VerticalScenarioTest, APatchAnsweredLateDoesNotHideANewerChange) {
  options_.policy = {.threshold_percent = 0};
  AddNodes(1, 2);
  Start();
  clock_.SleepFor(milliseconds(100));
  ASSERT_EQ(Cpu(), "120m");
  std::atomic<bool> held{false};
  cluster_.SetAnswerHook([&](std::string_view call) {
    if (call != "patch deployments" || held.exchange(true)) return;
    clock_.SleepFor(milliseconds(300));
    ASSERT_TRUE(
        sim::PatchObject(
            cluster_.store(), kPath,
            R"({"spec":{"template":{"spec":{"containers":[{"name":"dns",)"
            R"("resources":{"requests":{"cpu":"1"}}}]}}}})")
            .ok());
    clock_.SleepFor(milliseconds(300));
  });
  AddNodes(3, 1);
  clock_.SleepFor(seconds(2));
  ASSERT_TRUE(held);
  EXPECT_EQ(Cpu(), "130m");
  const int64_t patches = Calls("patch deployments");
  clock_.SleepFor(minutes(10));
  EXPECT_EQ(Cpu(), "130m");
  EXPECT_EQ(Calls("patch deployments"), patches);
}

// Under CPVA's RBAC the refused GET of the target is not sent again every
// poll: once, then again only after the forbidden-retry period.
TEST_F(VerticalScenarioTest, ARefusedGetIsNotRepeatedEveryPoll) {
  cluster_.SetFault(CpvaRbac({"create events"}));
  options_.policy = {.threshold_percent = 0};
  AddNodes(1, 3);
  Start();
  clock_.SleepFor(minutes(1));
  EXPECT_EQ(Cpu(), "130m");
  EXPECT_EQ(Calls("get deployments"), 1);
  EXPECT_EQ(Calls("list deployments"), 1);
  EXPECT_EQ(Calls("watch nodes"), 1);
  AddNodes(4, 3);  // three patches' worth of Events
  clock_.SleepFor(seconds(11));
  AddNodes(7, 1);
  clock_.SleepFor(seconds(11));
  EXPECT_EQ(Cpu(), "170m");
  EXPECT_EQ(Calls("create events"), 1);
  // An hour: each refused kind again once per five minutes at most.
  clock_.SleepFor(hours(1));
  EXPECT_LE(Calls("get deployments"), 1 + 12);
  EXPECT_LE(Calls("list deployments"), 1 + 12);
  EXPECT_LE(Calls("watch nodes"), 1 + 12);
  EXPECT_EQ(Calls("create events"), 1);
}

// A --config-file that is invalid at start: as CPVA, the error is logged
// and --default-config applies.
TEST_F(VerticalScenarioTest, AConfigFileInvalidAtStartAppliesTheDefault) {
  const std::string path = ::testing::TempDir() + "/vertical-invalid-" +
                           std::to_string(reinterpret_cast<uintptr_t>(this)) +
                           ".json";
  {
    std::ofstream file(path);
    file << "{not json";
  }
  options_.config_file = path;
  options_.policy = {.threshold_percent = 0};
  AddNodes(1, 2);
  Start();
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Cpu(), "120m");
  std::remove(path.c_str());
}

// An edit of --config-file is followed between poll periods: the file is
// looked at five times a second, so a change is patched within 200 ms.
TEST_F(VerticalScenarioTest, AConfigFileEditIsFollowedWithinAFifthOfASecond) {
  const std::string path = ::testing::TempDir() + "/vertical-edit-" +
                           std::to_string(reinterpret_cast<uintptr_t>(this)) +
                           ".json";
  const auto write = [&](const std::string& step) {
    std::ofstream file(path, std::ios::trunc);
    file << R"({"dns":{"requests":{"cpu":{"base":"100m","step":")" << step
         << R"(","nodesPerStep":1}}}})";
  };
  write("20m");
  options_.config_file = path;
  options_.policy = {.threshold_percent = 0};
  AddNodes(1, 2);
  Start();
  clock_.SleepFor(milliseconds(1500));  // between two checks of either period
  EXPECT_EQ(Cpu(), "140m");
  write("30000m");
  clock_.SleepFor(milliseconds(200));
  EXPECT_EQ(Cpu(), "60100m");
  std::remove(path.c_str());
}

// CPVA's RBAC: nodes list only, the target patch only. Nodes are listed
// every poll period and the target patched blind, only when the computed
// values change.
TEST_F(VerticalScenarioTest, UnderCpvaRbacPatchesWhenTheComputedValuesChange) {
  cluster_.SetFault(CpvaRbac());
  options_.policy = {.threshold_percent = 0};
  AddNodes(1, 3);
  Start();
  clock_.SleepFor(seconds(1));
  EXPECT_EQ(Cpu(), "130m");
  const int64_t patches = Calls("patch deployments");
  EXPECT_EQ(patches, 1);
  clock_.SleepFor(hours(1));
  EXPECT_EQ(Calls("patch deployments"), patches);
  EXPECT_GE(Calls("list nodes"), 360);
  AddNodes(4, 1);
  clock_.SleepFor(seconds(11));
  EXPECT_EQ(Cpu(), "140m");
  EXPECT_EQ(Calls("patch deployments"), patches + 1);
}

}  // namespace
}  // namespace propscaler
