#include "nodescale/report/status_page.h"

#include <gtest/gtest.h>

#include "unit/svg_test_util.h"

namespace propscaler::nodescale {
namespace {

using std::chrono::seconds;

const TimePoint kStart = TimePoint(std::chrono::hours(1000));

StatusReport At(TimePoint time, int64_t pending, int64_t target, int64_t ready,
                const std::string& scale_up) {
  StatusReport report;
  report.time = time;
  report.health = "Healthy";
  report.pending_pods = pending;
  report.groups = {{"small", 0, 10, target, ready}};
  report.last_scale_up = scale_up;
  return report;
}

TEST(NodeScaleStatusPageTest, DrawsPendingPodsTargetsAndScaleUps) {
  History history;
  const StatusReport first = At(kStart, 6, 0, 0, "never");
  RecordHistory(first, StatusReport(), &history);
  const StatusReport second =
      At(kStart + seconds(10), 6, 3, 0,
         "small +3 (to 3) at 2026-12-03T09:00:10.000000Z");
  RecordHistory(second, first, &history);
  StatusReport third = At(kStart + seconds(40), 0, 3, 3, second.last_scale_up);
  RecordHistory(third, second, &history);
  third.history = history;
  const std::string page = RenderStatusPage(third);
  EXPECT_TRUE(testing_util::SvgsBalance(page)) << page;
  EXPECT_NE(page.find("data-series=\"pending pods\" data-values=\"6 0\""),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("data-series=\"target\" data-values=\"0 3\""),
            std::string::npos);
  EXPECT_NE(page.find("data-series=\"ready\" data-values=\"0 3\""),
            std::string::npos);
  EXPECT_NE(page.find("data-series=\"small target\" data-values=\"0 3\""),
            std::string::npos);
  EXPECT_NE(page.find("data-series=\"small nodes\" data-values=\"0 3\""),
            std::string::npos);
  // One mark: the scale-up, when it was new.
  EXPECT_EQ(history.marks().size(), 1u);
  EXPECT_NE(page.find("data-mark=\"scale-up: small +3 (to 3)\""),
            std::string::npos);
}

TEST(NodeScaleStatusPageTest, WaitingForTheFirstLists) {
  const std::string page = RenderStatusPage(
      StatusReport(), {std::nullopt, "waiting for the first list of pods"});
  EXPECT_NE(page.find("<span class=wait>waiting: waiting for the first list "
                      "of pods</span>"),
            std::string::npos)
      << page;
}

}  // namespace
}  // namespace propscaler::nodescale
