#include "nodescale/plan/scale_up/pending_batch.h"

#include <algorithm>

namespace propscaler::nodescale {

void PendingBatch::Add(const std::string& uid, TimePoint now) {
  if (uids_.empty()) opened_ = now;
  if (uids_.insert(uid).second) last_ = now;
}

std::optional<TimePoint> PendingBatch::Due() const {
  if (uids_.empty()) return std::nullopt;
  return std::min(last_ + window_.idle, opened_ + window_.max);
}

std::set<std::string> PendingBatch::Close() {
  std::set<std::string> closed;
  closed.swap(uids_);
  return closed;
}

}  // namespace propscaler::nodescale
