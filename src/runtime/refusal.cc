#include "runtime/refusal.h"

#include <glog/logging.h>

namespace propscaler::runtime {

void Refusal::NoteStatus(const Status& status) {
  MutexLock lock(&mutex_);
  if (status.code() != StatusCode::kPermissionDenied) {
    refused_ = false;
    return;
  }
  if (!logged_) {
    std::string again =
        retry_after_ == Duration::zero()
            ? std::string(" (not asked again)")
            : " (asked again every " +
                  std::to_string(
                      std::chrono::duration_cast<std::chrono::seconds>(
                          retry_after_)
                          .count()) +
                  " s)";
    LOG(WARNING) << status.message() << "; " << fallback_ << again;
    logged_ = true;
  }
  refused_ = true;
  refused_at_ = clock_->Now();
  refusal_ = status;
}

}  // namespace propscaler::runtime
