// What the status pages show while the loop cannot cycle: the reason the
// driver gives HealthState, turn by turn, in virtual time.
#include <gtest/gtest.h>

#include "common/health_state.h"
#include "common/stop_signal.h"
#include "runtime/cycle_driver.h"

namespace propscaler::runtime {
namespace {

using std::chrono::seconds;

TEST(CycleDriverWaitingTest, SaysWhatTheLoopWaitsForUntilItCycles) {
  VirtualClock clock;
  HealthState health(&clock, std::chrono::minutes(5));
  EXPECT_EQ(health.Waiting(), "starting: no turn of the loop yet");
  StopSignal stop(&clock);
  CycleDriver driver(&clock, &health,
                     {.poll_period = seconds(10), .ready_check = seconds(1)});
  int turns = 0;
  bool acting = false;
  std::vector<std::string> seen;
  const CycleHooks hooks{
      .ready =
          [&] {
            return turns < 2 ? Status::Unavailable("the first list of nodes")
                             : Status::Ok();
          },
      .cycle =
          [&](TimePoint, const std::string&) {
            seen.push_back("cycle: " + health.Waiting());
            stop.Stop();
            return Status::Ok();
          },
      .staleness =
          [&] {
            return turns == 1 ? Status(StatusCode::kPermissionDenied,
                                       "watch persistentvolumes: forbidden")
                              : Status::Ok();
          },
      .finished =
          [&](TimePoint, const Status&) {
            seen.push_back(health.Waiting());
            acting = ++turns >= 3;
          },
      .may_act = [&] { return acting; }};
  driver.Run(&stop, hooks);
  EXPECT_EQ(seen, (std::vector<std::string>{
                      "the first list of nodes",
                      "the first list of nodes; watch persistentvolumes: "
                      "forbidden",
                      CycleDriver::kStandby, "cycle: ", ""}));
}

}  // namespace
}  // namespace propscaler::runtime
