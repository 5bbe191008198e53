#include "runtime/watch_set.h"

#include "runtime/cycle_driver.h"

namespace propscaler::runtime {

void WatchSet::Start(StopSignal* stop) const {
  for (const Member& member : members_) member.start(stop);
}

void WatchSet::Join() const {
  for (const Member& member : members_) member.join();
}

Status WatchSet::Staleness() const {
  std::vector<Status> errors;
  errors.reserve(members_.size());
  for (const Member& member : members_) {
    if (member.last_error) errors.push_back(member.last_error());
  }
  return CycleDriver::JoinErrors(errors);
}

Status WatchSet::ListOnce() const {
  for (const Member& member : members_) {
    if (!member.list_once) continue;
    if (Status status = member.list_once(); !status.ok()) return status;
  }
  return Status::Ok();
}

}  // namespace propscaler::runtime
