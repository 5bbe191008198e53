#include "kube/controllers/event_recorder.h"

#include <glog/logging.h>

#include <algorithm>

#include "common/metrics.h"
#include "common/stop_on_signals.h"

namespace propscaler::kube {
namespace {
constexpr char kDropped[] = "propscaler_events_dropped_total";
}  // namespace

EventRecorder::EventRecorder(const EventClient* client, const Clock* clock,
                             std::string component, Duration repeat_after,
                             size_t queue_limit)
    : client_(client),
      clock_(clock),
      component_(std::move(component)),
      repeat_after_(repeat_after),
      queue_limit_(queue_limit) {
  if (queue_limit_ == 0) return;
  GlobalMetrics().DeclareCounter(
      kDropped, "Events not posted because the queue to the API was full.");
  // Started with the mode's set-up, before StopOnSignals.
  sender_ = ThreadWithoutStopSignals([this] { SendQueued(); });
}

EventRecorder::~EventRecorder() {
  if (!sender_.joinable()) return;
  size_t left = 0;
  {
    // What is queued still goes (a --once run's ScaledReplicas, the last
    // scale-up's Events), for as long as a stopping process can wait.
    std::unique_lock<std::mutex> lock(mutex_);
    drained_.wait_for(lock, kDrainTime,
                      [this] { return queue_.empty() && !posting_; });
    stopping_ = true;
    left = queue_.size();
    queue_.clear();
  }
  queued_.notify_all();
  sender_.join();
  LOG_IF(INFO, left > 0) << "stopping: " << left << " Events not posted";
}

void EventRecorder::SendQueued() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    queued_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    const Stamped next = std::move(queue_.front());
    queue_.pop_front();
    posting_ = true;
    lock.unlock();
    Post(next);
    lock.lock();
    posting_ = false;
    if (queue_.empty()) drained_.notify_all();
  }
}

size_t EventRecorder::remembered() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return last_posted_.size();
}

bool EventRecorder::Record(const EventInfo& event) {
  const std::string key = event.object.kind + "/" + event.object.namespace_ +
                          "/" + event.object.name + "/" + event.reason + "/" +
                          event.message;
  const TimePoint now = clock_->Now();
  TimePoint stamp;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (forbidden_) return false;
    // Entries past repeat_after hold nothing back any more: dropped once a
    // period, so the map holds at most two periods' Events.
    if (now - last_forgotten_ >= repeat_after_) {
      std::erase_if(last_posted_, [&](const auto& entry) {
        return now - entry.second >= repeat_after_;
      });
      last_forgotten_ = now;
    }
    auto it = last_posted_.find(key);
    if (it != last_posted_.end() && now - it->second < repeat_after_) {
      return false;
    }
    // Dropped, it is not counted as posted: it may be tried again.
    if (queue_limit_ > 0 && queue_.size() >= queue_limit_) {
      GlobalMetrics().Add(kDropped);
      return false;
    }
    last_posted_[key] = now;
    // Event names are the object's name and the time: two Events in one
    // clock tick (always, in virtual time) would have the same name.
    stamp = std::max(now, last_stamp_ + Duration(1));
    last_stamp_ = stamp;
    if (queue_limit_ > 0) queue_.push_back({event, stamp});
  }
  if (queue_limit_ > 0) {
    queued_.notify_one();
    return true;
  }
  return Post({event, stamp});
}

bool EventRecorder::Post(const Stamped& stamped) {
  {
    // A queued Event after the first 403 is not tried.
    std::lock_guard<std::mutex> lock(mutex_);
    if (forbidden_) return false;
  }
  const EventInfo& event = stamped.event;
  const Status posted = client_->CreateEvent(event, component_, stamped.stamp);
  if (posted.code() == StatusCode::kPermissionDenied) {
    std::lock_guard<std::mutex> lock(mutex_);
    LOG_IF(WARNING, !forbidden_)
        << "cannot post Events (" << posted.message()
        << "); carrying on without them (grant create on events to see "
           "them in kubectl get events)";
    forbidden_ = true;
    return false;
  }
  LOG_IF(WARNING, !posted.ok())
      << "posting event " << event.reason << " on " << event.object.kind << " "
      << event.object.name << ": " << posted.message();
  return posted.ok();
}

}  // namespace propscaler::kube
