#include "server/metrics.h"

#include <cmath>
#include <cstdio>
#include <sstream>

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

// `rendered` is "" or "{a=\"b\"}"; adds one more label inside the braces.
std::string WithLabel(const std::string& rendered, const std::string& label) {
  if (rendered.empty()) return "{" + label + "}";
  return rendered.substr(0, rendered.size() - 1) + "," + label + "}";
}

std::string FormatNumber(double value) {
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (std::isnan(value)) return "NaN";
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<long long>(value));
  }
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

const char* TypeName(Metrics::Type type) {
  switch (type) {
    case Metrics::Type::kCounter:
      return "counter";
    case Metrics::Type::kGauge:
      return "gauge";
    case Metrics::Type::kHistogram:
      return "histogram";
  }
  return "untyped";
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

void Metrics::Observe(const std::string& name, const MetricLabels& labels,
                      double value) {
  std::lock_guard<std::mutex> lock(mutex_);
  Family& family = FamilyLocked(name, Type::kHistogram);
  Series& series = family.series[RenderLabels(labels)];
  series.buckets.resize(family.bounds.size());
  for (size_t i = 0; i < family.bounds.size(); ++i) {
    if (value <= family.bounds[i]) ++series.buckets[i];
  }
  series.value += value;
  ++series.count;
}

double Metrics::Value(const std::string& name,
                      const MetricLabels& labels) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto family = families_.find(name);
  if (family == families_.end()) return 0;
  auto series = family->second.series.find(RenderLabels(labels));
  return series == family->second.series.end() ? 0 : series->second.value;
}

std::string Metrics::Render() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::ostringstream out;
  for (const auto& [name, family] : families_) {
    if (!family.help.empty())
      out << "# HELP " << name << " " << family.help << "\n";
    out << "# TYPE " << name << " " << TypeName(family.type) << "\n";
    for (const auto& [labels, series] : family.series) {
      if (family.type != Type::kHistogram) {
        out << name << labels << " " << FormatNumber(series.value) << "\n";
        continue;
      }
      for (size_t i = 0; i < family.bounds.size(); ++i) {
        out << name << "_bucket"
            << WithLabel(labels,
                         "le=\"" + FormatNumber(family.bounds[i]) + "\"")
            << " " << series.buckets[i] << "\n";
      }
      out << name << "_bucket" << WithLabel(labels, "le=\"+Inf\"") << " "
          << series.count << "\n";
      out << name << "_sum" << labels << " " << FormatNumber(series.value)
          << "\n";
      out << name << "_count" << labels << " " << series.count << "\n";
    }
  }
  return out.str();
}

Metrics& GlobalMetrics() {
  static Metrics* metrics = new Metrics();
  return *metrics;
}

}  // namespace propscaler
