#include "harness/metrics_scrape.h"

#include <cstdlib>

#include "transport/http_client.h"

namespace propscaler::bench {

namespace {

Result<std::string> MetricsText(int port) {
  kube::ClientConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(port);
  kube::HttpClient http(config, &RealClock::Instance());
  Result<kube::HttpResponse> metrics = http.Do({.path = "/metrics"});
  if (!metrics.ok()) return metrics.status().WithContext("/metrics");
  if (metrics->status != 200) {
    return Status::Internal("/metrics answered " +
                            std::to_string(metrics->status));
  }
  return "\n" + metrics->body;
}

}  // namespace

Result<std::map<std::string, double>> ScrapeMetrics(
    int port, const std::vector<std::string>& names) {
  Result<std::string> text = MetricsText(port);
  if (!text.ok()) return text.status();
  std::map<std::string, double> values;
  for (const std::string& name : names) {
    const std::string key = "\n" + name + " ";
    const size_t at = text->find(key);
    values[name] = at == std::string::npos
                       ? 0
                       : std::strtod(text->c_str() + at + key.size(), nullptr);
  }
  return values;
}

Result<double> SumSeries(int port, const std::string& name,
                         const std::string& label) {
  Result<std::string> text = MetricsText(port);
  if (!text.ok()) return text.status();
  double sum = 0;
  for (size_t at = text->find("\n" + name); at != std::string::npos;
       at = text->find("\n" + name, at + 1)) {
    const size_t end = text->find('\n', at + 1);
    const std::string line = text->substr(at + 1, end - at - 1);
    const char after = line.size() > name.size() ? line[name.size()] : '\0';
    if (after != ' ' && after != '{') continue;  // another metric's name
    if (!label.empty() && line.find(label) == std::string::npos) continue;
    const size_t value = line.rfind(' ');
    sum += std::strtod(line.c_str() + value + 1, nullptr);
  }
  return sum;
}

}  // namespace propscaler::bench
