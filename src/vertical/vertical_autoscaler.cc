#include "vertical/vertical_autoscaler.h"

#include <glog/logging.h>

#include <algorithm>

#include "cluster/node_store_sink.h"
#include "common/metrics.h"
#include "common/quantity_format.h"

namespace propscaler {
namespace {

// The data key holding the config: the one named like the ConfigMap (as
// CPVA's example mounts it), else the only one.
Result<std::string> ConfigMapText(const kube::ConfigMap& config_map) {
  auto named = config_map.data.find(config_map.name);
  if (named != config_map.data.end()) return named->second;
  if (config_map.data.size() == 1) return config_map.data.begin()->second;
  std::string keys;
  for (const auto& [key, value] : config_map.data) {
    keys += (keys.empty() ? "" : ", ") + key;
  }
  return Status::Invalid("configmap " + config_map.namespace_ + "/" +
                         config_map.name + " has no data key \"" +
                         config_map.name + "\" and not exactly one key (has " +
                         (keys.empty() ? "none" : keys) + ")");
}

using runtime::CycleDriver;

}  // namespace

VerticalAutoscaler::VerticalAutoscaler(Clients api, const Clock* clock,
                                       VerticalOptions options,
                                       VerticalWatches* watches,
                                       runtime::CycleDriver* driver,
                                       VerticalReporter* reporter)
    : api_(api),
      clock_(clock),
      options_(std::move(options)),
      watches_(watches),
      driver_(driver),
      reporter_(reporter) {}

std::string VerticalAutoscaler::ConfigMapRef() const {
  return "configmap " + options_.namespace_ + "/" + options_.configmap;
}

Result<std::optional<VerticalConfig>> VerticalAutoscaler::ReadConfigFile() {
  Result<FileStamp> stamp = StampOf(options_.config_file);
  if (!stamp.ok() && stamp.status().code() == StatusCode::kNotFound &&
      options_.default_config) {
    // CPVA skips every cycle while the file is missing; a ConfigMap volume
    // marked optional has no file until the ConfigMap exists.
    LOG_IF(WARNING, !warned_missing_file_)
        << stamp.status().message() << "; applying --default-config alone "
        << "until it appears";
    warned_missing_file_ = true;
    file_stamp_.reset();
    file_config_.reset();
    return std::optional<VerticalConfig>();
  }
  if (!stamp.ok()) return stamp.status();
  warned_missing_file_ = false;
  if (file_stamp_ == *stamp) return file_config_;
  Result<std::string> text = ReadFile(options_.config_file);
  if (!text.ok()) return text.status();
  file_stamp_ = *stamp;
  if (text->empty()) {  // as CPVA: an empty file adds nothing
    file_config_ = VerticalConfig();
    return file_config_;
  }
  Result<VerticalConfig> parsed =
      ParseVerticalConfig(*text, "--config-file " + options_.config_file);
  if (!parsed.ok()) {
    file_stamp_.reset();  // read again next time, even unchanged
    return parsed.status();
  }
  file_config_ = *parsed;
  return file_config_;
}

Result<std::optional<VerticalConfig>>
VerticalAutoscaler::ConfigFromConfigMap() {
  Result<kube::ConfigMap> read = watches_->config_map->Read();
  if (!read.ok() && read.status().code() != StatusCode::kNotFound) {
    return read.status().WithContext("reading " + ConfigMapRef());
  }
  std::optional<kube::ConfigMap> config_map;
  if (read.ok()) config_map = *read;
  if (!config_map) {
    config_map_version_.clear();
    config_map_config_.reset();
    if (options_.default_config) return std::optional<VerticalConfig>();
    return Status::NotFound(ConfigMapRef() +
                            " not found and --default-config is not set");
  }
  if (config_map->resource_version == config_map_version_) {
    return config_map_config_;
  }
  Result<std::string> text = ConfigMapText(*config_map);
  if (!text.ok()) return text.status();
  Result<VerticalConfig> parsed = ParseVerticalConfig(*text, ConfigMapRef());
  if (!parsed.ok()) return parsed.status();
  config_map_version_ = config_map->resource_version;
  config_map_config_ = *parsed;
  return config_map_config_;
}

void VerticalAutoscaler::AcceptConfig(const VerticalConfig& config) {
  if (last_valid_ != config) {
    LOG(INFO) << "config in force: " << DescribeVerticalConfig(config);
    for (const std::string& warning : VerticalConfigWarnings(config)) {
      LOG(WARNING) << "config: " << warning;
    }
  }
  last_valid_ = config;
  last_config_error_.clear();
  reporter_->ConfigAccepted(config);
}

Result<VerticalConfig> VerticalAutoscaler::CurrentConfig() {
  Result<std::optional<VerticalConfig>> over =
      !options_.configmap.empty()     ? ConfigFromConfigMap()
      : !options_.config_file.empty() ? ReadConfigFile()
                                      : std::optional<VerticalConfig>();
  if (over.ok()) {
    VerticalConfig config = options_.default_config.value_or(VerticalConfig());
    if (over->has_value()) config = OverlayVerticalConfig(config, **over);
    AcceptConfig(config);
    return config;
  }
  RejectConfig(over.status());
  return over.status();
}

void VerticalAutoscaler::RejectConfig(const Status& status) {
  const bool first = status.message() != last_config_error_;
  if (first) {
    // As CPVA: a config invalid from the start leaves the defaults in force.
    LOG(ERROR) << status.message()
               << (last_valid_ ? "; keeping the last valid config"
                   : options_.default_config
                       ? "; applying --default-config "
                         "until it is valid"
                       : "; not resizing until the config is valid");
    last_config_error_ = status.message();
  }
  reporter_->ConfigRejected(status.message(), first);
}

VerticalCounts VerticalAutoscaler::Counts() const {
  const ClusterCounts counts = watches_->nodes.Counts();
  return options_.schedulable_nodes_only
             ? VerticalCounts{counts.schedulable_nodes,
                              counts.schedulable_cores}
             : VerticalCounts{counts.total_nodes, counts.total_cores};
}

Status VerticalAutoscaler::Apply(const std::vector<ResourceChange>& changes,
                                 const std::string& resource_version,
                                 const VerticalCounts& counts) {
  LOG(INFO) << (options_.dry_run ? "dry run: would resize " : "resizing ")
            << options_.target.ToString() << ": " << DescribeChanges(changes)
            << " (" << DescribeVerticalCounts(counts) << "; " << cycle_cause_
            << ")";
  if (options_.dry_run) return Status::Ok();
  if (Status leading = runtime::CheckStillLeading(
          options_.may_act, "resizing " + options_.target.ToString());
      !leading.ok()) {
    return leading;
  }
  Result<kube::PodTemplateWorkload> written =
      api_.workloads->PatchContainerResources(options_.namespace_,
                                              options_.target, resource_version,
                                              EditsOf(changes));
  if (!written.ok()) return written.status();
  watches_->target.Wrote(*written);
  reporter_->Resized(changes, counts, cycle_cause_, written->containers);
  return Status::Ok();
}

Status VerticalAutoscaler::ResizeBlind(
    const std::map<std::string, ComputedResources>& computed,
    const VerticalCounts& counts) {
  if (blind_patched_ == computed) return Status::Ok();
  std::vector<ResourceChange> changes;
  for (const auto& [container, resources] : computed) {
    for (const auto& [side, values] :
         {std::pair<std::string, const std::map<std::string, int64_t>*>{
              "requests", &resources.requests},
          {"limits", &resources.limits}}) {
      for (const auto& [resource, millis] : *values) {
        changes.push_back({container, side, resource, "",
                           FormatMilliQuantity(millis, CpvaFormatOf(resource)),
                           millis});
      }
    }
  }
  if (changes.empty()) return Status::Ok();
  Status status = Apply(changes, "", counts);
  if (status.ok()) blind_patched_ = computed;
  return status;
}

Status VerticalAutoscaler::Resize(
    const std::map<std::string, ComputedResources>& computed,
    const VerticalCounts& counts, TimePoint now) {
  constexpr int kAttempts = 3;
  Status status;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    Result<kube::PodTemplateWorkload> workload =
        attempt > 1 ? watches_->target.ReadFresh() : watches_->target.Read();
    if (workload.status().code() == StatusCode::kPermissionDenied) {
      return ResizeBlind(computed, counts);
    }
    if (!workload.ok()) return workload.status();
    reporter_->TargetRead(workload->containers);
    if (options_.InPlace() && TemplateChangeRolls(*workload)) {
      // The template is left behind: patching it would replace every pod.
      return ResizeInPlace(*workload, computed, counts, now);
    }
    ResizePlan plan = PlanResize(computed, workload->containers,
                                 options_.policy, decreases_, now);
    decreases_ = std::move(plan.history);
    if (plan.held != logged_held_) {
      for (const std::string& held : plan.held) LOG(INFO) << held;
    }
    logged_held_ = plan.held;
    reporter_->Held(plan.held);
    status = Status::Ok();
    if (!plan.changes.empty()) {
      status = Apply(plan.changes, workload->resource_version, counts);
    }
    if (status.ok() && options_.InPlace()) {
      status = ResizeInPlace(*workload, computed, counts, now);
    }
    if (status.ok() && !plan.missing_containers.empty()) {
      std::string missing;
      for (const std::string& line : plan.missing_containers) {
        missing += (missing.empty() ? "" : "; ") + line;
      }
      return Status::Invalid(missing);
    }
    if (status.code() != StatusCode::kConflict) break;
    VLOG(1) << options_.TargetRef() << " changed meanwhile; reading it again";
  }
  return status;
}

