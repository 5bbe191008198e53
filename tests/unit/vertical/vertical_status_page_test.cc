#include "vertical/vertical_status_page.h"

#include <gtest/gtest.h>

#include "unit/svg_test_util.h"

namespace propscaler {
namespace {

using std::chrono::minutes;

const TimePoint kStart = TimePoint(std::chrono::hours(1000));

TEST(VerticalStatusPageTest, DrawsNodesCoresAndEachResourceSet) {
  VerticalStatus status;
  status.computed["coredns"].requests = {{"cpu", 200}, {"memory", 70LL << 30}};
  status.history.Record("nodes", kStart, 4);
  status.history.Record("cores", kStart, 16);
  RecordResources({{"coredns", {{"cpu", "100m"}, {"memory", "50Mi"}}, {}}},
                  kStart, &status.history);
  RecordResources({{"coredns", {{"cpu", "200m"}, {"memory", "70Mi"}}, {}}},
                  kStart + minutes(3), &status.history);
  status.history.Mark(kStart + minutes(3), "set coredns requests.cpu 200m");
  const std::string page =
      RenderVerticalStatusPage(status, kStart + minutes(4));
  EXPECT_TRUE(testing_util::SvgsBalance(page)) << page;
  EXPECT_NE(page.find("data-series=\"cores\" data-values=\"16\""),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("cpu (millicores) (UTC)"), std::string::npos);
  EXPECT_NE(page.find("data-series=\"coredns requests.cpu\" "
                      "data-values=\"100 200\""),
            std::string::npos);
  EXPECT_NE(page.find("data-series=\"coredns requests.memory\" "
                      "data-values=\"50 70\""),
            std::string::npos);
  EXPECT_NE(page.find("data-mark=\"set coredns requests.cpu 200m\""),
            std::string::npos);
}

}  // namespace
}  // namespace propscaler
