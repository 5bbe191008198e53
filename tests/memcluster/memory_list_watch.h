// ListWatch over the in-memory cluster: the simulated server's list pages
// and watch streams, decoded by the same codecs as over HTTP. Watches wait on
// the cluster's clock.
#ifndef PROPSCALER_TESTS_MEMCLUSTER_MEMORY_LIST_WATCH_H_
#define PROPSCALER_TESTS_MEMCLUSTER_MEMORY_LIST_WATCH_H_

#include <map>
#include <string>
#include <string_view>

#include "apiserver/list_options.h"
#include "apiserver/list_response.h"
#include "apiserver/resources.h"
#include "apiserver/watch_stream.h"
#include "kube/model/list_watch.h"
#include "memcluster/memory_cluster.h"

namespace propscaler::memcluster {

// `params`: the query parameters every request carries (labelSelector,
// fieldSelector).
template <typename T>
class MemoryListWatch : public kube::ListWatch<T> {
 public:
  MemoryListWatch(MemoryCluster* cluster, sim::ResourcePath path,
                  std::multimap<std::string, std::string> params,
                  kube::ListWatchCodec<T> codec)
      : cluster_(cluster),
        path_(std::move(path)),
        params_(std::move(params)),
        codec_(std::move(codec)) {}

  Result<kube::ListPage<T>> List(const kube::ListCall<T>& call) override {
    if (Status fault = Fault("list"); !fault.ok()) return fault;
    std::multimap<std::string, std::string> params = params_;
    params.emplace("limit", std::to_string(call.limit));
    if (!call.continue_token.empty()) {
      params.emplace("continue", call.continue_token);
    } else if (call.any_version && codec_.decode_list_stream) {
      params.emplace("resourceVersion", "0");
    }
    sim::ApiResult<sim::ListOptions> options = sim::ParseListOptions(params);
    if (!options.ok()) return options.error().ToStatus();
    sim::ApiResult<std::string> body =
        sim::ServeList(cluster_->store(), path_, options.value());
    if (!body.ok()) return body.error().ToStatus();
    return codec_.decode_list(body.value());
  }

  Status Watch(const std::string& resource_version, int timeout_seconds,
               const std::function<bool(Result<kube::WatchEvent<T>>)>& on_event,
               const StopSignal* stop,
               const std::function<void()>& on_open) override {
    if (Status fault = Fault("watch"); !fault.ok()) return fault;
    std::multimap<std::string, std::string> params = params_;
    params.emplace("watch", "1");
    params.emplace("allowWatchBookmarks", "true");
    params.emplace("resourceVersion", resource_version);
    params.emplace("timeoutSeconds", std::to_string(timeout_seconds));
    sim::ApiResult<sim::ListOptions> options = sim::ParseListOptions(params);
    if (!options.ok()) return options.error().ToStatus();
    sim::WatchStream stream(cluster_->store(), path_, options.value(),
                            sim::WatchSettings{}, stop->flag());
    if (on_open) on_open();
    std::string chunk;
    while (stream.Next(&chunk)) {
      std::string_view rest = chunk;
      while (!rest.empty()) {
        const size_t end = rest.find('\n');
        const std::string_view line = rest.substr(0, end);
        if (!line.empty() && !on_event(codec_.decode_event(line))) {
          return Status::Ok();
        }
        if (end == std::string_view::npos) break;
        rest.remove_prefix(end + 1);
      }
      chunk.clear();
    }
    return Status::Ok();
  }

  std::chrono::milliseconds RetryAfterLeft() const override { return {}; }

 private:
  Status Fault(const char* verb) const {
    return cluster_->CheckFault(std::string(verb) + " " + path_.type->plural);
  }

  MemoryCluster* cluster_;
  const sim::ResourcePath path_;
  const std::multimap<std::string, std::string> params_;
  const kube::ListWatchCodec<T> codec_;
};

}  // namespace propscaler::memcluster

#endif  // PROPSCALER_TESTS_MEMCLUSTER_MEMORY_LIST_WATCH_H_
