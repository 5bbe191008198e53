#include "nodescale/plan/provisioning_requests/check_capacity_batch.h"

#include <algorithm>

namespace propscaler::nodescale {

bool CheckCapacityBatch::HasRoom(size_t taken) const {
  return taken < static_cast<size_t>(std::max(1, size));
}

bool CheckCapacityBatch::MayCheck(size_t index, Duration elapsed) const {
  return index == 0 || elapsed < timebox;
}

}  // namespace propscaler::nodescale
