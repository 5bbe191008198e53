#include "nodescale/plan/provisioning_requests/provreq_backoff.h"

#include <algorithm>

namespace propscaler::nodescale {

Duration ProvReqBackoff::Of(const std::string& uid) const {
  auto found = waits_.find(uid);
  return found == waits_.end() ? initial_ : found->second;
}

void ProvReqBackoff::Failed(const std::string& uid) {
  auto found = waits_.find(uid);
  if (found != waits_.end()) {
    found->second = std::min(found->second * 2, max_);
    return;
  }
  if (capacity_ == 0) return;
  while (waits_.size() >= capacity_ && !order_.empty()) {
    waits_.erase(order_.front());
    order_.pop_front();
  }
  waits_[uid] = initial_;
  order_.push_back(uid);
}

void ProvReqBackoff::Forget(const std::string& uid) {
  if (waits_.erase(uid) == 0) return;
  order_.erase(std::find(order_.begin(), order_.end(), uid));
}

}  // namespace propscaler::nodescale