bool VerticalAutoscaler::TemplateChangeRolls(
    const kube::PodTemplateWorkload& workload) const {
  return kube::TemplateChangeRolls(options_.target.kind,
                                   workload.update_strategy);
}

Status VerticalAutoscaler::ResizeInPlace(
    const kube::PodTemplateWorkload& workload,
    const std::map<std::string, ComputedResources>& computed,
    const VerticalCounts& counts, TimePoint now) {
  if (workload.rolling_out) {
    reporter_->InPlaceState("waiting for the rollout of " +
                            options_.target.ToString() + " to finish");
    return Status::Ok();
  }
  if (Status listed = watches_->pod_watch->ListIfPolled(); !listed.ok()) {
    return listed;
  }
  std::vector<kube::ResizedPod> pods = watches_->pods.Pods();
  ForgetFallBacksOfGonePods(pods);
  for (kube::ResizedPod& pod : pods) {
    auto refused = refused_by_uid_.find(pod.uid);
    if (refused == refused_by_uid_.end()) continue;
    pod.resize = kube::ResizeState::kRefused;
    pod.resize_message = refused->second;
  }
  InPlacePlan plan =
      PlanInPlace(computed, pods, options_.policy, decreases_, now);
  decreases_ = plan.history;
  if (plan.held != logged_held_) {
    for (const std::string& held : plan.held) LOG(INFO) << held;
  }
  logged_held_ = plan.held;
  reporter_->Held(plan.held);
  switch (plan.step) {
    case InPlacePlan::Step::kNothing:
      reporter_->InPlaceState("every pod has its size");
      return Status::Ok();
    case InPlacePlan::Step::kWait:
      reporter_->InPlaceState("waiting for the kubelet to apply pod " +
                              plan.pod + "'s resize");
      return Status::Ok();
    case InPlacePlan::Step::kResize:
      return ResizePod(plan, counts);
    case InPlacePlan::Step::kFallBack:
      return FallBack(workload, plan, computed, counts, now);
  }
  return Status::Ok();
}

