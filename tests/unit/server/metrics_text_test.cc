#include "server/metrics_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace propscaler {
namespace {

std::string Rendered(double value) {
  Metrics metrics;
  metrics.DeclareGauge("g", "A gauge.");
  metrics.Set("g", {}, value);
  const std::string text = RenderMetricsText(metrics);
  const size_t at = text.find("\ng ");
  return at == std::string::npos
             ? "(missing)\n" + text
             : text.substr(at + 3, text.find('\n', at + 1) - at - 3);
}

// Values read back exactly: a timestamp keeps its fraction of a second (a
// fixed 9 digits put it on a 10-second grid), and 0.1 is not written as
// 0.10000000000000001.
TEST(MetricsTextTest, NumbersAreTheShortestTextThatReadsBackExactly) {
  EXPECT_EQ(Rendered(1795762575.67), "1795762575.67");
  EXPECT_EQ(Rendered(0.1), "0.1");
  EXPECT_EQ(Rendered(42), "42");
  EXPECT_EQ(Rendered(-3.5), "-3.5");
  EXPECT_EQ(Rendered(1e300), "1e+300");
  for (double value : {1795762575.671234, 123456.789012345, 3e-9}) {
    EXPECT_EQ(std::stod(Rendered(value)), value) << Rendered(value);
  }
}

TEST(MetricsTextTest, HistogramsHaveBucketsSumAndCount) {
  Metrics metrics;
  metrics.DeclareHistogram("h_seconds", "A histogram.", {0.005, 0.25, 1});
  metrics.Observe("h_seconds", {{"kind", "x"}}, 0.2);
  metrics.Observe("h_seconds", {{"kind", "x"}}, 1795762575.5);
  const std::string text = RenderMetricsText(metrics);
  for (const char* line :
       {"# HELP h_seconds A histogram.\n", "# TYPE h_seconds histogram\n",
        "h_seconds_bucket{kind=\"x\",le=\"0.005\"} 0\n",
        "h_seconds_bucket{kind=\"x\",le=\"0.25\"} 1\n",
        "h_seconds_bucket{kind=\"x\",le=\"1\"} 1\n",
        "h_seconds_bucket{kind=\"x\",le=\"+Inf\"} 2\n",
        "h_seconds_sum{kind=\"x\"} 1795762575.7\n",
        "h_seconds_count{kind=\"x\"} 2\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "in\n" << text;
  }
}

// As Prometheus's Go client writes a summary: a series per quantile, then
// the sum and the count of every observation; the quantiles by nearest rank
// over the last Metrics::kSummaryWindow observations, NaN before the first.
TEST(MetricsTextTest, SummariesHaveQuantilesSumAndCount) {
  Metrics metrics;
  metrics.DeclareSummary("s_seconds", "A summary.", {0, 0.5, 0.9, 1});
  metrics.Observe("s_seconds", {{"kind", "none"}}, 1);
  for (int i = 1; i <= 10; ++i) metrics.Observe("s_seconds", {}, i);
  const std::string text = RenderMetricsText(metrics);
  for (const char* line :
       {"# TYPE s_seconds summary\n", "s_seconds{quantile=\"0\"} 1\n",
        "s_seconds{quantile=\"0.5\"} 5\n", "s_seconds{quantile=\"0.9\"} 9\n",
        "s_seconds{quantile=\"1\"} 10\n", "s_seconds_sum 55\n",
        "s_seconds_count 10\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "in\n" << text;
  }
  Metrics::Series empty;
  EXPECT_TRUE(std::isnan(Metrics::Quantile(empty, 0.5)));
  // Past the window, the oldest observations leave the quantiles (not the
  // sum and count).
  Metrics window;
  window.DeclareSummary("w", "", {0, 1});
  for (size_t i = 0; i < Metrics::kSummaryWindow; ++i)
    window.Observe("w", {}, 100);
  window.Observe("w", {}, 1);
  const auto families = window.Families();
  const Metrics::Series& w = families.at("w").series.at("");
  EXPECT_EQ(Metrics::Quantile(w, 0), 1);
  EXPECT_EQ(w.count, Metrics::kSummaryWindow + 1);
}

}  // namespace
}  // namespace propscaler
