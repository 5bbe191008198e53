#include "replicas/autoscaler.h"

#include <glog/logging.h>

#include <limits>
#include <sstream>
#include <thread>

#include "cluster/node_store_sink.h"
#include "common/sync_failure_limit.h"
#include "kube/reflector.h"
#include "replicas/arithmetic.h"

namespace propscaler {
namespace {

// Cycles started by watch events are at least this far apart: the rest of
// a burst (a rolling node pool) is taken together by the next cycle.
constexpr auto kCoalesceWindow = std::chrono::milliseconds(250);
// A change after a quiet spell waits this long for the rest of its moment:
// a node registers and reports Ready a few milliseconds later, one cycle
// for both instead of one now and one a coalescing window later.
constexpr auto kSettleDelay = std::chrono::milliseconds(20);

ConfigMapContent ContentOf(const kube::ConfigMap& config_map) {
  ConfigMapContent content{config_map.data, std::nullopt};
  auto it = config_map.annotations.find(kDefaultParamsHashAnnotation);
  if (it != config_map.annotations.end()) content.written_hash = it->second;
  return content;
}

// Scale.spec.replicas is an int32.
int64_t ClampToInt32(int64_t replicas) {
  return std::min<int64_t>(replicas, std::numeric_limits<int32_t>::max());
}

// The failures among `statuses` in one Status (OK when there are none),
// with the first failure's code.
Status JoinErrors(const std::vector<Status>& statuses) {
  Status joined;
  std::string message;
  for (const Status& status : statuses) {
    if (status.ok()) continue;
    if (joined.ok()) joined = status;
    if (!message.empty()) message += "; ";
    message += status.message();
  }
  return joined.ok() ? joined : Status(joined.code(), message);
}

}  // namespace

ReplicaAutoscaler::ReplicaAutoscaler(
    const kube::Client* client, const Clock* clock, AutoscalerOptions options,
    HealthState* health, kube::EventRecorder* events, ReplicaStatusBoard* board)
    : client_(client),
      clock_(clock),
      options_(std::move(options)),
      health_(health),
      reporter_(clock, options_.dry_run ? nullptr : events, board,
                options_.namespace_, options_.configmap),
      hpa_check_(client, options_.namespace_, options_.targets),
      scale_writer_(client),
      target_scales_(
          client, options_.namespace_, options_.targets,
          [this](const std::string& cause) { NotifyChange(cause); }) {}

std::string ReplicaAutoscaler::ConfigMapRef() const {
  return "configmap " + options_.namespace_ + "/" + options_.configmap;
}

void ReplicaAutoscaler::NotifyChange(const std::string& cause) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (pending_cause_.find(cause) == std::string::npos) {
      pending_cause_ +=
          pending_cause_.empty() ? cause : std::string(", ") + cause;
    }
    changed_ = true;
  }
  clock_->Notify();
}

bool ReplicaAutoscaler::StoreConfigMap(
    std::optional<kube::ConfigMap> config_map) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string before =
      config_map_ ? config_map_->resource_version : "(absent)";
  const std::string after =
      config_map ? config_map->resource_version : "(absent)";
  const bool changed = before != after || !config_map_synced_;
  config_map_ = std::move(config_map);
  config_map_synced_ = true;
  return changed;
}

void ReplicaAutoscaler::SetConfigMap(
    std::optional<kube::ConfigMap> config_map) {
  if (StoreConfigMap(std::move(config_map))) NotifyChange("params changed");
}

Status ReplicaAutoscaler::PollConfigMap() {
  Result<kube::ConfigMap> config_map =
      client_->GetConfigMap(options_.namespace_, options_.configmap);
  if (config_map.ok()) {
    StoreConfigMap(*config_map);
  } else if (config_map.status().code() == StatusCode::kNotFound) {
    StoreConfigMap(std::nullopt);
  } else {
    return config_map.status().WithContext("reading " + ConfigMapRef());
  }
  return Status::Ok();
}

void ReplicaAutoscaler::FallBackToPollingConfigMap(const Status& refused) {
  LOG_IF(WARNING, !config_map_poll_logged_)
      << refused.message() << "; reading " << ConfigMapRef()
      << " with a GET every cycle (every --poll-period-seconds) instead, "
         "and trying to watch it again every "
      << std::chrono::duration_cast<std::chrono::minutes>(
             kube::Reflector<kube::ConfigMap>::kForbiddenRetryPeriod)
             .count()
      << " minutes. Grant list and watch on it to react to edits within a "
         "second";
  config_map_poll_logged_ = true;
  config_map_polled_ = true;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    config_map_synced_ = true;
  }
  NotifyChange("params polled");
}

