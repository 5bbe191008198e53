#include "memcluster/memory_scheduler.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <vector>

#include "apiserver/list_response.h"
#include "apiserver/resources.h"
#include "common/utc_time.h"
#include "kube/wire/pod_decode.h"

namespace propscaler::memcluster {
namespace {

template <typename T, typename Decode>
std::vector<T> ListAll(const sim::ObjectStore& store, const char* plural,
                       Decode decode) {
  sim::ApiResult<std::string> body =
      sim::ServeList(store, {sim::FindResourceType(plural), "", "", ""}, {});
  if (!body.ok()) return {};
  Result<kube::ListPage<T>> page = decode(body.value());
  return page.ok() ? std::move(page->items) : std::vector<T>{};
}

bool Schedulable(const kube::NodeState& node) {
  return node.ready && !node.unschedulable &&
         std::none_of(node.taints.begin(), node.taints.end(),
                      [](const kube::Taint& taint) {
                        return taint.effect !=
                               kube::TaintEffect::kPreferNoSchedule;
                      });
}

bool FitsIn(const kube::Resources& request, const kube::Resources& free) {
  return request.cpu_millis <= free.cpu_millis &&
         request.memory_bytes <= free.memory_bytes && request.pods <= free.pods;
}

// kube-scheduler's LeastAllocated score, unweighted: the mean over cpu and
// memory of what is left after the pod, as a share of allocatable.
double LeftInProportion(const kube::Resources& request,
                        const kube::Resources& free,
                        const kube::Resources& allocatable) {
  auto share = [](int64_t left, int64_t all) {
    return all > 0 ? static_cast<double>(left) / static_cast<double>(all) : 0;
  };
  return (share(free.cpu_millis - request.cpu_millis, allocatable.cpu_millis) +
          share(free.memory_bytes - request.memory_bytes,
                allocatable.memory_bytes)) /
         2;
}

void Take(const kube::Resources& request, kube::Resources* free) {
  free->cpu_millis -= request.cpu_millis;
  free->memory_bytes -= request.memory_bytes;
  free->pods -= request.pods;
}

void PatchPod(sim::ObjectStore& store, const kube::PodState& pod,
              const std::string& patch_json) {
  rapidjson::Document patch;
  patch.Parse(patch_json.c_str());
  store.Patch(*sim::FindResourceType("pods"), pod.namespace_, pod.name, patch);
}

}  // namespace

MemoryScheduler::MemoryScheduler(MemoryCluster* cluster, Duration bind_delay,
                                 Placement placement)
    : placement_(placement), cluster_(cluster), bind_delay_(bind_delay) {
  thread_ = cluster_->clock().StartThread([this] {
    while (!stopping_) {
      Schedule();
      cluster_->clock().WaitFor(std::chrono::seconds(1),
                                [this] { return stopping_.load(); });
    }
  });
}

MemoryScheduler::~MemoryScheduler() {
  stopping_ = true;
  cluster_->clock().Notify();
  thread_.join();
}

void MemoryScheduler::Schedule() {
  std::lock_guard<std::mutex> lock(mutex_);
  ScheduleLocked();
}

void MemoryScheduler::ScheduleLocked() {
  const TimePoint now = cluster_->clock().Now();
  sim::ObjectStore& store = cluster_->store();
  // Nothing changed and no pod waits out its bind delay: a pass would find
  // what the last one did (and lists every pod: hours of virtual time under
  // a sanitizer took a minute).
  const int64_t version = store.resource_version();
  if (version == seen_version_ && fits_since_.empty()) return;
  // Read before the lists: a change made during this pass, this pass's own
  // patches included, makes the next one run.
  seen_version_ = version;
  const std::vector<kube::LiveNode> nodes =
      ListAll<kube::LiveNode>(store, "nodes", &kube::DecodeLiveNodeList);
  const std::vector<kube::LivePod> pods =
      ListAll<kube::LivePod>(store, "pods", &kube::DecodeLivePodList);
  std::map<std::string, kube::Resources> free;
  std::map<std::string, kube::Resources> allocatable;
  for (const kube::LiveNode& node : nodes) {
    if (Schedulable(node.state)) {
      free[node.state.name] = node.state.allocatable;
      allocatable[node.state.name] = node.state.allocatable;
    }
  }
  for (const kube::LivePod& pod : pods) {
    auto it = free.find(pod.state.node_name);
    if (it != free.end()) Take(pod.state.requests, &it->second);
  }
  for (const kube::LivePod& pod : pods) {
    if (!pod.state.node_name.empty()) continue;
    const std::string key = pod.state.Key();
    auto fit = free.end();
    double best = -1;
    for (auto node = free.begin(); node != free.end(); ++node) {
      if (!FitsIn(pod.state.requests, node->second)) continue;
      if (placement_ == Placement::kFirstFit) {
        fit = node;
        break;
      }
      const double score = LeftInProportion(pod.state.requests, node->second,
                                            allocatable.at(node->first));
      if (score > best) {
        best = score;
        fit = node;
      }
    }
    if (fit == free.end()) {
      fits_since_.erase(key);
      if (!pod.unschedulable) {
        PatchPod(store, pod.state,
                 R"({"status":{"conditions":[{"type":"PodScheduled",)"
                 R"("status":"False","reason":"Unschedulable",)"
                 R"("lastTransitionTime":")" +
                     FormatUtc(now, "%Y-%m-%dT%H:%M:%SZ") + R"("}]}})");
      }
      continue;
    }
    const TimePoint since = fits_since_.emplace(key, now).first->second;
    if (now - since < bind_delay_) continue;
    PatchPod(store, pod.state,
             R"({"spec":{"nodeName":")" + fit->first +
                 R"("},"status":{"phase":"Running","conditions":[)"
                 R"({"type":"PodScheduled","status":"True"}]}})");
    Take(pod.state.requests, &fit->second);
    fits_since_.erase(key);
  }
}

}  // namespace propscaler::memcluster
