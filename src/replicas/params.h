// Replica-mode parameters: the "linear" and "ladder" control patterns of
// cluster-proportional-autoscaler, parsed from a ConfigMap's data or from the
// --default-params flag.
//
// Pure: takes strings, returns values or a Status whose message names the
// field and the bad value. Accepts exactly what CPA accepts.
#ifndef PROPSCALER_REPLICAS_PARAMS_H_
#define PROPSCALER_REPLICAS_PARAMS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "common/status.h"

namespace propscaler {

// The optional "scaleDown" object of either pattern, a propscaler extension
// that CPA ignores as an unknown field: replicas go up at once, and down only
// to the highest count computed in the last `stabilization_seconds`, by at
// most `max_step_percent` of the current replicas (rounded up, at least 1)
// per `period_seconds`. The defaults apply to fields absent from a present
// object. See replicas/scale_down_smoothing.h.
struct ScaleDownPolicy {
  static constexpr int64_t kMaxSeconds = 86400;

  int64_t stabilization_seconds = 300;  // 0 to kMaxSeconds
  int64_t max_step_percent = 100;       // 1 to 100
  int64_t period_seconds = 60;          // 0 to kMaxSeconds

  bool operator==(const ScaleDownPolicy&) const = default;
};

struct LinearParams {
  double cores_per_replica = 0;
  double nodes_per_replica = 0;
  // A propscaler extension (CPA ignores it): replicas per Running or
  // Pending pod matching --pod-selector; absent: pods are not counted.
  std::optional<double> pods_per_replica;
  int64_t min = 0;  // 0 or absent means 1
  int64_t max = 0;  // 0 means no maximum
  bool prevent_single_point_failure = false;
  bool include_unschedulable_nodes = false;
  std::optional<ScaleDownPolicy> scale_down = std::nullopt;  // absent: as CPA

  bool operator==(const LinearParams&) const = default;
};

// One step of a ladder: at `threshold` or more, `replicas`.
struct LadderStep {
  int64_t threshold = 0;
  int64_t replicas = 0;
  bool operator==(const LadderStep&) const = default;
};

struct LadderParams {
  std::vector<LadderStep> cores_to_replicas;  // sorted by threshold
  std::vector<LadderStep> nodes_to_replicas;  // sorted by threshold
  std::vector<LadderStep> pods_to_replicas;   // propscaler's; sorted
  bool include_unschedulable_nodes = false;
  std::optional<ScaleDownPolicy> scale_down = std::nullopt;  // absent: as CPA

  bool operator==(const LadderParams&) const = default;
};

using Params = std::variant<LinearParams, LadderParams>;

// Parses a ConfigMap's data: exactly one key, "linear" or "ladder", whose
// value is a JSON object. Validates as CPA does.
Result<Params> ParseParams(const std::map<std::string, std::string>& data);

// Parses one pattern's JSON object text.
Result<LinearParams> ParseLinearParams(const std::string& json);
Result<LadderParams> ParseLadderParams(const std::string& json);

// Turns the --default-params flag value, a JSON object such as
// {"linear":{"coresPerReplica":256}}, into ConfigMap data: each top-level
// value serialized compactly as a JSON string under its key. Also validates
// the result with ParseParams, so a bad flag is an error at start-up.
Result<std::map<std::string, std::string>> DefaultParamsToData(
    const std::string& flag_json);

// "linear" or "ladder".
std::string ParamsMode(const Params& params);

// Whether the params count pods (podsPerReplica, podsToReplicas), which
// needs --pod-selector.
bool UsesPods(const Params& params);

// Whether the params count unschedulable nodes and their cores
// (includeUnschedulableNodes).
bool IncludesUnschedulable(const Params& params);

// The scaleDown policy of either pattern; absent when not configured.
const std::optional<ScaleDownPolicy>& ScaleDownOf(const Params& params);

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_PARAMS_H_