Status ReplicaAutoscaler::ApplyDefaultParams(
    std::optional<kube::ConfigMap>* current) {
  const ConfigMapData& defaults = *options_.default_params;
  std::optional<ConfigMapContent> content;
  if (current->has_value()) content = ContentOf(**current);
  const DefaultParamsAction action = DecideDefaultParams(content, defaults);
  if (action != DefaultParamsAction::kKeepEdited) warned_edited_ = false;
  if (action == DefaultParamsAction::kNone) return Status::Ok();
  if (action == DefaultParamsAction::kKeepEdited) {
    LOG_IF(INFO, !warned_edited_)
        << ConfigMapRef()
        << " was edited and differs from --default-params; leaving it as is";
    warned_edited_ = true;
    return Status::Ok();
  }
  kube::ConfigMap desired;
  if (current->has_value()) desired = **current;
  desired.name = options_.configmap;
  desired.namespace_ = options_.namespace_;
  desired.data = defaults;
  desired.annotations[kDefaultParamsHashAnnotation] =
      HashConfigMapData(defaults);
  const bool create = action == DefaultParamsAction::kCreate;
  if (options_.dry_run) {
    LOG(INFO) << "dry run: would " << (create ? "create " : "update ")
              << ConfigMapRef() << " from --default-params";
    *current = desired;
    return Status::Ok();
  }
  Result<kube::ConfigMap> written = create ? client_->CreateConfigMap(desired)
                                           : client_->UpdateConfigMap(desired);
  if (!written.ok() && !create &&
      written.status().code() == StatusCode::kPermissionDenied) {
    LOG_IF(WARNING, !warned_update_forbidden_)
        << "cannot update " << ConfigMapRef()
        << " to the new --default-params (" << written.status().message()
        << "); applying it as it is (grant update on it to keep it current)";
    warned_update_forbidden_ = true;
    return Status::Ok();
  }
  if (!written.ok()) {
    if (written.status().code() == StatusCode::kConflict) {
      // Someone else wrote it meanwhile: the watch brings their version.
      written = client_->GetConfigMap(options_.namespace_, options_.configmap);
    }
    if (!written.ok()) {
      return written.status().WithContext((create ? "creating " : "updating ") +
                                          ConfigMapRef());
    }
  } else {
    LOG(INFO) << (create ? "created " : "updated ") << ConfigMapRef()
              << " from --default-params";
  }
  *current = *written;
  SetConfigMap(*written);
  return Status::Ok();
}

Result<Params> ReplicaAutoscaler::CurrentParams() {
  std::optional<kube::ConfigMap> current;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    current = config_map_;
  }
  Status status;
  if (options_.default_params.has_value()) {
    status = ApplyDefaultParams(&current);
  }
  if (status.ok() && !current.has_value()) {
    status = Status::NotFound(ConfigMapRef() +
                              " not found and --default-params is not set");
  }
  if (status.ok()) {
    Result<Params> params = ParseParams(current->data);
    if (params.ok()) {
      reporter_.ParamsAccepted(
          current->data,
          !last_valid_params_.has_value() || !(*last_valid_params_ == *params));
      last_valid_params_ = *params;
      last_params_error_.clear();
      return params;
    }
    status = params.status().WithContext("invalid params in " + ConfigMapRef());
    reporter_.ParamsRejected(current->data, status.message());
  }
  if (status.message() != last_params_error_) {
    LOG(ERROR) << status.message()
               << (last_valid_params_ ? "; keeping the last valid params"
                                      : "; not scaling until params are valid");
    last_params_error_ = status.message();
  }
  return status;
}

int64_t ReplicaAutoscaler::SmoothedDesired(const kube::ScaleTarget& target,
                                           const ScaleDownPolicy& policy,
                                           TimePoint now, int64_t current,
                                           int64_t computed) {
  TargetSmoothing& state = smoothing_[target.ToString()];
  SmoothedReplicas smoothed =
      SmoothScaleDown(policy, std::move(state.history), now, current, computed);
  state.history = std::move(smoothed.history);
  if (!smoothed.held_back.empty() && smoothed.held_back != state.logged) {
    LOG(INFO) << "scaleDown policy for " << target.ToString() << ": "
              << smoothed.held_back;
  }
  state.logged = std::move(smoothed.held_back);
  return smoothed.replicas;
}

