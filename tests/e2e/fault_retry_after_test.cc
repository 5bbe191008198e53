// 429 Too Many Requests with Retry-After: the next request to the same path
// comes no sooner than the server asked, for the scale subresource (retried
// by the next cycles) and for the node watch (retried by the reflector).
#include "e2e/fault_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using Clock = std::chrono::steady_clock;

constexpr int kRetryAfterSeconds = 2;

sim::FaultRule Throttle(const std::string& method, const std::string& path) {
  sim::FaultRule rule = Fault(method, path, 429, 1);
  rule.retry_after_seconds = kRetryAfterSeconds;
  return rule;
}

// The gap between the first request in `times` (the throttled one) and the
// next.
milliseconds FirstGap(const std::vector<Clock::time_point>& times) {
  if (times.size() < 2) return milliseconds(-1);
  return std::chrono::duration_cast<milliseconds>(times[1] - times[0]);
}

class RetryAfterTest : public FaultTest {};

TEST_F(RetryAfterTest, ScaleCallsWaitForRetryAfter) {
  auto propscaler = StartConverged();
  const auto start = Clock::now();
  server_.AddFault(Throttle("PUT", kScalePath));
  AddNodes(1);
  EXPECT_TRUE(WaitForLastPoll(500, "429", seconds(3))) << LastPollBody();
  ASSERT_TRUE(WaitForReplicas(5, seconds(6))) << propscaler->Report();
  // Every call to the scale path, GET or PUT, waits out the Retry-After.
  std::vector<Clock::time_point> times;
  for (const sim::LoggedRequest& request : server_.RequestLog(start)) {
    if (request.verb_and_path.ends_with(kScalePath)) {
      if (times.empty() && !request.verb_and_path.starts_with("PUT")) {
        continue;  // the GET before the throttled PUT
      }
      times.push_back(request.at);
    }
  }
  EXPECT_GE(FirstGap(times), seconds(kRetryAfterSeconds));
  EXPECT_LE(FirstGap(times), seconds(kRetryAfterSeconds) + 2 * kPollPeriod);
  EXPECT_TRUE(propscaler->Running());
}

TEST_F(RetryAfterTest, WatchReconnectWaitsForRetryAfter) {
  auto propscaler = StartConverged();
  const auto start = Clock::now();
  server_.AddFault(Throttle("WATCH", kNodesPath));
  server_.DropWatches();
  AddNodes(1);
  ASSERT_TRUE(WaitForReplicas(5, seconds(6))) << propscaler->Report();
  const std::vector<Clock::time_point> times =
      RequestTimes(start, std::string("WATCH ") + kNodesPath);
  // Without Retry-After the reflector would come back after 200-300 ms.
  EXPECT_GE(FirstGap(times), seconds(kRetryAfterSeconds));
  EXPECT_LE(FirstGap(times), seconds(kRetryAfterSeconds + 1));
}

}  // namespace
}  // namespace propscaler::e2e
