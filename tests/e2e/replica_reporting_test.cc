// What replica mode reports about its cycles, as people see it: /metrics in
// the Prometheus text format, Events on the server (ScaledReplicas on the
// target, InvalidParams on the ConfigMap, de-duplicated) and the /status page.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "e2e/metrics_wait.h"
#include "e2e/prometheus.h"
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::seconds;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class ReplicaReportingTest : public ReplicaClusterTest {
 protected:
  void SetUp() override {
    StartServerWithPerNodeParams();
    port_ = FreePort();
  }

  std::string Page(const std::string& path) const {
    auto response = HealthGet(port_, path);
    return response && response->status == 200 ? response->body : "";
  }

  // The Events in the namespace whose JSON contains every one of `parts`.
  std::vector<std::string> EventsWith(
      const std::vector<std::string>& parts) const {
    std::vector<std::string> found;
    for (const std::string& event : server_.Events(kNamespace)) {
      if (std::all_of(parts.begin(), parts.end(), [&](const std::string& p) {
            return Contains(event, p);
          })) {
        found.push_back(event);
      }
    }
    return found;
  }

  int port_ = 0;
};

TEST_F(ReplicaReportingTest, MetricsDescribeTheCycle) {
  auto propscaler = Start({"--healthz-port=" + std::to_string(port_)});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  EXPECT_TRUE(WaitForMetrics(
      port_,
      {
          "propscaler_current_replicas{target=\"deployment/coredns\"} 4",
          "propscaler_desired_replicas{target=\"deployment/coredns\"} 4",
          "propscaler_nodes{state=\"all\"} 4",
          "propscaler_nodes{state=\"schedulable\"} 4",
          "propscaler_cores{state=\"all\"} 16",
          "propscaler_params_generation 1",
          "propscaler_scaled_total{target=\"deployment/coredns\"} 1",
          "# TYPE propscaler_cycle_duration_seconds histogram",
          "propscaler_cycle_duration_seconds_count",
          "propscaler_last_successful_cycle_timestamp_seconds",
          "propscaler_api_requests_total{verb=\"PUT\",code=\"200\"} 1",
          "# TYPE propscaler_watch_restarts_total counter",
      },
      seconds(5)))
      << propscaler->Report();
}

// The value of an unlabelled series on a /metrics page, or -1.
double ValueOn(const std::string& page, const std::string& name) {
  const std::string key = "\n" + name + " ";
  const size_t at = ("\n" + page).find(key);
  return at == std::string::npos
             ? -1
             : std::strtod(page.c_str() + at - 1 + key.size(), nullptr);
}

// What every Prometheus client exposes about its process, and the build.
TEST_F(ReplicaReportingTest, MetricsDescribeTheProcessAndTheBuild) {
  const double started =
      std::chrono::duration<double>(
          std::chrono::system_clock::now().time_since_epoch())
          .count();
  auto propscaler = Start({"--healthz-port=" + std::to_string(port_)});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  ASSERT_TRUE(WaitForMetrics(
      port_,
      {"# TYPE process_cpu_seconds_total counter",
       "propscaler_build_info{version=\"" PROPSCALER_VERSION_FOR_TESTS
       "\",revision=\""},
      seconds(5)))
      << propscaler->Report();
  const std::string page = Page("/metrics");
  const double rss = ValueOn(page, "process_resident_memory_bytes");
  EXPECT_GT(rss, 1 << 20) << page;
  EXPECT_LT(rss, 1 << 30) << page;
  EXPECT_GT(ValueOn(page, "process_virtual_memory_bytes"), rss);
  EXPECT_GE(ValueOn(page, "process_cpu_seconds_total"), 0);
  const double open_fds = ValueOn(page, "process_open_fds");
  EXPECT_GE(open_fds, 3) << page;
  EXPECT_GE(ValueOn(page, "process_max_fds"), open_fds);
  // Started by this test; the kernel counts the start in 10 ms ticks.
  // (Timestamps were once written with 9 digits: a 10-second grid.)
  const double start = ValueOn(page, "process_start_time_seconds");
  EXPECT_GE(start, started - 0.5) << std::fixed << start << " " << started;
  EXPECT_LE(start, started + 30) << page;
}

// Every panel of the shipped replica-mode dashboard has data.
TEST_F(ReplicaReportingTest, TheShippedDashboardsQueriesHaveData) {
  auto propscaler = Start({"--healthz-port=" + std::to_string(port_)});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  const std::vector<std::string> queries =
      DashboardQueries("propscaler-replicas");
  ASSERT_FALSE(queries.empty());
  EXPECT_TRUE(PrometheusScrapes(port_, queries)) << propscaler->Report();
}

