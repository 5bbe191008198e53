// A small Prometheus registry: counters, gauges and histograms with labels,
// rendered in the text exposition format (0.0.4) for /metrics.
//
// Thread-safe. Metrics are declared once with their help text; an update of
// an undeclared name declares it without help. The process-wide registry is
// GlobalMetrics(); the I/O edges (HTTP client, loops) update it, pure code
// never does.
#ifndef PROPSCALER_SERVER_METRICS_H_
#define PROPSCALER_SERVER_METRICS_H_

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace propscaler {

using MetricLabels = std::vector<std::pair<std::string, std::string>>;

class Metrics {
 public:
  enum class Type { kCounter, kGauge, kHistogram };

  void DeclareCounter(const std::string& name, const std::string& help);
  void DeclareGauge(const std::string& name, const std::string& help);
  void DeclareHistogram(const std::string& name, const std::string& help,
                        std::vector<double> buckets);

  void Add(const std::string& name, const MetricLabels& labels = {},
           double value = 1);
  void Set(const std::string& name, const MetricLabels& labels, double value);
  void Observe(const std::string& name, const MetricLabels& labels,
               double value);

  // The value of a counter or gauge series; 0 when absent. For tests.
  double Value(const std::string& name, const MetricLabels& labels = {}) const;

  std::string Render() const;

 private:
  struct Series {
    double value = 0;               // counter, gauge; histogram sum
    uint64_t count = 0;             // histogram
    std::vector<uint64_t> buckets;  // histogram, cumulative at render
  };
  struct Family {
    Type type = Type::kGauge;
    std::string help;
    std::vector<double> bounds;
    std::map<std::string, Series> series;  // by rendered label set
  };
  Family& FamilyLocked(const std::string& name, Type type);

  mutable std::mutex mutex_;
  std::map<std::string, Family> families_;
};

Metrics& GlobalMetrics();

}  // namespace propscaler

#endif  // PROPSCALER_SERVER_METRICS_H_
