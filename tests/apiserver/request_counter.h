// Counts API requests by "VERB path" (the path without its query): lists and
// gets as "GET /api/v1/nodes", watches separately as "WATCH /api/v1/nodes".
// Also keeps the most recent requests with their arrival times, so
// benchmarks can time a client's reaction from the server's side.
// Thread-safe.
#ifndef PROPSCALER_TESTS_APISERVER_REQUEST_COUNTER_H_
#define PROPSCALER_TESTS_APISERVER_REQUEST_COUNTER_H_

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace propscaler::sim {

struct RequestCounts {
  std::map<std::string, int64_t> by_request;  // "GET /api/v1/nodes" -> 3
  int64_t total = 0;
  int64_t watches = 0;

  // 0 when never seen.
  int64_t Count(const std::string& verb_and_path) const;
  // {"total":N,"watches":N,"requests":{"GET /api/v1/nodes":3,...}}
  std::string ToJson() const;
};

// One request as it arrived, before routing.
struct LoggedRequest {
  std::chrono::steady_clock::time_point at;
  std::string verb_and_path;  // as counted: "PATCH /apis/..."
};

class RequestCounter {
 public:
  static constexpr size_t kLogSize = 4096;

  void Record(const std::string& method, const std::string& path, bool watch);
  RequestCounts Snapshot() const;
  void Reset();
  // The logged requests (the newest kLogSize) that arrived at or after
  // `since`, oldest first.
  std::vector<LoggedRequest> LogSince(
      std::chrono::steady_clock::time_point since) const;

 private:
  mutable std::mutex mu_;
  RequestCounts counts_;
  std::deque<LoggedRequest> log_;
};

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_REQUEST_COUNTER_H_
