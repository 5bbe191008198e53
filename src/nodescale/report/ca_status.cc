#include "nodescale/report/ca_status.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdio>
#include <sstream>

#include "common/utc_time.h"

namespace propscaler::nodescale {
namespace {

constexpr size_t kMaxErrorMessage = 500;  // as CA cuts backoff messages
constexpr char kTruncated[] = "<truncated>";

// `status` probed at `probe`, keeping the previous transition time while
// the status is the same.
CaCondition Condition(std::string status, std::optional<TimePoint> probe,
                      const CaCondition* previous) {
  CaCondition condition{std::move(status), probe, probe};
  if (previous != nullptr && previous->status == condition.status) {
    condition.last_transition = previous->last_transition;
  }
  return condition;
}

const CaGroupStatus* PreviousGroup(const CaStatus& previous,
                                   const std::string& name) {
  for (const CaGroupStatus& group : previous.groups) {
    if (group.name == name) return &group;
  }
  return nullptr;
}

// Cluster Autoscaler's node group health: the nodes it expects (target,
// less the long-unregistered and those still coming) not Ready beyond the
// unready tolerances; a group with no node is healthy at target 0, or
// while all of its target is still coming.
bool GroupHealthy(const CaGroupInput& group, const NodeHealthConfig& health) {
  const CaNodeCounts& counts = group.counts;
  if (counts.Registered() == 0 && counts.unregistered == 0) {
    return group.target == 0 ||
           group.target - counts.long_unregistered - group.upcoming == 0;
  }
  const ReadinessCounts readiness{counts.ready + counts.suspended,
                                  counts.not_started, counts.unready};
  return !GroupUnhealthy(readiness, group.target - counts.long_unregistered,
                         group.upcoming, health)
              .has_value();
}

std::optional<BackoffReason> Truncated(std::optional<BackoffReason> backoff) {
  if (backoff && backoff->message.size() > kMaxErrorMessage) {
    backoff->message.resize(kMaxErrorMessage - (sizeof(kTruncated) - 1));
    backoff->message += kTruncated;
  }
  return backoff;
}

CaGroupStatus GroupStatusOf(const CaGroupInput& group,
                            const CaStatusInput& input,
                            const CaGroupStatus* previous) {
  const bool has_nodes =
      group.counts.Registered() > 0 || group.counts.unregistered > 0;
  const std::optional<TimePoint> probe =
      has_nodes ? std::optional<TimePoint>(input.now) : std::nullopt;
  const bool healthy = GroupHealthy(group, input.health);
  CaGroupStatus status;
  status.name = group.name;
  status.health = Condition(healthy ? "Healthy" : "Unhealthy", probe,
                            previous ? &previous->health : nullptr);
  status.counts = group.counts;
  status.target = group.target;
  status.min_size = group.min_size;
  status.max_size = group.max_size;
  std::string scale_up = "NoActivity";
  if (group.upcoming > 0) {
    scale_up = "InProgress";
  } else if (!healthy) {
    scale_up = "Unhealthy";
  } else if (group.backoff) {
    scale_up = "Backoff";
    status.backoff = Truncated(group.backoff);
  }
  status.scale_up = Condition(std::move(scale_up), probe,
                              previous ? &previous->scale_up : nullptr);
  status.candidates = group.candidates;
  status.scale_down = Condition(
      group.candidates > 0 ? "CandidatesPresent" : "NoCandidates",
      input.scale_down_probe, previous ? &previous->scale_down : nullptr);
  return status;
}

// A string as a YAML double-quoted scalar: its JSON literal is one.
std::string Quoted(const std::string& text) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string TimeValue(const std::optional<TimePoint>& time) {
  return time ? "\"" + FormatUtc(*time, "%Y-%m-%dT%H:%M:%SZ") + "\"" : "null";
}

class Writer {
 public:
  void Line(int depth, const std::string& key, const std::string& value) {
    out_ << std::string(2 * depth, ' ') << key << ": " << value << "\n";
  }
  void Open(int depth, const std::string& key) {
    out_ << std::string(2 * depth, ' ') << key << ":\n";
  }
  void Item() { out_ << "- "; }
  std::string Text() const { return out_.str(); }