void VerticalAutoscaler::ForgetFallBacksOfGonePods(
    const std::vector<kube::ResizedPod>& pods) {
  std::erase_if(refused_by_uid_, [&pods](const auto& entry) {
    return std::none_of(
        pods.begin(), pods.end(),
        [&entry](const kube::ResizedPod& p) { return p.uid == entry.first; });
  });
  std::erase_if(fallen_back_, [&pods](const auto& key) {
    return std::none_of(
        pods.begin(), pods.end(),
        [&key](const kube::ResizedPod& p) { return p.name == key.first; });
  });
}

Status VerticalAutoscaler::ResizePod(const InPlacePlan& plan,
                                     const VerticalCounts& counts) {
  const std::string pod = options_.namespace_ + "/" + plan.pod;
  reporter_->InPlaceState("resizing pod " + plan.pod + " (" +
                          std::to_string(plan.pods_to_resize) +
                          " pod(s) to resize, this one included)");
  LOG(INFO) << (options_.dry_run ? "dry run: would resize pod "
                                 : "resizing pod ")
            << pod << " of " << options_.target.ToString()
            << " in place: " << DescribeChanges(plan.changes) << " ("
            << DescribeVerticalCounts(counts) << "; " << cycle_cause_ << "; "
            << plan.pods_to_resize << " pod(s) to resize)";
  if (options_.dry_run) return Status::Ok();
  if (Status leading =
          runtime::CheckStillLeading(options_.may_act, "resizing pod " + pod);
      !leading.ok()) {
    return leading;
  }
  Result<kube::ResizedPod> resized =
      api_.resizes->ResizePod(options_.namespace_, plan.pod,
                              plan.resource_version, EditsOf(plan.changes));
  if (resized.status().code() == StatusCode::kConflict) {
    // The pod's watch brings its new version, and with it the next cycle.
    VLOG(1) << "pod " << pod << " changed meanwhile; planning again";
    return Status::Ok();
  }
  if (resized.status().code() == StatusCode::kInvalidArgument) {
    // The API will not resize this pod in place (its QoS class would
    // change, say): the next cycle falls back to replacing it.
    refused_by_uid_[plan.uid] = resized.status().message();
    driver_->Notify("pods/resize refused");
    return Status::Ok();
  }
  if (!resized.ok()) {
    return resized.status().WithContext("resizing pod " + pod +
                                        " through pods/resize");
  }
  reporter_->ResizedInPlace(plan.pod, plan.changes, counts, cycle_cause_);
  return Status::Ok();
}

