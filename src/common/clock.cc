#include "common/clock.h"

#include <glog/logging.h>

#include <algorithm>

namespace propscaler {
namespace {

constexpr auto kRealClockRecheck = std::chrono::seconds(1);

// The virtual clock the current thread takes part in, if any.
thread_local const VirtualClock* participating_in = nullptr;

}  // namespace

const RealClock& RealClock::Instance() {
  static const RealClock* clock = new RealClock();
  return *clock;
}

bool RealClock::WaitUntil(TimePoint deadline,
                          const std::function<bool()>& ready) const {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!(ready && ready())) {
    const TimePoint now = Now();
    if (now >= deadline) return false;
    changed_.wait_for(lock,
                      std::min<Duration>(deadline - now, kRealClockRecheck));
  }
  return true;
}

void RealClock::Notify() const {
  { std::lock_guard<std::mutex> lock(mutex_); }
  changed_.notify_all();
}

VirtualClock::VirtualClock(TimePoint start) : now_(start) {
  participating_in = this;
}

VirtualClock::~VirtualClock() {
  if (participating_in == this) participating_in = nullptr;
}

TimePoint VirtualClock::Now() const { return now_.load(); }

bool VirtualClock::ReadyLocked(const Waiter& waiter) const {
  return *waiter.ready && (*waiter.ready)();
}

void VirtualClock::ReleaseLocked(Waiter* waiter) const {
  if (waiter->released) return;
  waiter->released = true;
  --waiting_;
  waiter->wake.notify_one();
}

void VirtualClock::ProgressLocked() const {
  bool released = false;
  for (Waiter* waiter : waiters_) {
    if (!waiter->released && ReadyLocked(*waiter)) {
      ReleaseLocked(waiter);
      released = true;
    }
  }
  if (released || waiting_ == 0 || waiting_ < participants_) return;
  Waiter* first = nullptr;
  for (Waiter* waiter : waiters_) {
    if (waiter->released) continue;
    if (first == nullptr || waiter->deadline < first->deadline ||
        (waiter->deadline == first->deadline &&
         waiter->sequence < first->sequence)) {
      first = waiter;
    }
  }
  LOG_IF(FATAL, first->deadline == TimePoint::max())
      << "virtual clock: all " << participants_
      << " threads wait with no deadline and none can proceed (deadlock)";
  now_ = std::max(now_.load(), first->deadline);
  ReleaseLocked(first);
}

bool VirtualClock::WaitUntil(TimePoint deadline,
                             const std::function<bool()>& ready) const {
  LOG_IF(FATAL, participating_in != this)
      << "virtual clock: a wait from a thread that does not take part in it "
         "(start threads with Clock::StartThread)";
  std::unique_lock<std::mutex> lock(mutex_);
  Waiter waiter{deadline, arrivals_++, &ready};
  if (deadline <= now_.load() || ReadyLocked(waiter))
    return ReadyLocked(waiter);
  waiters_.push_back(&waiter);
  ++waiting_;
  ProgressLocked();
  waiter.wake.wait(lock, [&] { return waiter.released; });
  waiters_.remove(&waiter);
  return ReadyLocked(waiter);
}

void VirtualClock::Notify() const {
  std::lock_guard<std::mutex> lock(mutex_);
  ProgressLocked();
}

std::thread VirtualClock::StartThread(std::function<void()> body) const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++participants_;
  }
  return std::thread([this, body = std::move(body)] {
    participating_in = this;
    body();
    participating_in = nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    --participants_;
    ProgressLocked();
  });
}

void VirtualClock::Advance(Duration by) {
  std::lock_guard<std::mutex> lock(mutex_);
  now_ = now_.load() + by;
  for (Waiter* waiter : waiters_) {
    if (!waiter->released && waiter->deadline <= now_.load())
      ReleaseLocked(waiter);
  }
  ProgressLocked();
}

}  // namespace propscaler
