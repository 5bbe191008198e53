#include "harness/metrics_scrape.h"

#include <cstdlib>

#include "transport/http_client.h"

namespace propscaler::bench {

Result<std::map<std::string, double>> ScrapeMetrics(
    int port, const std::vector<std::string>& names) {
  kube::ClientConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(port);
  kube::HttpClient http(config, &RealClock::Instance());
  Result<kube::HttpResponse> metrics = http.Do({.path = "/metrics"});
  if (!metrics.ok()) return metrics.status().WithContext("/metrics");
  if (metrics->status != 200) {
    return Status::Internal("/metrics answered " +
                            std::to_string(metrics->status));
  }
  const std::string text = "\n" + metrics->body;
  std::map<std::string, double> values;
  for (const std::string& name : names) {
    const std::string key = "\n" + name + " ";
    const size_t at = text.find(key);
    values[name] = at == std::string::npos
                       ? 0
                       : std::strtod(text.c_str() + at + key.size(), nullptr);
  }
  return values;
}

}  // namespace propscaler::bench