TEST_F(ReplicaReportingTest, PrometheusScrapesTheDocumentedSeries) {
  auto propscaler = Start({"--healthz-port=" + std::to_string(port_)});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  EXPECT_TRUE(PrometheusScrapes(
      port_, {"up{job=\"propscaler\"} == 1",
              "propscaler_desired_replicas{target=\"deployment/coredns\"} == 4",
              "propscaler_current_replicas{target=\"deployment/coredns\"} == 4",
              "propscaler_nodes{state=\"schedulable\"} == 4",
              "propscaler_cycle_duration_seconds_count > 0",
              "propscaler_last_successful_cycle_timestamp_seconds > 0",
              "propscaler_build_info == 1", "process_resident_memory_bytes > 0",
              "rate(process_cpu_seconds_total[5s]) >= 0"}))
      << propscaler->Report();
}

TEST_F(ReplicaReportingTest, ScalingPostsOneEventOnTheTarget) {
  auto propscaler = Start({"--healthz-port=" + std::to_string(port_)});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  ASSERT_TRUE(WaitUntil(
      [&] {
        return !EventsWith({"\"ScaledReplicas\"", "from 1 to 4"}).empty();
      },
      seconds(3)))
      << propscaler->Report();
  const std::vector<std::string> events =
      EventsWith({"\"ScaledReplicas\"", "from 1 to 4"});
  ASSERT_EQ(events.size(), 1u);
  EXPECT_TRUE(Contains(events[0], "\"kind\":\"Deployment\"")) << events[0];
  EXPECT_TRUE(Contains(events[0], "\"name\":\"coredns\"")) << events[0];
  EXPECT_TRUE(Contains(events[0], "\"type\":\"Normal\"")) << events[0];
  EXPECT_TRUE(Contains(events[0], "nodes 4/4 schedulable")) << events[0];
}

TEST_F(ReplicaReportingTest, InvalidParamsPostOneWarningWhileTheyPersist) {
  auto propscaler = Start(
      {"--healthz-port=" + std::to_string(port_), "--poll-period-seconds=1"});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  ASSERT_TRUE(server_
                  .PutConfigMap(kNamespace, kConfigMap,
                                {{"linear", R"({"nodesPerReplica":-2})"}})
                  .ok());
  // Three cycles have rejected the params: still one Event.
  ASSERT_TRUE(WaitUntil(
      [&] {
        return Contains(Page("/metrics"), "propscaler_params_rejected_total 3");
      },
      seconds(6)))
      << propscaler->Report();
  const std::vector<std::string> warnings =
      EventsWith({"\"InvalidParams\"", "\"kind\":\"ConfigMap\""});
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(Contains(warnings[0], "\"type\":\"Warning\"")) << warnings[0];
  EXPECT_TRUE(Contains(warnings[0], "nodesPerReplica")) << warnings[0];
  EXPECT_TRUE(Contains(warnings[0], std::string("\"name\":\"") + kConfigMap))
      << warnings[0];
}

TEST_F(ReplicaReportingTest, DryRunPostsNoEvents) {
  std::string output;
  ASSERT_EQ(RunOnce({"--dry-run"}, &output), 0) << output;
  EXPECT_EQ(Replicas(), 1);
  EXPECT_TRUE(EventsWith({"ScaledReplicas"}).empty());
}

TEST_F(ReplicaReportingTest, StatusPageShowsCountsParamsTargetsAndDecisions) {
  auto propscaler = Start({"--healthz-port=" + std::to_string(port_)});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  AddNodes(1);
  ASSERT_TRUE(WaitForReplicas(5, seconds(2))) << propscaler->Report();
  std::string page;
  ASSERT_TRUE(WaitUntil(
      [&] {
        page = Page("/status");
        return Contains(page, "nodes changed");
      },
      seconds(3)))
      << page;
  EXPECT_TRUE(Contains(page, "<!DOCTYPE html>"));
  EXPECT_TRUE(Contains(page, "deployment/coredns"));
  EXPECT_TRUE(Contains(page, "in sync"));
  EXPECT_TRUE(Contains(page, "<b>5</b>schedulable nodes")) << page;
  // The params are shown as text, escaped.
  EXPECT_TRUE(Contains(page, "linear: {&quot;nodesPerReplica&quot;:1}"))
      << page;
  EXPECT_FALSE(Contains(page, "Last rejected params"));

  ASSERT_TRUE(server_
                  .PutConfigMap(kNamespace, kConfigMap,
                                {{"linear", R"({"min":"<b>"})"}})
                  .ok());
  ASSERT_TRUE(WaitUntil(
      [&] { return Contains(Page("/status"), "Last rejected params"); },
      seconds(3)))
      << propscaler->Report();
  page = Page("/status");
  EXPECT_TRUE(Contains(page, "&lt;b&gt;")) << page;
  EXPECT_FALSE(Contains(page, "\"<b>\"")) << page;
}

TEST_F(ReplicaReportingTest, HealthPortServesNothingElse) {
  auto propscaler = Start({"--healthz-port=" + std::to_string(port_)});
  ASSERT_TRUE(WaitForReplicas(4)) << propscaler->Report();
  auto response = HealthGet(port_, "/debug/pprof");
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 404);
}

}  // namespace
}  // namespace propscaler::e2e