 private:
  std::ostringstream out_;
};

void Times(Writer* w, int depth, const CaCondition& condition) {
  w->Line(depth, "lastProbeTime", TimeValue(condition.last_probe));
  w->Line(depth, "lastTransitionTime", TimeValue(condition.last_transition));
}

void NodeCounts(Writer* w, int depth, const CaNodeCounts& counts) {
  w->Open(depth, "nodeCounts");
  w->Line(depth + 1, "longUnregistered",
          std::to_string(counts.long_unregistered));
  w->Open(depth + 1, "registered");
  const int r = depth + 2;
  if (counts.being_deleted > 0) {
    w->Line(r, "beingDeleted", std::to_string(counts.being_deleted));
  }
  w->Line(r, "notStarted", std::to_string(counts.not_started));
  w->Line(r, "ready", std::to_string(counts.ready));
  w->Line(r, "suspended", std::to_string(counts.suspended));
  w->Line(r, "total", std::to_string(counts.Registered()));
  w->Open(r, "unready");
  w->Line(r + 1, "resourceUnready", std::to_string(counts.resource_unready));
  w->Line(r + 1, "total", std::to_string(counts.unready));
  w->Line(depth + 1, "unregistered", std::to_string(counts.unregistered));
}

void ScaleDown(Writer* w, int depth, const CaCondition& condition,
               int64_t candidates) {
  w->Open(depth, "scaleDown");
  if (candidates > 0) {
    w->Line(depth + 1, "candidates", std::to_string(candidates));
  }
  Times(w, depth + 1, condition);
  w->Line(depth + 1, "status", condition.status);
}

void Group(Writer* w, const CaGroupStatus& group) {
  // The first key follows "- "; the rest align under it.
  w->Item();
  w->Open(0, "health");
  w->Line(2, "cloudProviderTarget", std::to_string(group.target));
  Times(w, 2, group.health);
  w->Line(2, "maxSize", std::to_string(group.max_size));
  w->Line(2, "minSize", std::to_string(group.min_size));
  NodeCounts(w, 2, group.counts);
  w->Line(2, "status", group.health.status);
  w->Line(1, "name", Quoted(group.name));
  ScaleDown(w, 1, group.scale_down, group.candidates);
  w->Open(1, "scaleUp");
  if (group.backoff) {
    w->Open(2, "backoffInfo");
    if (!group.backoff->code.empty()) {
      w->Line(3, "errorCode", Quoted(group.backoff->code));
    }
    if (!group.backoff->message.empty()) {
      w->Line(3, "errorMessage", Quoted(group.backoff->message));
    }
  } else {
    w->Line(2, "backoffInfo", "{}");
  }
  Times(w, 2, group.scale_up);
  w->Line(2, "status", group.scale_up.status);
}

}  // namespace

CaStatus BuildCaStatus(const CaStatusInput& input, const CaStatus& previous) {
  CaStatus status;
  status.time = input.now;
  status.autoscaler_status = "Running";
  status.counts = input.cluster;
  status.health = Condition(input.cluster_healthy ? "Healthy" : "Unhealthy",
                            input.now, &previous.health);
  bool scaling_up = false;
  for (const CaGroupInput& group : input.groups) {
    status.groups.push_back(
        GroupStatusOf(group, input, PreviousGroup(previous, group.name)));
    scaling_up =
        scaling_up || status.groups.back().scale_up.status == "InProgress";
    status.candidates += group.candidates;
  }
  status.scale_up = Condition(scaling_up ? "InProgress" : "NoActivity",
                              input.now, &previous.scale_up);
  status.scale_down =
      Condition(status.candidates > 0 ? "CandidatesPresent" : "NoCandidates",
                input.scale_down_probe, &previous.scale_down);
  return status;
}

std::string RenderCaStatusYaml(const CaStatus& status) {
  Writer w;
  w.Line(0, "autoscalerStatus", status.autoscaler_status);
  w.Open(0, "clusterWide");
  w.Open(1, "health");
  Times(&w, 2, status.health);
  NodeCounts(&w, 2, status.counts);
  w.Line(2, "status", status.health.status);
  ScaleDown(&w, 1, status.scale_down, status.candidates);
  w.Open(1, "scaleUp");
  Times(&w, 2, status.scale_up);
  w.Line(2, "status", status.scale_up.status);
  if (!status.groups.empty()) {
    w.Open(0, "nodeGroups");
    for (const CaGroupStatus& group : status.groups) Group(&w, group);
  }
  w.Line(0, "time", GoTimeString(status.time));
  return w.Text();
}

std::string GoTimeString(TimePoint time) {
  const auto since_epoch = time.time_since_epoch();
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
  int64_t nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      since_epoch - seconds)
                      .count();
  const TimePoint whole(
      std::chrono::duration_cast<TimePoint::duration>(seconds));
  std::string text = FormatUtc(whole, "%Y-%m-%d %H:%M:%S");
  if (nanos > 0) {
    char fraction[16];
    std::snprintf(fraction, sizeof(fraction), ".%09lld",
                  static_cast<long long>(nanos));
    std::string digits(fraction);
    while (digits.back() == '0') digits.pop_back();
    text += digits;
  }
  return text + " +0000 UTC";
}

}  // namespace propscaler::nodescale
