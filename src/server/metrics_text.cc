#include "server/metrics_text.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace propscaler {
namespace {

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
  // The shortest text that reads back as the same double, as Prometheus's
  // own clients write it; a fixed precision (%.9g) put timestamps on a
  // 10-second grid.
  char text[64];
  const auto written = std::to_chars(text, text + sizeof(text), value);
  return std::string(text, written.ptr);
}

const char* TypeName(Metrics::Type type) {
  switch (type) {
    case Metrics::Type::kCounter:
      return "counter";
    case Metrics::Type::kGauge:
      return "gauge";
    case Metrics::Type::kHistogram:
      return "histogram";
    case Metrics::Type::kSummary:
      return "summary";
  }
  return "untyped";
}

}  // namespace

std::string RenderMetricsText(const Metrics& metrics) {
  std::ostringstream out;
  for (const auto& [name, family] : metrics.Families()) {
    if (!family.help.empty())
      out << "# HELP " << name << " " << family.help << "\n";
    out << "# TYPE " << name << " " << TypeName(family.type) << "\n";
    for (const auto& [labels, series] : family.series) {
      if (family.type == Metrics::Type::kCounter ||
          family.type == Metrics::Type::kGauge) {
        out << name << labels << " " << FormatNumber(series.value) << "\n";
        continue;
      }
      if (family.type == Metrics::Type::kSummary) {
        for (double q : family.quantiles) {
          out << name
              << WithLabel(labels, "quantile=\"" + FormatNumber(q) + "\"")
              << " " << FormatNumber(Metrics::Quantile(series, q)) << "\n";
        }
      } else {
        for (size_t i = 0; i < family.bounds.size(); ++i) {
          out << name << "_bucket"
              << WithLabel(labels,
                           "le=\"" + FormatNumber(family.bounds[i]) + "\"")
              << " " << series.buckets[i] << "\n";
        }
        out << name << "_bucket" << WithLabel(labels, "le=\"+Inf\"") << " "
            << series.count << "\n";
      }
      out << name << "_sum" << labels << " " << FormatNumber(series.value)
          << "\n";
      out << name << "_count" << labels << " " << series.count << "\n";
    }
  }
  return out.str();
}

}  // namespace propscaler