Status VerticalAutoscaler::FallBack(
    const kube::PodTemplateWorkload& workload, const InPlacePlan& plan,
    const std::map<std::string, ComputedResources>& computed,
    const VerticalCounts& counts, TimePoint now) {
  const bool rolls = TemplateChangeRolls(workload);
  const std::string instead =
      rolls
          ? "patching the pod template instead, so that " +
                options_.target.ToString() + " replaces its pods"
          : "evicting the pod instead, so that " + options_.target.ToString() +
                " recreates it from its template";
  if (fallen_back_.insert({plan.pod, plan.state}).second) {
    LOG(WARNING) << "the in-place resize of pod " << options_.namespace_ << "/"
                 << plan.pod << " is " << kube::ResizeStateName(plan.state)
                 << (plan.message.empty() ? "" : " (" + plan.message + ")")
                 << "; " << instead;
    if (!options_.dry_run) {
      reporter_->FellBack(plan.pod, plan.state, plan.message, instead);
    }
  }
  reporter_->InPlaceState("fell back to replacing pods: pod " + plan.pod +
                          " is " + kube::ResizeStateName(plan.state));
  if (!rolls) {
    if (options_.dry_run) return Status::Ok();
    if (Status leading = runtime::CheckStillLeading(options_.may_act,
                                                    "evicting pod " + plan.pod);
        !leading.ok()) {
      return leading;
    }
    return api_.evictions
        ->EvictPod(options_.namespace_, plan.pod, /*grace_seconds=*/30)
        .WithContext("evicting pod " + options_.namespace_ + "/" + plan.pod +
                     " after its in-place resize was refused");
  }
  ResizePlan rollout = PlanResize(computed, workload.containers,
                                  options_.policy, decreases_, now);
  if (rollout.changes.empty()) return Status::Ok();
  return Apply(rollout.changes, workload.resource_version, counts);
}

Status VerticalAutoscaler::RunCycle(TimePoint now) {
  if (Status listed = watches_->node_watch.ListIfPolled(); !listed.ok()) {
    return listed;
  }
  Result<VerticalConfig> config = CurrentConfig();
  const std::optional<VerticalConfig> in_force =
      config.ok()   ? std::optional(*config)
      : last_valid_ ? last_valid_
                    : options_.default_config;
  if (!in_force) return config.status();
  if (options_.resize == ResizeMethod::kInPlace &&
      !options_.pod_resize_served && !said_unavailable_) {
    said_unavailable_ = true;
    if (!options_.dry_run) reporter_->InPlaceUnavailable();
  }
  const VerticalCounts counts = Counts();
  const auto computed = ComputeResources(*in_force, counts);
  reporter_->Computed(counts, computed);
  Status resized = Resize(computed, counts, now)
                       .WithContext("resizing " + options_.TargetRef());
  if (!config.ok()) return config.status();
  return resized;
}

Status VerticalAutoscaler::Ready() const {
  if (watches_->node_watch.synced() && watches_->target.synced() &&
      (options_.configmap.empty() || watches_->config_map->synced()) &&
      (!watches_->pod_watch || watches_->pod_watch->synced())) {
    return Status::Ok();
  }
  return Status::Unavailable(
      "waiting for the first list of nodes and of " + options_.TargetRef() +
      (options_.configmap.empty() ? "" : " and of " + ConfigMapRef()) +
      (watches_->pod_watch ? " and of its pods" : ""));
}

runtime::CycleHooks VerticalAutoscaler::Hooks() {
  return {
      .ready = [this] { return Ready(); },
      .cycle =
          [this](TimePoint start, const std::string& cause) {
            cycle_cause_ = cause;
            return RunCycle(start);
          },
      .staleness =
          [this] {
            return CycleDriver::JoinErrors(
                {watches_->node_watch.LastError(), watches_->target.LastError(),
                 options_.configmap.empty() ? Status::Ok()
                                            : watches_->config_map->LastError(),
                 watches_->pod_watch ? watches_->pod_watch->LastError()
                                     : Status::Ok()});
          },
      .finished =
          [this](TimePoint start, const Status& status) {
            reporter_->CycleFinished(start, status);
            if (!status.ok())
              LOG(WARNING) << "cycle failed: " << status.message();
          },
      .may_act = options_.may_act,
  };
}

int VerticalAutoscaler::Run(StopSignal* stop) {
  return driver_->Run(stop, Hooks());
}

Status VerticalAutoscaler::RunOnce() {
  cycle_cause_ = "--once";
  return RunCycle(clock_->Now());  // the target and ConfigMap with GETs
}

}  // namespace propscaler
