#include "nodescale/run/pending_pod_trigger.h"

#include <utility>

namespace propscaler::nodescale {

bool PendingPodTrigger::Unschedulable(const kube::LivePod& pod) const {
  return kube::IsPending(pod.state) && pod.unschedulable &&
         pod.state.priority >= expendable_cutoff_;
}

bool PendingPodTrigger::Saw(const kube::LivePod& pod, TimePoint now) {
  if (!Unschedulable(pod)) {
    unschedulable_.erase(pod.uid);
    return false;
  }
  if (!unschedulable_.insert(pod.uid).second) return false;
  batch_.Add(pod.uid, now);
  return true;
}

void PendingPodTrigger::Relisted(const std::vector<kube::LivePod>& pods,
                                 bool first) {
  bool opened = false;
  const TimePoint now = clock_->Now();  // never under mutex_: see the header
  {
    MutexLock lock(&mutex_);
    if (first) relisted_.clear();
    for (const kube::LivePod& pod : pods) {
      if (!Unschedulable(pod)) continue;
      relisted_.insert(pod.uid);
      if (!unschedulable_.contains(pod.uid)) {
        batch_.Add(pod.uid, now);
        opened = true;
      }
    }
  }
  if (opened) clock_->Notify();
}

// The list is the whole truth: pods gone meanwhile are forgotten.
void PendingPodTrigger::ListComplete() {
  MutexLock lock(&mutex_);
  unschedulable_ = std::move(relisted_);
  relisted_.clear();
}

kube::ReflectorSink<kube::LivePod> PendingPodTrigger::Wrap(
    kube::ReflectorSink<kube::LivePod> sink) {
  kube::ReflectorSink<kube::LivePod> out;
  out.upsert = [this, upsert = sink.upsert](const kube::LivePod& pod) {
    upsert(pod);
    bool saw = false;
    const TimePoint now = clock_->Now();
    {
      MutexLock lock(&mutex_);
      saw = Saw(pod, now);
    }
    if (saw) clock_->Notify();
  };
  out.remove = [this, remove = sink.remove](const kube::LivePod& pod) {
    remove(pod);
    MutexLock lock(&mutex_);
    unschedulable_.erase(pod.uid);
  };
  if (sink.replace) {
    out.replace = [this,
                   replace = sink.replace](std::vector<kube::LivePod> pods) {
      Relisted(pods, /*first=*/true);
      replace(std::move(pods));
      ListComplete();
    };
  }
  if (sink.stage) {
    out.stage = [this, stage = sink.stage](std::vector<kube::LivePod> page,
                                           bool first) {
      Relisted(page, first);
      stage(std::move(page), first);
    };
    out.commit = [this, commit = sink.commit] {
      commit();
      ListComplete();
    };
  }
  return out;
}

void PendingPodTrigger::SawBuffer(const kube::CapacityBuffer& buffer) {
  const TimePoint now = clock_->Now();
  {
    MutexLock lock(&mutex_);
    auto [known, fresh] =
        buffer_generations_.try_emplace(buffer.uid, buffer.generation);
    if (!fresh && known->second == buffer.generation) return;
    known->second = buffer.generation;
    batch_.Add("CapacityBuffer " + buffer.uid + " generation " +
                   std::to_string(buffer.generation),
               now);
  }
  clock_->Notify();
}

kube::ReflectorSink<kube::CapacityBuffer> PendingPodTrigger::WrapBuffers(
    kube::ReflectorSink<kube::CapacityBuffer> sink) {
  kube::ReflectorSink<kube::CapacityBuffer> out = sink;
  out.upsert = [this, upsert = sink.upsert](const kube::CapacityBuffer& b) {
    upsert(b);
    SawBuffer(b);
  };
  out.remove = [this, remove = sink.remove](const kube::CapacityBuffer& b) {
    remove(b);
    MutexLock lock(&mutex_);
    buffer_generations_.erase(b.uid);
  };
  if (sink.stage) {
    out.stage = [this, stage = sink.stage](
                    std::vector<kube::CapacityBuffer> page, bool first) {
      for (const kube::CapacityBuffer& b : page) SawBuffer(b);
      stage(std::move(page), first);
    };
  }
  return out;
}

std::optional<TimePoint> PendingPodTrigger::Due() const {
  MutexLock lock(&mutex_);
  return batch_.Due();
}

size_t PendingPodTrigger::Close() {
  MutexLock lock(&mutex_);
  return batch_.Close().size();
}

}  // namespace propscaler::nodescale
