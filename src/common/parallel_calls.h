// Runs `count` independent calls (e.g. one POST a node of a scale-up) on at
// most `max_in_flight` threads, as a cloud provider's API takes a batch of
// instance requests at once. The threads take part in `clock`'s time, and
// the caller waits for them through the clock, so a call that waits on it
// (a retry's backoff, a test's slow answer) works in virtual time too.
#ifndef PROPSCALER_COMMON_PARALLEL_CALLS_H_
#define PROPSCALER_COMMON_PARALLEL_CALLS_H_

#include <cstddef>
#include <functional>
#include <vector>

#include "common/clock.h"
#include "common/status.h"

namespace propscaler {

// Every call's status, by index. Each index is called exactly once.
std::vector<Status> RunParallelCalls(const Clock& clock, size_t count,
                                     size_t max_in_flight,
                                     const std::function<Status(size_t)>& call);

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_PARALLEL_CALLS_H_