Status ReplicaAutoscaler::ScaleOne(
    const kube::ScaleTarget& target, int64_t computed,
    const ClusterCounts& counts,
    const std::optional<ScaleDownPolicy>& scale_down, TimePoint now) {
  const std::string ref =
      target.ToString() + " in namespace " + options_.namespace_;
  Result<kube::Scale> scale = target_scales_.Read(target);
  if (!scale.ok()) return scale.status().WithContext("reading scale of " + ref);
  const int64_t desired = scale_down.has_value()
                              ? SmoothedDesired(target, *scale_down, now,
                                                scale->spec_replicas, computed)
                              : computed;
  // A 409 means someone wrote the scale between our read and our write:
  // read it again and re-apply, a few times.
  constexpr int kAttempts = 3;
  Status status;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    reporter_.TargetRead(target, scale->spec_replicas, desired);
    if (scale->spec_replicas == desired) return Status::Ok();
    status = WriteScale(target, *scale, desired, counts);
    if (status.code() != StatusCode::kConflict || attempt == kAttempts) break;
    VLOG(1) << "scale of " << ref << " changed meanwhile; reading it again";
    scale = client_->GetScale(options_.namespace_, target);
    if (!scale.ok()) {
      return scale.status().WithContext("reading scale of " + ref);
    }
  }
  return status.WithContext("scaling " + ref);
}

Status ReplicaAutoscaler::WriteScale(const kube::ScaleTarget& target,
                                     const kube::Scale& read, int64_t desired,
                                     const ClusterCounts& counts) {
  LOG(INFO) << (options_.dry_run ? "dry run: would scale " : "scaling ")
            << target.ToString() << " from " << read.spec_replicas << " to "
            << desired << " replicas (" << DescribeCounts(counts) << ")";
  if (options_.dry_run) return Status::Ok();
  Result<kube::Scale> written =
      scale_writer_.Write(options_.namespace_, target, read, desired);
  if (!written.ok()) return written.status();
  target_scales_.Wrote(target, *written);
  reporter_.Scaled(target, read.spec_replicas, desired, counts,
                   cycle_cause_ == "poll period"
                       ? "re-asserted at the poll period"
                       : cycle_cause_);
  return Status::Ok();
}

Status ReplicaAutoscaler::RunCycle(TimePoint now) {
  // Without a fresh read the last one applies; the failure is reported.
  const Status polled = config_map_polled_ ? PollConfigMap() : Status::Ok();
  LOG_IF(WARNING, !polled.ok()) << polled.message();
  return JoinErrors({polled, RunCycleWithCurrentParams(now)});
}

Status ReplicaAutoscaler::RunCycleWithCurrentParams(TimePoint now) {
  Result<Params> params = CurrentParams();
  if (!params.ok() && !last_valid_params_.has_value()) return params.status();
  const Params& in_force = params.ok() ? *params : *last_valid_params_;
  const ClusterCounts counts = nodes_.Counts();
  reporter_.Counts(counts);
  const int64_t desired = ClampToInt32(DesiredReplicas(in_force, counts));
  const std::optional<ScaleDownPolicy>& scale_down = ScaleDownOf(in_force);
  // Without a policy nothing is held back; a policy added later starts afresh.
  if (!scale_down.has_value()) smoothing_.clear();
  VLOG(1) << "cycle: " << DescribeCounts(counts) << " -> " << desired
          << " replicas";
  std::vector<Status> errors;
  if (!params.ok()) errors.push_back(params.status());
  for (const kube::ScaleTarget& target : options_.targets) {
    Status status = ScaleOne(target, desired, counts, scale_down, now);
    if (!status.ok()) {
      LOG(WARNING) << status.message();
      reporter_.TargetFailed(target, status.message());
      errors.push_back(status);
    }
  }
  return JoinErrors(errors);
}

