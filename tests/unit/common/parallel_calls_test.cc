#include "common/parallel_calls.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>

namespace propscaler {
namespace {

using std::chrono::milliseconds;

TEST(ParallelCallsTest, CallsEachIndexOnceAndKeepsEveryStatusInPlace) {
  std::mutex mutex;
  std::multiset<size_t> called;
  const std::vector<Status> statuses =
      RunParallelCalls(RealClock::Instance(), 20, 4, [&](size_t i) {
        std::lock_guard<std::mutex> lock(mutex);
        called.insert(i);
        return i % 7 == 3 ? Status::Unavailable("call " + std::to_string(i))
                          : Status::Ok();
      });
  ASSERT_EQ(statuses.size(), 20u);
  for (size_t i = 0; i < 20; ++i) {
    EXPECT_EQ(called.count(i), 1u) << i;
    EXPECT_EQ(statuses[i].ok(), i % 7 != 3) << i;
  }
  EXPECT_EQ(statuses[10].message(), "call 10");
}

TEST(ParallelCallsTest, NothingToCallStartsNothing) {
  EXPECT_TRUE(RunParallelCalls(RealClock::Instance(), 0, 8, [](size_t) {
                return Status::Internal("called");
              }).empty());
}

// Calls that wait on a virtual clock: 16 calls of 100 ms each, 8 at a
// time, take two rounds of virtual time, and never more than 8 run at once.
TEST(ParallelCallsTest, CallsThatWaitOnAVirtualClockOverlap) {
  VirtualClock clock;
  std::atomic<int> in_flight{0}, most{0};
  const TimePoint start = clock.Now();
  const std::vector<Status> statuses =
      RunParallelCalls(clock, 16, 8, [&](size_t) {
        const int now = ++in_flight;
        for (int seen = most;
             now > seen && !most.compare_exchange_weak(seen, now);) {
        }
        clock.SleepFor(milliseconds(100));
        --in_flight;
        return Status::Ok();
      });
  EXPECT_EQ(statuses.size(), 16u);
  EXPECT_EQ(clock.Now() - start, milliseconds(200));
  EXPECT_LE(most.load(), 8);
  EXPECT_GE(most.load(), 2);
}

}  // namespace
}  // namespace propscaler
