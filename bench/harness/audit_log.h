// kube-apiserver's audit log (--audit-log-path, one JSON Event per line) as
// the record of a client's requests: each event of stage RequestReceived
// becomes a LoggedRequest, "VERB path" as the simulated server counts them
// (get and list as GET, watch as WATCH, update as PUT, ...), timed by the
// server's requestReceivedTimestamp on this machine's steady clock.
//
// The policy (kAuditPolicy) logs only the given users' requests, and only at
// arrival, so the log stays small while a benchmark writes to 65,000 nodes.
#ifndef PROPSCALER_BENCH_HARNESS_AUDIT_LOG_H_
#define PROPSCALER_BENCH_HARNESS_AUDIT_LOG_H_

#include <rapidjson/document.h>

#include <chrono>
#include <string>
#include <vector>

#include "apiserver/request_counter.h"
#include "common/status.h"

namespace propscaler::bench {

// An audit policy logging `users`' requests at arrival, nobody else's.
std::string AuditPolicyYaml(const std::vector<std::string>& users);

// One audit event line as a request; NotFound for events of other stages.
Result<sim::LoggedRequest> ParseAuditEvent(std::string_view line);

// An audit policy logging `users`' writes (create, update, patch, delete)
// in full, request and response, once each has completed; nothing else.
std::string WriteAuditPolicyYaml(const std::vector<std::string>& users);

// A write as WriteAuditPolicyYaml's policy logs it.
struct AuditedWrite {
  std::chrono::steady_clock::time_point at;  // the server's arrival time
  std::string verb;                          // create, update, patch, ...
  std::string path;                          // requestURI without the query
  std::string resource, subresource, name;   // objectRef
  int code = 0;                              // the response's HTTP status
  rapidjson::Document object;  // responseObject; null when there is none
};

// One audit event line as a write; NotFound for events of other stages and
// for reads.
Result<AuditedWrite> ParseAuditedWrite(std::string_view line);

// Every write in the log at `path`, oldest first.
Result<std::vector<AuditedWrite>> ReadAuditedWrites(const std::string& path);

class AuditLog {
 public:
  explicit AuditLog(std::string path) : path_(std::move(path)) {}

  // The requests that arrived at or after `since`, oldest first; reads what
  // the server appended since the last call.
  Result<std::vector<sim::LoggedRequest>> Since(
      std::chrono::steady_clock::time_point since);

 private:
  Status ReadNewLines();

  const std::string path_;
  long offset_ = 0;
  std::vector<sim::LoggedRequest> requests_;
};

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_AUDIT_LOG_H_