void ReplicaAutoscaler::WaitForNextCycle(StopSignal* stop) {
  health_->Heartbeat();
  stop->WaitUntil(clock_->Now() + options_.poll_period,
                  [this] { return changed_.load(); });
  const Duration since_last = clock_->Now() - last_cycle_start_;
  // The first cycle, on the first complete lists, runs at once.
  const bool cycled_before = last_cycle_start_ != TimePoint{};
  if (changed_ && cycled_before) {
    stop->WaitFor(
        std::max<Duration>(kSettleDelay, kCoalesceWindow - since_last));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  cycle_cause_ = changed_ ? pending_cause_ : "poll period";
  changed_ = false;
  pending_cause_.clear();
}

Status ReplicaAutoscaler::TimedCycle() {
  const TimePoint start = clock_->Now();
  last_cycle_start_ = start;
  for (const HpaConflict& conflict : hpa_check_.CheckIfDue(start)) {
    reporter_.HpaConflictFound(conflict);
  }
  Status status = RunCycle(start);
  reporter_.CycleFinished(status, clock_->Now() - start);
  return status;
}

kube::Reflector<kube::NodeInfo> ReplicaAutoscaler::NodeReflector(
    kube::ReflectorSink<kube::NodeInfo> sink) const {
  return kube::Reflector<kube::NodeInfo>(
      client_->CountedNodes(options_.node_selector, options_.excluded_taints,
                            kube::CountedCpu::kAllocatable),
      std::move(sink), "nodes");
}

int ReplicaAutoscaler::Run(StopSignal* stop) {
  kube::Reflector<kube::NodeInfo> node_reflector = NodeReflector(NodeStoreSink(
      &nodes_, [this] { NotifyChange("nodes changed"); },
      [this] {
        {
          std::lock_guard<std::mutex> lock(mutex_);
          nodes_synced_ = true;
        }
        NotifyChange("nodes listed");
      }));
  kube::Reflector<kube::ConfigMap> config_map_reflector(
      client_->ConfigMapNamed(options_.namespace_, options_.configmap),
      {[this](std::vector<kube::ConfigMap> items) {
         config_map_polled_ = false;  // watched (again)
         std::optional<kube::ConfigMap> found;
         for (auto& item : items) {
           if (item.name == options_.configmap) found = std::move(item);
         }
         SetConfigMap(std::move(found));
       },
       [this](const kube::ConfigMap& item) { SetConfigMap(item); },
       [this](const kube::ConfigMap&) { SetConfigMap(std::nullopt); }},
      ConfigMapRef());

  std::thread node_thread =
      clock_->StartThread([&] { node_reflector.Run(stop); });
  std::thread config_map_thread = clock_->StartThread([&] {
    config_map_reflector.RunRetryingWhenForbidden(
        stop, [this](const Status& refused) {
          FallBackToPollingConfigMap(refused);
          return true;
        });
  });
  target_scales_.Start(clock_, stop);
  hpa_check_.Start(clock_, stop);

  int exit_code = 0;
  SyncFailureLimit failures(options_.max_sync_failures);
  WaitForNextCycle(stop);
  while (!stop->stopped()) {
    health_->Heartbeat();
    bool synced;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      synced = nodes_synced_ && config_map_synced_;
    }
    Status status = synced ? TimedCycle()
                           : Status::Unavailable(
                                 "waiting for the first list of nodes "
                                 "and of " +
                                 ConfigMapRef());
    // While a reflector cannot reach the server its counts may be stale: the
    // cycle holds the last known replicas, and reports the failure.
    status = JoinErrors(
        {status, node_reflector.LastError(),
         config_map_polled_ ? Status::Ok() : config_map_reflector.LastError()});
    health_->CycleFinished(status);
    if (failures.Reached(status)) {
      exit_code = 1;
      break;
    }
    WaitForNextCycle(stop);
  }
  stop->Stop();
  node_thread.join();
  config_map_thread.join();
  target_scales_.Join();
  hpa_check_.Join();
  return exit_code;
}

Status ReplicaAutoscaler::RunOnce() {
  kube::Reflector<kube::NodeInfo> node_reflector =
      NodeReflector({[this](std::vector<kube::NodeInfo> nodes) {
                       nodes_.Replace(std::move(nodes));
                     },
                     nullptr, nullptr});
  if (Status status = node_reflector.ListOnce(); !status.ok()) return status;
  if (Status status = PollConfigMap(); !status.ok()) return status;
  cycle_cause_ = "--once";
  return TimedCycle();
}

}  // namespace propscaler
