#include "replicas/autoscaler.h"

#include <glog/logging.h>

#include <limits>
#include <set>
#include <sstream>

#include "cluster/node_store_sink.h"
#include "replicas/arithmetic.h"

namespace propscaler {
namespace {

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

using runtime::CycleDriver;

}  // namespace

ReplicaAutoscaler::ReplicaAutoscaler(Clients api, const Clock* clock,
                                     AutoscalerOptions options,
                                     ReplicaWatches* watches,
                                     runtime::CycleDriver* driver,
                                     ReplicaReporter* reporter)
    : api_(api),
      clock_(clock),
      options_(std::move(options)),
      watches_(watches),
      driver_(driver),
      reporter_(reporter),
      scale_writer_(api.scales),
      update_refusal_(clock, "applying " + ConfigMapRef() +
                                 " as it is (grant update on it to keep it "
                                 "current with --default-params)") {
  if (!options_.hpa_floor.has_value()) return;
  const AutoscalerOptions::HpaFloor& floor = *options_.hpa_floor;
  floor_writer_.emplace(
      api_.hpas, reporter_,
      HpaFloorWriter::Options{
          .namespace_ = options_.namespace_,
          .version = floor.version,
          .flag = floor.automatic ? "--hpa-floor-auto" : "--hpa-floor",
          .dry_run = options_.dry_run,
          .may_act = options_.may_act},
      [watches, automatic = floor.automatic](const kube::HpaRef& written) {
        if (automatic) {
          watches->hpa_check.Wrote(written);
        } else {
          watches->hpa_floor->Wrote(written);
        }
      });
}

std::string ReplicaAutoscaler::ConfigMapRef() const {
  return "configmap " + options_.namespace_ + "/" + options_.configmap;
}

std::optional<kube::ConfigMap> ReplicaAutoscaler::ReadConfigMap(Status* error) {
  Result<kube::ConfigMap> read = watches_->config_map->Read();
  if (read.ok()) return *read;
  if (read.status().code() == StatusCode::kNotFound) return std::nullopt;
  // Without a fresh read the last one applies; the failure is reported.
  *error = read.status().WithContext("reading " + ConfigMapRef());
  LOG(WARNING) << error->message();
  return watches_->config_map->Cached();
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
  if (Status leading = runtime::CheckStillLeading(
          options_.may_act, (create ? "creating " : "updating ") +
                                ConfigMapRef() + " from --default-params");
      !leading.ok()) {
    return leading;
  }
  if (options_.dry_run) {
    LOG(INFO) << "dry run: would " << (create ? "create " : "update ")
              << ConfigMapRef() << " from --default-params";
    *current = desired;
    return Status::Ok();
  }
  if (!create && update_refusal_.Holding()) return Status::Ok();
  Result<kube::ConfigMap> written =
      create ? api_.config_maps->CreateConfigMap(desired)
             : update_refusal_.Note(api_.config_maps->UpdateConfigMap(desired));
  if (!written.ok() && !create &&
      written.status().code() == StatusCode::kPermissionDenied) {
    return Status::Ok();
  }
  if (!written.ok()) {
    if (written.status().code() == StatusCode::kConflict) {
      // Someone else wrote it meanwhile: the watch brings their version.
      written = watches_->config_map->ReadFresh();
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
  watches_->config_map->Wrote(*written);
  return Status::Ok();
}

Result<Params> ReplicaAutoscaler::CurrentParams(
    std::optional<kube::ConfigMap> current) {
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
      reporter_->ParamsAccepted(
          current->data,
          !last_valid_params_.has_value() || !(*last_valid_params_ == *params));
      last_valid_params_ = *params;
      last_params_error_.clear();
      return params;
    }
    status = params.status().WithContext("invalid params in " + ConfigMapRef());
    reporter_->ParamsRejected(current->data, status.message());
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
  Result<kube::Scale> scale = watches_->target_scales.Read(target);
  if (scale.status().code() == StatusCode::kPermissionDenied) {
    return ScaleBlind(target, scale.status(), computed, counts)
        .WithContext("scaling " + ref);
  }
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
    reporter_->TargetRead(target, scale->spec_replicas, desired);
    if (scale->spec_replicas == desired) return Status::Ok();
    status = WriteScale(target, *scale, desired, counts);
    if (status.code() != StatusCode::kConflict || attempt == kAttempts) break;
    VLOG(1) << "scale of " << ref << " changed meanwhile; reading it again";
    scale = watches_->target_scales.ReadFresh(target);
    if (!scale.ok()) {
      return scale.status().WithContext("reading scale of " + ref);
    }
  }
  return status.WithContext("scaling " + ref);
}

Result<FloorPlan> ReplicaAutoscaler::PlanFloors(
    const std::vector<kube::ScaleTarget>& targets) {
  const AutoscalerOptions::HpaFloor& floor = *options_.hpa_floor;
  if (floor.automatic) {
    std::optional<std::vector<kube::HpaRef>> hpas =
        watches_->hpa_check.Watched();
    if (!hpas.has_value()) {
      return Status::Unavailable(
          "--hpa-floor-auto: the horizontalpodautoscalers in namespace " +
          options_.namespace_ +
          " are not watched (yet); the replicas are left as they are (grant "
          "list and watch on them)");
    }
    return PlanAutoFloors(*hpas, targets);
  }
  const std::string ref = floor_writer_->Ref(floor.name);
  Result<kube::HpaRef> hpa = watches_->hpa_floor->Read();
  if (hpa.status().code() == StatusCode::kNotFound) {
    return Status::NotFound(ref +
                            " not found; the replicas are left as they are: "
                            "create it, or drop --hpa-floor");
  }
  if (!hpa.ok()) return hpa.status().WithContext("reading " + ref);
  return PlanNamedFloor(*hpa, targets, ref);
}

Status ReplicaAutoscaler::SetFloor(
    const kube::ScaleTarget& target, const kube::HpaRef& hpa, int64_t computed,
    const ClusterCounts& counts,
    const std::optional<ScaleDownPolicy>& scale_down, TimePoint now) {
  const int64_t desired = scale_down.has_value()
                              ? SmoothedDesired(target, *scale_down, now,
                                                hpa.min_replicas, computed)
                              : computed;
  return floor_writer_->Write(target, hpa, desired, counts,
                              cycle_cause_ == "poll period"
                                  ? "re-asserted at the poll period"
                                  : cycle_cause_);
}

Status ReplicaAutoscaler::ScaleBlind(const kube::ScaleTarget& target,
                                     const Status& refused, int64_t desired,
                                     const ClusterCounts& counts) {
  const std::string key = target.ToString();
  auto last = blind_written_.find(key);
  if (last != blind_written_.end() && last->second == desired) {
    return Status::Ok();
  }
  LOG_IF(WARNING, last == blind_written_.end())
      << refused.message() << "; writing the replicas of " << key
      << " without reading them, whenever the desired count changes (grant "
         "get on its scale subresource to compare first)";
  kube::Scale unread{.name = target.name};  // no resourceVersion: unconditional
  Status status = WriteScale(target, unread, desired, counts);
  if (status.ok()) blind_written_[key] = desired;
  return status;
}

Status ReplicaAutoscaler::WriteScale(const kube::ScaleTarget& target,
                                     const kube::Scale& read, int64_t desired,
                                     const ClusterCounts& counts) {
  LOG(INFO) << (options_.dry_run ? "dry run: would scale " : "scaling ")
            << target.ToString() << " from "
            << (read.resource_version.empty()
                    ? std::string("(unread)")
                    : std::to_string(read.spec_replicas))
            << " to " << desired << " replicas (" << DescribeCounts(counts)
            << ")";
  if (options_.dry_run) return Status::Ok();
  if (Status leading = runtime::CheckStillLeading(
          options_.may_act, "scaling " + target.ToString());
      !leading.ok()) {
    return leading;
  }
  Result<kube::Scale> written =
      scale_writer_.Write(options_.namespace_, target, read, desired);
  if (!written.ok()) return written.status();
  watches_->target_scales.Wrote(target, *written);
  reporter_->Scaled(target, read.spec_replicas, desired, counts,
                    cycle_cause_ == "poll period"
                        ? "re-asserted at the poll period"
                        : cycle_cause_);
  return Status::Ok();
}

Status ReplicaAutoscaler::RunCycle(TimePoint now) {
  Status read_error;
  std::optional<kube::ConfigMap> config_map = ReadConfigMap(&read_error);
  Result<Params> params = CurrentParams(std::move(config_map));
  if (!params.ok() && !last_valid_params_.has_value()) {
    return CycleDriver::JoinErrors({read_error, params.status()});
  }
  const Params& in_force = params.ok() ? *params : *last_valid_params_;
  if (UsesPods(in_force) && watches_->pods == nullptr) {
    // Counting no pods would scale the targets down to their minimum.
    return CycleDriver::JoinErrors(
        {read_error,
         Status::Invalid(ConfigMapRef() +
                         ": the params count pods (podsPerReplica or "
                         "podsToReplicas), which needs --pod-selector, e.g. "
                         "--pod-selector=app=web; the replicas are left as "
                         "they are")});
  }
  ClusterCounts counts = watches_->nodes.Counts();
  if (watches_->pods != nullptr) counts.pods = watches_->pods->Count();
  reporter_->Counts(counts);
  const int64_t desired = ClampToInt32(DesiredReplicas(in_force, counts));
  const std::optional<ScaleDownPolicy>& scale_down = ScaleDownOf(in_force);
  // Without a policy nothing is held back; a policy added later starts afresh.
  if (!scale_down.has_value()) smoothing_.clear();
  VLOG(1) << "cycle: " << DescribeCounts(counts) << " -> " << desired
          << " replicas";
  std::vector<Status> errors = {read_error};
  if (!params.ok()) errors.push_back(params.status());
  const std::vector<kube::ScaleTarget> targets =
      watches_->target_scales.Targets();
  TrackTargets(targets);
  FloorPlan floors;
  if (options_.hpa_floor.has_value()) {
    Result<FloorPlan> plan = PlanFloors(targets);
    if (!plan.ok()) {
      // Which target an HPA should floor is unknown: nothing is written.
      errors.push_back(plan.status());
      return CycleDriver::JoinErrors(errors);
    }
    floors = std::move(plan).value();
  }
  for (const kube::ScaleTarget& target : targets) {
    const std::string key = target.ToString();
    Status status;
    if (auto refused = floors.refused.find(key);
        refused != floors.refused.end()) {
      status = Status::Invalid(refused->second);
    } else if (auto floor = floors.floors.find(key);
               floor != floors.floors.end()) {
      status =
          SetFloor(target, floor->second, desired, counts, scale_down, now);
    } else {
      status = ScaleOne(target, desired, counts, scale_down, now);
    }
    if (!status.ok()) {
      LOG(WARNING) << status.message();
      reporter_->TargetFailed(target, status.message());
      errors.push_back(status);
    }
  }
  return CycleDriver::JoinErrors(errors);
}

void ReplicaAutoscaler::TrackTargets(
    const std::vector<kube::ScaleTarget>& targets) {
  std::set<std::string> current;
  for (const kube::ScaleTarget& target : targets) {
    current.insert(target.ToString());
  }
  if (current == known_targets_) return;
  if (options_.target_selector.has_value()) {
    for (const std::string& target : current) {
      LOG_IF(INFO, known_targets_.count(target) == 0)
          << "scaling " << target << " in namespace " << options_.namespace_
          << " (--target or --target-selector="
          << options_.target_selector->ToString() << ")";
    }
    for (const std::string& target : known_targets_) {
      LOG_IF(INFO, current.count(target) == 0)
          << "no longer scaling " << target << ": gone, or no longer selected "
          << "by --target-selector=" << options_.target_selector->ToString();
    }
  }
  std::erase_if(smoothing_, [&current](const auto& entry) {
    return current.count(entry.first) == 0;
  });
  std::erase_if(blind_written_, [&current](const auto& entry) {
    return current.count(entry.first) == 0;
  });
  reporter_->TargetsAre(current);
  known_targets_ = std::move(current);
}

Status ReplicaAutoscaler::TimedCycle(TimePoint start) {
  for (const HpaConflict& conflict : watches_->hpa_check.CheckIfDue(
           start, watches_->target_scales.Targets())) {
    reporter_->HpaConflictFound(conflict);
  }
  Status status = RunCycle(start);
  reporter_->CycleFinished(status, clock_->Now() - start);
  return status;
}

Status ReplicaAutoscaler::Ready() const {
  if (watches_->node_watch.synced() && watches_->config_map->synced() &&
      (watches_->hpa_floor == nullptr || watches_->hpa_floor->synced()) &&
      (watches_->pod_watch == nullptr || watches_->pod_watch->synced()) &&
      (watches_->selected_watch == nullptr ||
       watches_->selected_watch->synced())) {
    return Status::Ok();
  }
  return Status::Unavailable(
      std::string("waiting for the first list of nodes") +
      (watches_->pod_watch != nullptr ? ", of the counted pods" : "") +
      (watches_->selected_watch != nullptr ? ", of the selected targets" : "") +
      " and of " + ConfigMapRef());
}

runtime::CycleHooks ReplicaAutoscaler::Hooks() {
  return {
      .ready = [this] { return Ready(); },
      .cycle =
          [this](TimePoint start, const std::string& cause) {
            cycle_cause_ = cause;
            if (Status listed = watches_->node_watch.ListIfPolled();
                !listed.ok()) {
              return listed;
            }
            if (watches_->pod_watch != nullptr) {
              if (Status listed = watches_->pod_watch->ListIfPolled();
                  !listed.ok()) {
                return listed;
              }
            }
            if (watches_->selected_watch != nullptr) {
              if (Status listed = watches_->selected_watch->ListIfPolled();
                  !listed.ok()) {
                return listed;
              }
            }
            return TimedCycle(start);
          },
      // While a watch cannot reach the server its copy may be stale: the
      // cycle holds the last known replicas, and reports the failure.
      .staleness =
          [this] {
            return CycleDriver::JoinErrors(
                {watches_->node_watch.LastError(),
                 watches_->config_map->LastError(),
                 watches_->pod_watch != nullptr
                     ? watches_->pod_watch->LastError()
                     : Status::Ok(),
                 watches_->selected_watch != nullptr
                     ? watches_->selected_watch->LastError()
                     : Status::Ok(),
                 watches_->hpa_floor != nullptr
                     ? watches_->hpa_floor->LastError()
                     : Status::Ok()});
          },
      .may_act = options_.may_act,
  };
}

int ReplicaAutoscaler::Run(StopSignal* stop) {
  return driver_->Run(stop, Hooks());
}

Status ReplicaAutoscaler::RunOnce() {
  cycle_cause_ = "--once";
  return TimedCycle(clock_->Now());
}

}  // namespace propscaler
