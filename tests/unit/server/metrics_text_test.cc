#include "server/metrics_text.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace propscaler
