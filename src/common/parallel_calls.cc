#include "common/parallel_calls.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace propscaler {

std::vector<Status> RunParallelCalls(
    const Clock& clock, size_t count, size_t max_in_flight,
    const std::function<Status(size_t)>& call) {
  std::vector<Status> statuses(count);
  if (count == 0) return statuses;
  const size_t workers = std::clamp<size_t>(max_in_flight, 1, count);
  std::atomic<size_t> next{0};
  std::atomic<size_t> finished{0};
  std::vector<std::thread> threads;
  threads.reserve(workers);
  for (size_t w = 0; w < workers; ++w) {
    threads.push_back(clock.StartThread([&] {
      for (size_t i; (i = next.fetch_add(1)) < count;) {
        statuses[i] = call(i);
      }
      ++finished;
      clock.Notify();
    }));
  }
  // Through the clock, not join(): a joining thread counts as running, and
  // virtual time would stand still for a call that waits on it.
  clock.WaitUntil(TimePoint::max(), [&] { return finished == workers; });
  for (std::thread& thread : threads) thread.join();
  return statuses;
}

}  // namespace propscaler
