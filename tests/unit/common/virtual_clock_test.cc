#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "common/stop_signal.h"

namespace propscaler {
namespace {

using std::chrono::hours;
using std::chrono::seconds;

TEST(VirtualClockTest, JumpsToTheDeadlineWhenEveryThreadWaits) {
  VirtualClock clock;
  const TimePoint start = clock.Now();
  std::atomic<bool> done{false};
  std::thread worker = clock.StartThread([&] {
    clock.SleepFor(seconds(10));
    done = true;
    clock.Notify();
  });
  EXPECT_TRUE(clock.WaitFor(hours(1), [&] { return done.load(); }));
  EXPECT_EQ(clock.Now() - start, seconds(10));
  worker.join();
}

TEST(VirtualClockTest, WakesInDeadlineOrder) {
  VirtualClock clock;
  const TimePoint start = clock.Now();
  std::mutex mutex;
  std::vector<int> order;
  std::vector<std::thread> threads;
  for (int delay : {3, 1, 2}) {
    threads.push_back(clock.StartThread([&, delay] {
      clock.SleepFor(seconds(delay));
      std::lock_guard<std::mutex> lock(mutex);
      order.push_back(delay);
      EXPECT_EQ(clock.Now() - start, seconds(delay));
    }));
  }
  clock.SleepFor(seconds(5));
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(clock.Now() - start, seconds(5));
}

TEST(VirtualClockTest, ReadyWaitEndsWithoutTimePassing) {
  VirtualClock clock;
  const TimePoint start = clock.Now();
  StopSignal stop(&clock);
  std::thread waiter =
      clock.StartThread([&] { EXPECT_TRUE(stop.WaitFor(hours(24))); });
  // The waiter waits; this thread does not yet, so time stands still.
  stop.Stop();
  waiter.join();
  EXPECT_EQ(clock.Now(), start);
}

TEST(VirtualClockTest, StandsStillWhileAThreadRuns) {
  VirtualClock clock;
  const TimePoint start = clock.Now();
  std::thread sleeper = clock.StartThread([&] { clock.SleepFor(seconds(1)); });
  // Only the sleeper waits; this thread runs, so the clock must not move.
  for (int i = 0; i < 1000; ++i) std::this_thread::yield();
  EXPECT_EQ(clock.Now(), start);
  // Not Advance(): the sleeper may not have begun its wait yet, and a wait
  // begun after an Advance would end a second later, with this thread in
  // join() and the clock unable to move. Waiting here moves time only once
  // both wait. Two seconds, not one: of two waits due at the same instant
  // only the first is released until every thread waits again, and if that
  // were this one, join() would keep the sleeper's from ever being released.
  clock.SleepFor(seconds(2));
  sleeper.join();
  EXPECT_EQ(clock.Now() - start, seconds(2));
}

TEST(VirtualClockDeathTest, AWaitWithNoWayOutIsADeadlock) {
  EXPECT_DEATH(
      {
        VirtualClock clock;
        clock.WaitUntil(TimePoint::max(), [] { return false; });
      },
      "deadlock");
}

TEST(VirtualClockDeathTest, AWaitFromAThreadThatDoesNotTakePartAborts) {
  EXPECT_DEATH(
      {
        VirtualClock clock;
        std::thread([&] { clock.SleepFor(seconds(1)); }).join();
      },
      "does not take part");
}

}  // namespace
}  // namespace propscaler
