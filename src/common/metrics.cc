#include "common/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace propscaler {
namespace {

std::string EscapeLabelValue(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}

std::string RenderLabels(const MetricLabels& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (size_t i = 0; i < labels.size(); ++i) {
    if (i > 0) out += ",";
    out += labels[i].first + "=\"" + EscapeLabelValue(labels[i].second) + "\"";
  }
  return out + "}";
}

}  // namespace

Metrics::Family& Metrics::FamilyLocked(const std::string& name, Type type) {
  auto [it, inserted] = families_.try_emplace(name);
  if (inserted) it->second.type = type;
  return it->second;
}

void Metrics::DeclareCounter(const std::string& name, const std::string& help) {
  std::lock_guard<std::mutex> lock(mutex_);
  FamilyLocked(name, Type::kCounter).help = help;
}

void Metrics::DeclareGauge(const std::string& name, const std::string& help) {
  std::lock_guard<std::mutex> lock(mutex_);
  FamilyLocked(name, Type::kGauge).help = help;
}

void Metrics::DeclareHistogram(const std::string& name, const std::string& help,
                               std::vector<double> buckets) {
  std::lock_guard<std::mutex> lock(mutex_);
  Family& family = FamilyLocked(name, Type::kHistogram);
  family.help = help;
  family.bounds = std::move(buckets);
}

void Metrics::DeclareSummary(const std::string& name, const std::string& help,
                             std::vector<double> quantiles) {
  std::lock_guard<std::mutex> lock(mutex_);
  Family& family = FamilyLocked(name, Type::kSummary);
  family.help = help;
  family.quantiles = std::move(quantiles);
}

void Metrics::Add(const std::string& name, const MetricLabels& labels,
                  double value) {
  std::lock_guard<std::mutex> lock(mutex_);
  FamilyLocked(name, Type::kCounter).series[RenderLabels(labels)].value +=
      value;
}

void Metrics::Set(const std::string& name, const MetricLabels& labels,
                  double value) {
  std::lock_guard<std::mutex> lock(mutex_);
  FamilyLocked(name, Type::kGauge).series[RenderLabels(labels)].value = value;
}

void Metrics::Remove(const std::string& name, const MetricLabels& labels) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto family = families_.find(name);
  if (family != families_.end())
    family->second.series.erase(RenderLabels(labels));
}

void Metrics::SetAll(
    const std::string& name,
    const std::vector<std::pair<MetricLabels, double>>& series) {
  std::map<std::string, Series> rendered;
  for (const auto& [labels, value] : series) {
    rendered[RenderLabels(labels)].value = value;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  FamilyLocked(name, Type::kGauge).series.swap(rendered);
}

void Metrics::Observe(const std::string& name, const MetricLabels& labels,
                      double value) {
  std::lock_guard<std::mutex> lock(mutex_);
  Family& family = FamilyLocked(name, Type::kHistogram);
  Series& series = family.series[RenderLabels(labels)];
  series.value += value;
  if (family.type == Type::kSummary) {
    if (series.recent.size() < kSummaryWindow) {
      series.recent.push_back(value);
    } else {
      series.recent[series.count % kSummaryWindow] = value;
    }
    ++series.count;
    return;
  }
  series.buckets.resize(family.bounds.size());
  for (size_t i = 0; i < family.bounds.size(); ++i) {
    if (value <= family.bounds[i]) ++series.buckets[i];
  }
  ++series.count;
}

double Metrics::Quantile(const Series& series, double q) {
  if (series.recent.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> sorted = series.recent;
  std::sort(sorted.begin(), sorted.end());
  const double rank = std::ceil(q * static_cast<double>(sorted.size()));
  const size_t at = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return sorted[std::min(at, sorted.size() - 1)];
}

double Metrics::Value(const std::string& name,
                      const MetricLabels& labels) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto family = families_.find(name);
  if (family == families_.end()) return 0;
  auto series = family->second.series.find(RenderLabels(labels));
  return series == family->second.series.end() ? 0 : series->second.value;
}

std::map<std::string, Metrics::Family> Metrics::Families() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return families_;
}

Metrics& GlobalMetrics() {
  static Metrics* metrics = new Metrics();
  return *metrics;
}

}  // namespace propscaler
