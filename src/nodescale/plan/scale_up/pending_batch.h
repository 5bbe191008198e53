// Pending pods batched into one scale-up decision, as Karpenter batches
// them: the first pod opens a window, which closes when no new pod has come
// for the idle duration, or at the latest the max duration after it opened.
// A pod already in the window is not news. Plain data; times are passed in.
#ifndef PROPSCALER_NODESCALE_PLAN_SCALE_UP_PENDING_BATCH_H_
#define PROPSCALER_NODESCALE_PLAN_SCALE_UP_PENDING_BATCH_H_

#include <chrono>
#include <optional>
#include <set>
#include <string>

#include "common/clock.h"

namespace propscaler::nodescale {

struct BatchWindow {
  Duration idle = std::chrono::seconds(1);  // --batch-idle-duration
  Duration max = std::chrono::seconds(10);  // --batch-max-duration
};

class PendingBatch {
 public:
  explicit PendingBatch(BatchWindow window) : window_(window) {}

  // Pod `uid` became pending at `now`: opens a window or keeps it open.
  void Add(const std::string& uid, TimePoint now);
  // When the open window closes; nullopt while none is open.
  std::optional<TimePoint> Due() const;
  // The pods of the open window, then none: the next Add opens a new one.
  std::set<std::string> Close();
  size_t size() const { return uids_.size(); }

 private:
  BatchWindow window_;
  std::set<std::string> uids_;
  TimePoint opened_;
  TimePoint last_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SCALE_UP_PENDING_BATCH_H_
