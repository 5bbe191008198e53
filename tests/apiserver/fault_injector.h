// Fault injection: rules that make the next matching requests fail (or
// answer late), for tests of retries and backoff.
//
// A rule matches by method ("" any; "WATCH" only watch requests, "GET" lists,
// gets and watches) and path prefix; after letting `skip` matching requests
// through, it applies to the next `count` (negative: forever), each first
// waiting `delay`, then failing with `code` and a Status body (code 0: no
// failure, only the delay). With `cut_after_bytes` (and code 0) the request
// is answered normally but the connection is closed after that many bytes of
// the body: a list cut short, a watch dropped mid-event. With `answer_delay`
// (and code 0) the request is carried out at once and only its answer is
// held back that long: a busy server that answers a committed write late,
// while watches already carry it. Rules are tried in the order added.
// Thread-safe.
#ifndef PROPSCALER_TESTS_APISERVER_FAULT_INJECTOR_H_
#define PROPSCALER_TESTS_APISERVER_FAULT_INJECTOR_H_

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "apiserver/api_error.h"

namespace propscaler::sim {

struct FaultRule {
  std::string method;
  std::string path_prefix;
  int code = 503;
  int count = 1;
  std::optional<int> retry_after_seconds;
  std::chrono::milliseconds delay{0};
  int skip = 0;
  std::optional<int> cut_after_bytes;
  std::chrono::milliseconds answer_delay{0};

  // From {"method":"GET","pathPrefix":"/api/v1/nodes","code":503,"count":2,
  // "retryAfterSeconds":1,"delayMs":100,"skip":1,"cutAfterBytes":100,
  // "answerDelayMs":600}; all but pathPrefix optional.
  static ApiResult<FaultRule> FromJson(const std::string& json);
  std::string ToJson() const;
};

// What to do with one request.
struct Fault {
  std::chrono::milliseconds delay{0};
  std::chrono::milliseconds answer_delay{0};
  std::optional<ApiError> error;
  std::optional<int> retry_after_seconds;
  std::optional<int> cut_after_bytes;
};

class FaultInjector {
 public:
  void Add(FaultRule rule);
  void Clear();
  // The rules with their remaining counts.
  std::vector<FaultRule> Rules() const;
  // Consumes one use of the first matching rule (or one of its skips).
  std::optional<Fault> Take(const std::string& method, const std::string& path,
                            bool watch);

 private:
  mutable std::mutex mu_;
  std::vector<FaultRule> rules_;
};

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_FAULT_INJECTOR_H_
