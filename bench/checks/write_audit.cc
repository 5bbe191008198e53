#include "checks/write_audit.h"

#include <algorithm>
#include <cstdio>

namespace propscaler::bench {
namespace {

bool Holds(const TargetWrite& write, int64_t model) {
  switch (write.kind) {
    case WriteKind::kSet:
      return write.value == model;
    case WriteKind::kGrow:
      return write.value <= model;
    case WriteKind::kShrink:
      return write.value >= model;
  }
  return false;
}

const char* Relation(WriteKind kind) {
  switch (kind) {
    case WriteKind::kSet:
      return "set";
    case WriteKind::kGrow:
      return "grew";
    case WriteKind::kShrink:
      return "shrank";
  }
  return "?";
}

double GraceAt(double at, const WriteAuditLimits& limits) {
  for (const OutageWindow& outage : limits.outages) {
    if (at >= outage.from && at <= outage.to + limits.after_outage_grace) {
      return limits.after_outage_grace;
    }
  }
  return limits.grace;
}

std::string Seconds(double at) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f s", at);
  return text;
}

}  // namespace

Failures AuditWrites(const std::vector<ModelStep>& model,
                     const std::vector<TargetWrite>& writes,
                     const WriteAuditLimits& limits) {
  Failures failures;
  const auto after = [&](double at) {
    return std::upper_bound(
        model.begin(), model.end(), at,
        [](double t, const ModelStep& step) { return t < step.at; });
  };
  for (const TargetWrite& write : writes) {
    const auto now = after(write.at);
    if (now == model.begin()) {
      failures.push_back(Seconds(write.at) + ": " + write.request +
                         " before the model's first answer");
      continue;
    }
    // The answer the model gave at the start of the grace, and each one
    // since: the views propscaler may have written from.
    auto first = after(write.at - GraceAt(write.at, limits));
    if (first != model.begin()) --first;
    if (std::any_of(first, now, [&](const ModelStep& step) {
          return Holds(write, step.value);
        })) {
      continue;
    }
    const ModelStep& missed = *std::prev(now);
    failures.push_back(Seconds(write.at) + ": " + write.request + " " +
                       Relation(write.kind) + " the target to " +
                       std::to_string(write.value) + " where the model says " +
                       std::to_string(missed.value) + " since " +
                       Seconds(missed.at) + " (" + missed.change + ")");
  }
  return failures;
}

}  // namespace propscaler::bench
