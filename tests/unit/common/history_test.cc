#include "common/history.h"

#include <gtest/gtest.h>

namespace propscaler {
namespace {

using std::chrono::hours;
using std::chrono::minutes;

const TimePoint kStart = TimePoint(hours(1000));

TEST(HistoryTest, KeepsOnePointPerChange) {
  History history;
  history.Record("nodes", kStart, 3);
  history.Record("nodes", kStart + minutes(1), 3);
  history.Record("nodes", kStart + minutes(2), 5);
  history.Record("nodes", kStart + minutes(3), 5);
  EXPECT_EQ(history.Points("nodes"),
            (std::deque<HistoryPoint>{{kStart, 3}, {kStart + minutes(2), 5}}));
  EXPECT_TRUE(history.Points("cores").empty());
}

TEST(HistoryTest, TwoChangesAtOneInstantKeepTheLast) {
  History history;
  history.Record("replicas", kStart, 2);
  history.Record("replicas", kStart + minutes(1), 4);
  history.Record("replicas", kStart + minutes(1), 6);
  EXPECT_EQ(history.Points("replicas"),
            (std::deque<HistoryPoint>{{kStart, 2}, {kStart + minutes(1), 6}}));
}

TEST(HistoryTest, KeepsTheWindowAndThePointInForceAtItsStart) {
  History history(hours(1));
  history.Record("nodes", kStart, 1);
  history.Record("nodes", kStart + minutes(10), 2);
  history.Record("nodes", kStart + minutes(20), 3);
  history.Mark(kStart + minutes(5), "scale-up");
  history.Mark(kStart + minutes(40), "removed");
  history.Trim(kStart + minutes(75));
  // 2 was in force when the window began (at 15 minutes): the line starts
  // with it.
  EXPECT_EQ(history.Points("nodes"),
            (std::deque<HistoryPoint>{{kStart + minutes(10), 2},
                                      {kStart + minutes(20), 3}}));
  EXPECT_EQ(history.marks(),
            (std::deque<HistoryMark>{{kStart + minutes(40), "removed"}}));
}

TEST(HistoryTest, BoundsSeriesPointsAndMarks) {
  History history(hours(1000));
  for (size_t i = 0; i < History::kMaxSeries; ++i) {
    EXPECT_TRUE(history.Record("s" + std::to_string(i), kStart, 1));
  }
  EXPECT_FALSE(history.Record("one too many", kStart, 1));
  EXPECT_TRUE(history.Points("one too many").empty());
  for (size_t i = 0; i < History::kMaxPoints + 10; ++i) {
    history.Record("s0", kStart + minutes(i), static_cast<int64_t>(i));
    history.Mark(kStart + minutes(i), "mark " + std::to_string(i));
  }
  EXPECT_EQ(history.Points("s0").size(), History::kMaxPoints);
  EXPECT_EQ(history.Points("s0").back().value,
            static_cast<int64_t>(History::kMaxPoints + 9));
  EXPECT_EQ(history.marks().size(), History::kMaxMarks);
  EXPECT_EQ(history.marks().back().label,
            "mark " + std::to_string(History::kMaxPoints + 9));
}

TEST(HistoryTest, ShortensLongMarks) {
  History history;
  history.Mark(kStart, std::string(500, 'x'));
  ASSERT_EQ(history.marks().size(), 1u);
  EXPECT_EQ(history.marks()[0].label.size(), History::kMaxMarkLabel);
  EXPECT_TRUE(history.marks()[0].label.ends_with("..."));
}

}  // namespace
}  // namespace propscaler
