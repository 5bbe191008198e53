// Debian's Prometheus and promtool, for the end-to-end tests: a real
// Prometheus that scrapes a running propscaler (with deploy/'s alerting
// rules loaded) and is asked through its HTTP API, and promtool's lint of
// a /metrics page.
#ifndef PROPSCALER_TESTS_E2E_PROMETHEUS_H_
#define PROPSCALER_TESTS_E2E_PROMETHEUS_H_

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "e2e/process.h"

namespace propscaler::e2e {

class PrometheusServer {
 public:
  // Scrapes http://127.0.0.1:`target_port`/metrics every second as job
  // "propscaler", with deploy/prometheus/alerts.yaml loaded.
  explicit PrometheusServer(int target_port);

  // The body of GET /api/v1/`path` with `query` ("" when none answered).
  std::string Api(const std::string& path, const std::string& query) const;
  // Polls an instant query until its result has a sample; on failure,
  // names the query and shows the last answer and Prometheus's log.
  ::testing::AssertionResult WaitForSample(const std::string& expr,
                                           std::chrono::milliseconds timeout);

 private:
  TempDir dir_;
  int port_ = 0;
  std::unique_ptr<Process> process_;
};

// `promtool check metrics` over `exposition`: OK, or its findings.
::testing::AssertionResult PromtoolAccepts(const std::string& exposition);

// Every documented check of one mode's page: promtool's lint, then a real
// Prometheus scraping `port` until each of `exprs` has a sample and the
// alerting rules are loaded.
::testing::AssertionResult PrometheusScrapes(
    int port, const std::vector<std::string>& exprs);

// Every query of a shipped Grafana dashboard (deploy/monitoring/dashboards/
// `name`.json) as Prometheus runs it, its $job variable set to the scrape
// job's name; fails the test when the file is not a dashboard (no panels,
// a panel without a type, a target without its expression, a variable
// other than $job in a query).
std::vector<std::string> DashboardQueries(const std::string& name);

}  // namespace propscaler::e2e

#endif  // PROPSCALER_TESTS_E2E_PROMETHEUS_H_
