// The bench target's replicas as writes change them: a watch on the
// Deployment kube-system/coredns from the version it has when the watch
// opens, kept by a thread of its own until the watch goes. So a run can tell
// the value of the first scale write, not only when one arrived: a client
// whose first write is wrong (and a second one right) does not pass for
// having scaled at its first write.
#ifndef PROPSCALER_BENCH_HARNESS_REPLICAS_WATCH_H_
#define PROPSCALER_BENCH_HARNESS_REPLICAS_WATCH_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "common/status.h"
#include "transport/http_client.h"

namespace propscaler::bench {

struct ReplicasChange {
  std::chrono::steady_clock::time_point at;  // when the event arrived
  int64_t replicas = 0;
};

class ReplicasWatch {
 public:
  // Watches from the Deployment's current resourceVersion; an error when it
  // cannot be read.
  static Result<std::unique_ptr<ReplicasWatch>> Open(
      const kube::HttpClient& admin);
  ~ReplicasWatch();
  ReplicasWatch(const ReplicasWatch&) = delete;
  ReplicasWatch& operator=(const ReplicasWatch&) = delete;

  // Each event that changed spec.replicas, oldest first.
  std::vector<ReplicasChange> Changes() const;

 private:
  ReplicasWatch(const kube::HttpClient& admin, int64_t replicas,
                std::string version);
  void Run(std::string version);

  const kube::HttpClient& admin_;
  std::atomic<bool> stop_{false};
  mutable std::mutex mutex_;
  int64_t last_ = 0;  // guarded by mutex_
  std::vector<ReplicasChange> changes_;
  std::thread thread_;
};

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_REPLICAS_WATCH_H_
