// The soak's check of every write propscaler made, not only of the state
// between the harness's checks: each write the real server accepted (from
// its audit log) is compared with the independent model's answer at that
// moment. A write may lag a change by the grace (propscaler cannot have
// seen a change made just before it wrote); a write that matches no answer
// the model gave within the grace was computed from a view older than a
// change it should have seen, or was simply wrong. Pure.
#ifndef PROPSCALER_BENCH_CHECKS_WRITE_AUDIT_H_
#define PROPSCALER_BENCH_CHECKS_WRITE_AUDIT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "checks/plan_checks.h"

namespace propscaler::bench {

// The model's answer from `at` (seconds into the run) until the next step;
// `change` is what the harness did to move it there.
struct ModelStep {
  double at = 0;
  int64_t value = 0;
  std::string change;
};

// How a write must relate to the model. Replica and vertical mode set the
// target's value (kSet: equal). Node-scale mode adds or removes one node a
// write: a node created must not take the group past the pods it is for
// (kGrow: value <= model), a node deleted must not leave a pod without one
// (kShrink: value >= model).
enum class WriteKind { kSet, kGrow, kShrink };

// One write the server accepted: the target's value after it (replicas,
// CPU millicores, or the group's nodes), at the server's arrival time.
struct TargetWrite {
  double at = 0;
  int64_t value = 0;
  WriteKind kind = WriteKind::kSet;
  std::string request;  // "PATCH /apis/apps/v1/...", for the report
};

// A time when the server was away or paused; writes from its end until
// `after_outage_grace` past it may lag by that much (propscaler lists again).
struct OutageWindow {
  double from = 0, to = 0;
};

struct WriteAuditLimits {
  double grace = 1;
  double after_outage_grace = 5;
  std::vector<OutageWindow> outages;
};

// One line for each write that matches no answer of the model within its
// grace, naming the write, its value, and the model's answer and change it
// missed; empty when every write holds. `model` is in time order, its first
// step before the first write.
Failures AuditWrites(const std::vector<ModelStep>& model,
                     const std::vector<TargetWrite>& writes,
                     const WriteAuditLimits& limits);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_CHECKS_WRITE_AUDIT_H_
