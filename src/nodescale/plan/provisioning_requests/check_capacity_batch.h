// How many due check-capacity ProvisioningRequests one loop checks, as
// Cluster Autoscaler's --check-capacity-batch-processing,
// --check-capacity-provisioning-request-max-batch-size and
// --check-capacity-provisioning-request-batch-timebox: at most `size` (one
// without batch processing), and once `timebox` has passed since the batch
// began no more after the one being checked (the first is always checked).
// Pure: the executor passes the time the batch has taken.
#ifndef PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_CHECK_CAPACITY_BATCH_H_
#define PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_CHECK_CAPACITY_BATCH_H_

#include <cstddef>

#include "common/clock.h"

namespace propscaler::nodescale {

struct CheckCapacityBatch {
  int size = 1;
  Duration timebox = std::chrono::seconds(10);

  // Whether a request joins a batch that already holds `taken`.
  bool HasRoom(size_t taken) const;
  // Whether the batch's request `index` (from 0) is checked, `elapsed`
  // after the batch began.
  bool MayCheck(size_t index, Duration elapsed) const;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_CHECK_CAPACITY_BATCH_H_
