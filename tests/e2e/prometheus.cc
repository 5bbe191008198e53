#include "e2e/prometheus.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <rapidjson/document.h>

#include <cstdio>
#include <sstream>
#include <vector>

#include "common/files.h"

namespace propscaler::e2e {
namespace {

std::string ConfigYaml(int target_port, const std::string& rules) {
  return "global:\n"
         "  scrape_interval: 1s\n"
         "  evaluation_interval: 1s\n"
         "rule_files:\n"
         "  - " +
         rules +
         "\n"
         "scrape_configs:\n"
         "  - job_name: propscaler\n"
         "    static_configs:\n"
         "      - targets: ['127.0.0.1:" +
         std::to_string(target_port) + "']\n";
}

// The number of samples in an instant query's answer; -1 when it is not a
// successful vector.
int SampleCount(const std::string& body) {
  rapidjson::Document doc;
  doc.Parse(body.c_str());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("status") ||
      doc["status"] != "success" || !doc.HasMember("data") ||
      !doc["data"].HasMember("result") || !doc["data"]["result"].IsArray()) {
    return -1;
  }
  return static_cast<int>(doc["data"]["result"].Size());
}

}  // namespace

PrometheusServer::PrometheusServer(int target_port) : port_(FreePort()) {
  const std::string config =
      dir_.Write("prometheus.yml",
                 ConfigYaml(target_port, std::string(PROPSCALER_SOURCE_DIR) +
                                             "/deploy/prometheus/alerts.yaml"));
  process_ = std::make_unique<Process>(
      PROMETHEUS_BINARY,
      std::vector<std::string>{
          "--config.file=" + config,
          "--storage.tsdb.path=" + dir_.path() + "/data",
          "--web.listen-address=127.0.0.1:" + std::to_string(port_)});
}

std::string PrometheusServer::Api(const std::string& path,
                                  const std::string& query) const {
  httplib::Client client("127.0.0.1", port_);
  client.set_connection_timeout(1);
  httplib::Params params;
  if (!query.empty()) params.emplace("query", query);
  httplib::Result result =
      client.Get("/api/v1/" + path, params, httplib::Headers{});
  return result && result->status == 200 ? result->body : "";
}

::testing::AssertionResult PrometheusServer::WaitForSample(
    const std::string& expr, std::chrono::milliseconds timeout) {
  std::string last;
  if (WaitUntil(
          [&] {
            last = Api("query", expr);
            return SampleCount(last) > 0;
          },
          timeout)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "no sample for " << expr << "; last answer: " << last
         << "\nPrometheus: " << process_->Report();
}

::testing::AssertionResult PromtoolAccepts(const std::string& exposition) {
  TempDir dir;
  const std::string page = dir.Write("metrics.txt", exposition);
  const std::string command =
      std::string(PROMTOOL_BINARY) + " check metrics < " + page + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return ::testing::AssertionFailure() << "popen failed";
  std::string output;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) {
    output.append(buffer, n);
  }
  const int status = pclose(pipe);
  if (status == 0) return ::testing::AssertionSuccess();
  // Cluster Autoscaler's own gauges end in _count (nodes_count, ...), and
  // so does Karpenter's cluster_state_node_count: their users' dashboards
  // read them by those names, so that finding alone is borne; any other
  // fails.
  std::istringstream lines(output);
  std::string unexpected;
  for (std::string line; std::getline(lines, line);) {
    if ((line.starts_with("cluster_autoscaler_") ||
         line.starts_with("karpenter_cluster_state_node_count ")) &&
        line.ends_with(" non-histogram and non-summary metrics should not "
                       "have \"_count\" suffix")) {
      continue;
    }
    unexpected += line + "\n";
  }
  if (unexpected.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "promtool check metrics exited " << status << ": " << unexpected;
}

::testing::AssertionResult PrometheusScrapes(
    int port, const std::vector<std::string>& exprs) {
  httplib::Client client("127.0.0.1", port);
  httplib::Result page = client.Get("/metrics");
  if (!page || page->status != 200) {
    return ::testing::AssertionFailure() << "no /metrics on port " << port;
  }
  ::testing::AssertionResult lint = PromtoolAccepts(page->body);
  if (!lint) return lint;
  PrometheusServer prometheus(port);
  for (const std::string& expr : exprs) {
    ::testing::AssertionResult found =
        prometheus.WaitForSample(expr, std::chrono::seconds(30));
    if (!found) return found;
  }
  // The rules loaded and evaluated against what it scraped.
  const std::string rules = prometheus.Api("rules", "");
  if (rules.find("\"PropscalerLoopStalled\"") == std::string::npos ||
      rules.find("\"health\":\"err\"") != std::string::npos) {
    return ::testing::AssertionFailure()
           << "alerting rules not loaded or failing: " << rules;
  }
  return ::testing::AssertionSuccess();
}

std::vector<std::string> DashboardQueries(const std::string& name) {
  const std::string path = std::string(PROPSCALER_SOURCE_DIR) +
                           "/deploy/monitoring/dashboards/" + name + ".json";
  Result<std::string> text = ReadFile(path);
  EXPECT_TRUE(text.ok()) << text.status().message();
  if (!text.ok()) return {};
  rapidjson::Document dashboard;
  dashboard.Parse(text->c_str());
  EXPECT_FALSE(dashboard.HasParseError()) << path << " is not JSON";
  if (dashboard.HasParseError() || !dashboard.HasMember("panels") ||
      !dashboard["panels"].IsArray() || dashboard["panels"].Empty()) {
    ADD_FAILURE() << path << " has no panels";
    return {};
  }
  EXPECT_TRUE(dashboard.HasMember("uid") && dashboard.HasMember("title"))
      << path;
  std::vector<std::string> queries;
  for (const auto& panel : dashboard["panels"].GetArray()) {
    EXPECT_TRUE(panel.HasMember("type") && panel.HasMember("targets") &&
                panel["targets"].IsArray() && !panel["targets"].Empty())
        << path << ": a panel without a type or targets";
    if (!panel.HasMember("targets") || !panel["targets"].IsArray()) continue;
    for (const auto& target : panel["targets"].GetArray()) {
      EXPECT_TRUE(target.HasMember("expr"))
          << path << ": a target without expr";
      if (!target.HasMember("expr")) continue;
      std::string query = target["expr"].GetString();
      for (size_t at = query.find("$job"); at != std::string::npos;
           at = query.find("$job")) {
        query.replace(at, 4, "propscaler");
      }
      EXPECT_EQ(query.find('$'), std::string::npos)
          << path << ": a variable other than $job in " << query;
      queries.push_back(query);
    }
  }
  return queries;
}

}  // namespace propscaler::e2e
