#include "apiserver/request_counter.h"

#include <algorithm>

#include "apiserver/json_util.h"

namespace propscaler::sim {

int64_t RequestCounts::Count(const std::string& verb_and_path) const {
  auto it = by_request.find(verb_and_path);
  return it == by_request.end() ? 0 : it->second;
}

std::string RequestCounts::ToJson() const {
  std::string json = "{\"total\":" + std::to_string(total) +
                     ",\"watches\":" + std::to_string(watches) +
                     ",\"requests\":{";
  bool first = true;
  for (const auto& [key, count] : by_request) {
    if (!first) json += ',';
    first = false;
    json += QuoteJson(key) + ":" + std::to_string(count);
  }
  return json + "}}";
}

void RequestCounter::Record(const std::string& method, const std::string& path,
                            bool watch) {
  std::string key = (watch ? std::string("WATCH") : method) + " " + path;
  std::lock_guard<std::mutex> lock(mu_);
  // Taken under the lock so the log stays in time order.
  const auto now = std::chrono::steady_clock::now();
  ++counts_.by_request[key];
  ++counts_.total;
  if (watch) ++counts_.watches;
  if (log_.size() == kLogSize) log_.pop_front();
  log_.push_back(LoggedRequest{now, std::move(key)});
}

RequestCounts RequestCounter::Snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return counts_;
}

void RequestCounter::Reset() {
  std::lock_guard<std::mutex> lock(mu_);
  counts_ = RequestCounts();
}

std::vector<LoggedRequest> RequestCounter::LogSince(
    std::chrono::steady_clock::time_point since) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto first = std::partition_point(
      log_.begin(), log_.end(),
      [since](const LoggedRequest& request) { return request.at < since; });
  return std::vector<LoggedRequest>(first, log_.end());
}

}  // namespace propscaler::sim
