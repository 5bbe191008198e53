// --max-sync-failures: counts a loop's consecutive failed cycles and says
// when they reach the limit (0: never), logging why.
#ifndef PROPSCALER_COMMON_SYNC_FAILURE_LIMIT_H_
#define PROPSCALER_COMMON_SYNC_FAILURE_LIMIT_H_

#include <glog/logging.h>

#include "common/status.h"

namespace propscaler {

class SyncFailureLimit {
 public:
  explicit SyncFailureLimit(int max) : max_(max) {}

  // True when `status` is the max-th failure in a row.
  bool Reached(const Status& status) {
    consecutive_ = status.ok() ? 0 : consecutive_ + 1;
    if (max_ <= 0 || consecutive_ < max_) return false;
    LOG(ERROR) << consecutive_
               << " consecutive cycles failed (--max-sync-failures); last: "
               << status.message();
    return true;
  }

 private:
  const int max_;
  int consecutive_ = 0;
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_SYNC_FAILURE_LIMIT_H_
