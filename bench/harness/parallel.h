// Many API writes at once, as many kubelets send them.
#ifndef PROPSCALER_BENCH_HARNESS_PARALLEL_H_
#define PROPSCALER_BENCH_HARNESS_PARALLEL_H_

#include <functional>

#include "common/status.h"

namespace propscaler::bench {

// Calls `work` for first..last from `threads` threads; stops handing out
// numbers at the first error and returns it.
Status ParallelFor(int first, int last, int threads,
                   const std::function<Status(int)>& work);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_PARALLEL_H_
