// A small Prometheus registry: counters, gauges, histograms and summaries
// with labels.
// server/metrics_text renders it for /metrics.
//
// Thread-safe. Metrics are declared once with their help text; an update of
// an undeclared name declares it without help. The process-wide registry is
// GlobalMetrics(); the I/O edges (HTTP client, loops) update it, pure code
// never does.
#ifndef PROPSCALER_COMMON_METRICS_H_
#define PROPSCALER_COMMON_METRICS_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace propscaler {

using MetricLabels = std::vector<std::pair<std::string, std::string>>;

class Metrics {
 public:
  enum class Type { kCounter, kGauge, kHistogram, kSummary };
  // A summary's quantiles are over its last kSummaryWindow observations.
  static constexpr size_t kSummaryWindow = 1024;
  struct Series {
    double value = 0;               // counter, gauge; histogram, summary sum
    uint64_t count = 0;             // histogram, summary
    std::vector<uint64_t> buckets;  // histogram: observations <= bounds[i]
    std::vector<double> recent;     // summary: the window, a ring
  };
  struct Family {
    Type type = Type::kGauge;
    std::string help;
    std::vector<double> bounds;     // histogram
    std::vector<double> quantiles;  // summary
    // By label set, in the exposition format: "" or {a="b",c="d"}.
    std::map<std::string, Series> series;
  };

  void DeclareCounter(const std::string& name, const std::string& help);
  void DeclareGauge(const std::string& name, const std::string& help);
  void DeclareHistogram(const std::string& name, const std::string& help,
                        std::vector<double> buckets);
  void DeclareSummary(const std::string& name, const std::string& help,
                      std::vector<double> quantiles);

  void Add(const std::string& name, const MetricLabels& labels = {},
           double value = 1);
  void Set(const std::string& name, const MetricLabels& labels, double value);
  void Observe(const std::string& name, const MetricLabels& labels,
               double value);
  // Drops one series (a gauge of something that is gone).
  void Remove(const std::string& name, const MetricLabels& labels);
  // Gauge `name` holds exactly these series from now on: any other is
  // dropped (a family rebuilt whole each loop).
  void SetAll(const std::string& name,
              const std::vector<std::pair<MetricLabels, double>>& series);

  // The value of a counter or gauge series; 0 when absent. For tests.
  double Value(const std::string& name, const MetricLabels& labels = {}) const;

  // The `q` quantile (0..1) of a summary series' window, by nearest rank;
  // NaN when it has none, as Prometheus's clients report it.
  static double Quantile(const Series& series, double q);

  // A consistent copy of every family, by name.
  std::map<std::string, Family> Families() const;

 private:
  Family& FamilyLocked(const std::string& name, Type type);

  mutable std::mutex mutex_;
  std::map<std::string, Family> families_;
};

Metrics& GlobalMetrics();

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_METRICS_H_
