#include "nodescale/run/pending_pod_trigger.h"

#include <utility>

#include "nodescale/plan/health/live_snapshot.h"

namespace propscaler::nodescale {

bool PendingPodTrigger::Unschedulable(const kube::LivePod& pod) const {
  return kube::IsPending(pod.state) && pod.unschedulable &&
         !IsExpendable(pod.state, expendable_cutoff_);
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
  MutexLock lock(&mutex_);
  if (first) {
    relisted_.clear();
    listed_pods_.clear();
  }
  for (const kube::LivePod& pod : pods) {
    if (!Unschedulable(pod)) continue;
    relisted_.insert(pod.uid);
    if (!unschedulable_.contains(pod.uid)) listed_pods_.push_back(pod.uid);
  }
}

// The list is the whole truth: pods gone meanwhile are forgotten.
void PendingPodTrigger::ListComplete() {
  std::vector<std::string> opening;
  {
    MutexLock lock(&mutex_);
    unschedulable_ = std::move(relisted_);
    relisted_.clear();
    opening.swap(listed_pods_);
  }
  OpenFor(std::move(opening));
}

void PendingPodTrigger::OpenFor(std::vector<std::string> keys) {
  if (keys.empty()) return;
  const TimePoint now = clock_->Now();  // never under mutex_: see the header
  {
    MutexLock lock(&mutex_);
    for (const std::string& key : keys) batch_.Add(key, now);
  }
  clock_->Notify();
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
      {
        MutexLock lock(&mutex_);
        if (first) listed_buffers_.clear();
        listed_buffers_.insert(listed_buffers_.end(), page.begin(), page.end());
      }
      stage(std::move(page), first);
    };
    out.commit = [this, commit = sink.commit] {
      commit();
      std::vector<kube::CapacityBuffer> listed;
      {
        MutexLock lock(&mutex_);
        listed.swap(listed_buffers_);
      }
      for (const kube::CapacityBuffer& b : listed) SawBuffer(b);
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
