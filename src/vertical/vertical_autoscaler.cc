#include "vertical/vertical_autoscaler.h"

#include <glog/logging.h>

#include <thread>

#include "cluster/node_store_sink.h"
#include "common/metrics.h"
#include "common/quantity_format.h"
#include "common/sync_failure_limit.h"

namespace propscaler {
namespace {

// As in replica mode: a change waits this long for the rest of its moment,
// and cycles started by changes are at least kCoalesceWindow apart.
constexpr auto kSettleDelay = std::chrono::milliseconds(20);
constexpr auto kCoalesceWindow = std::chrono::milliseconds(250);
// How often the config file is looked at between cycles.
constexpr auto kFileCheckPeriod = std::chrono::seconds(1);

void DeclareVerticalMetrics(Metrics& metrics) {
  metrics.DeclareGauge("propscaler_vertical_nodes", "Counted nodes.");
  metrics.DeclareGauge("propscaler_vertical_cores",
                       "Counted cores (capacity, or allocatable with "
                       "--schedulable-nodes-only), rounded up.");
  metrics.DeclareGauge("propscaler_vertical_computed",
                       "Each configured container resource as computed, in "
                       "its unit (cores, bytes).");
  metrics.DeclareCounter("propscaler_vertical_resized_total",
                         "Patches of the target's container resources.");
  metrics.DeclareCounter("propscaler_vertical_config_rejected_total",
                         "Cycles that found an invalid config.");
  metrics.DeclareGauge("propscaler_last_successful_cycle_timestamp_seconds",
                       "Unix time of the last cycle that succeeded.");
  metrics.DeclareCounter("propscaler_cycle_failures_total",
                         "Cycles that failed.");
}

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

std::string DescribeVerticalCounts(const VerticalCounts& counts) {
  return "nodes " + std::to_string(counts.nodes) + ", cores " +
         std::to_string(counts.cores);
}

std::string Join(const std::vector<ResourceChange>& changes) {
  std::string out;
  for (const ResourceChange& change : changes) {
    out += (out.empty() ? "" : ", ") + change.ToString();
  }
  return out;
}

}  // namespace

VerticalAutoscaler::VerticalAutoscaler(const kube::Client* client,
                                       const Clock* clock,
                                       VerticalOptions options,
                                       HealthState* health,
                                       kube::EventRecorder* events,
                                       VerticalStatusBoard* board)
    : client_(client),
      clock_(clock),
      options_(std::move(options)),
      health_(health),
      events_(options_.dry_run ? nullptr : events),
      board_(board) {
  DeclareVerticalMetrics(GlobalMetrics());
  std::string source;
  if (options_.default_config) source = "--default-config";
  if (!options_.config_file.empty()) {
    source += (source.empty() ? "" : " under ") +
              std::string("--config-file ") + options_.config_file;
  }
  if (!options_.configmap.empty()) {
    source += (source.empty() ? "" : " under ") + std::string("configmap ") +
              options_.namespace_ + "/" + options_.configmap;
  }
  board_->Update([&](VerticalStatus& status) {
    status.namespace_ = options_.namespace_;
    status.target = options_.target.ToString();
    status.counting = options_.schedulable_nodes_only
                          ? "Ready, schedulable nodes and their allocatable "
                            "cores (--schedulable-nodes-only)"
                          : "every node and its capacity cores (as "
                            "cluster-proportional-vertical-autoscaler)";
    status.config_source = source;
  });
}

std::string VerticalAutoscaler::TargetRef() const {
  return options_.target.ToString() + " in namespace " + options_.namespace_;
}

void VerticalAutoscaler::NotifyChange(const std::string& cause) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (pending_cause_.find(cause) == std::string::npos) {
      pending_cause_ += pending_cause_.empty() ? cause : ", " + cause;
    }
    changed_ = true;
  }
  clock_->Notify();
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
  std::optional<kube::ConfigMap> config_map;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    config_map = config_map_;
  }
  if (!config_map) {
    config_map_version_.clear();
    config_map_config_.reset();
    if (options_.default_config) return std::optional<VerticalConfig>();
    return Status::NotFound("configmap " + options_.namespace_ + "/" +
                            options_.configmap +
                            " not found and --default-config is not set");
  }
  if (config_map->resource_version == config_map_version_) {
    return config_map_config_;
  }
  Result<std::string> text = ConfigMapText(*config_map);
  if (!text.ok()) return text.status();
  Result<VerticalConfig> parsed = ParseVerticalConfig(
      *text, "configmap " + options_.namespace_ + "/" + options_.configmap);
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
  board_->Update([&](VerticalStatus& status) {
    status.config_in_force = DescribeVerticalConfig(config);
    status.config_error.clear();
  });
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
  const Status& status = over.status();
  GlobalMetrics().Add("propscaler_vertical_config_rejected_total");
  if (status.message() != last_config_error_) {
    LOG(ERROR) << status.message()
               << (last_valid_ ? "; keeping the last valid config"
                               : "; not resizing until the config is valid");
    last_config_error_ = status.message();
    if (events_ != nullptr && !options_.configmap.empty()) {
      events_->Record(
          {{"v1", "ConfigMap", options_.namespace_, options_.configmap, ""},
           /*warning=*/true,
           "InvalidConfig",
           status.message()});
    }
  }
  board_->Update([&](VerticalStatus& s) { s.config_error = status.message(); });
  return status;
}

VerticalCounts VerticalAutoscaler::Counts() const {
  const ClusterCounts counts = nodes_.Counts();
  return options_.schedulable_nodes_only
             ? VerticalCounts{counts.schedulable_nodes,
                              counts.schedulable_cores}
             : VerticalCounts{counts.total_nodes, counts.total_cores};
}

void VerticalAutoscaler::Report(const std::vector<ResourceChange>& changes,
                                const VerticalCounts& counts) {
  const std::string message =
      "set " + Join(changes) + " (" + DescribeVerticalCounts(counts) + ")";
  GlobalMetrics().Add("propscaler_vertical_resized_total");
  if (events_ != nullptr) {
    events_->Record({{"apps/v1", options_.target.ApiKind(), options_.namespace_,
                      options_.target.name, ""},
                     /*warning=*/false,
                     "ResizedContainers",
                     message});
  }
  board_->Update([&](VerticalStatus& status) {
    status.decisions.push_front({clock_->Now(), changes, counts, cycle_cause_});
    if (status.decisions.size() > VerticalStatus::kMaxDecisions) {
      status.decisions.pop_back();
    }
  });
}

Status VerticalAutoscaler::Apply(const std::vector<ResourceChange>& changes,
                                 const std::string& resource_version,
                                 const VerticalCounts& counts) {
  LOG(INFO) << (options_.dry_run ? "dry run: would resize " : "resizing ")
            << options_.target.ToString() << ": " << Join(changes) << " ("
            << DescribeVerticalCounts(counts) << "; " << cycle_cause_ << ")";
  if (options_.dry_run) return Status::Ok();
  Result<kube::PodTemplateWorkload> written = client_->PatchContainerResources(
      options_.namespace_, options_.target, resource_version, EditsOf(changes));
  if (!written.ok()) return written.status();
  {
    // Newer than the watched copy until the watch brings the same version.
    std::lock_guard<std::mutex> lock(mutex_);
    if (watched_target_) watched_target_ = *written;
  }
  Report(changes, counts);
  board_->Update(
      [&](VerticalStatus& status) { status.current = written->containers; });
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

void VerticalAutoscaler::SetTarget(
    std::optional<kube::PodTemplateWorkload> target) {
  bool changed;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::string before =
        watched_target_ ? watched_target_->resource_version : "";
    changed =
        !target_synced_ || before != (target ? target->resource_version : "");
    watched_target_ = std::move(target);
    target_synced_ = true;
  }
  target_polled_ = false;
  if (changed) NotifyChange("target changed");
}

Result<kube::PodTemplateWorkload> VerticalAutoscaler::ReadTarget(bool fresh) {
  if (!fresh && !target_polled_) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (watched_target_) return *watched_target_;
    return Status::NotFound(TargetRef() + " not found");
  }
  return client_->GetPodTemplate(options_.namespace_, options_.target);
}

Status VerticalAutoscaler::Resize(
    const std::map<std::string, ComputedResources>& computed,
    const VerticalCounts& counts, TimePoint now) {
  constexpr int kAttempts = 3;
  Status status;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    Result<kube::PodTemplateWorkload> workload = ReadTarget(attempt > 1);
    if (!workload.ok() &&
        workload.status().code() == StatusCode::kPermissionDenied) {
      LOG_IF(WARNING, !warned_get_forbidden_)
          << workload.status().message() << "; patching " << TargetRef()
          << " whenever the computed resources change, as "
             "cluster-proportional-vertical-autoscaler does (grant get on it "
             "to compare with its current resources first)";
      warned_get_forbidden_ = true;
      return ResizeBlind(computed, counts);
    }
    if (!workload.ok()) return workload.status();
    board_->Update(
        [&](VerticalStatus& s) { s.current = workload->containers; });
    ResizePlan plan = PlanResize(computed, workload->containers,
                                 options_.policy, decreases_, now);
    decreases_ = std::move(plan.history);
    if (plan.held != logged_held_) {
      for (const std::string& held : plan.held) LOG(INFO) << held;
    }
    logged_held_ = plan.held;
    board_->Update([&](VerticalStatus& s) { s.held = plan.held; });
    status = Status::Ok();
    if (!plan.changes.empty()) {
      status = Apply(plan.changes, workload->resource_version, counts);
    }
    if (status.ok() && !plan.missing_containers.empty()) {
      std::string missing;
      for (const std::string& line : plan.missing_containers) {
        missing += (missing.empty() ? "" : "; ") + line;
      }
      return Status::Invalid(missing);
    }
    if (status.code() != StatusCode::kConflict) break;
    VLOG(1) << TargetRef() << " changed meanwhile; reading it again";
  }
  return status;
}

Status VerticalAutoscaler::RunCycle(TimePoint now) {
  if (nodes_polled_) {
    if (Status polled = PollNodes(); !polled.ok()) return polled;
  }
  Result<VerticalConfig> config = CurrentConfig();
  if (!config.ok() && !last_valid_) return config.status();
  const VerticalConfig& in_force = config.ok() ? *config : *last_valid_;
  const VerticalCounts counts = Counts();
  const auto computed = ComputeResources(in_force, counts);
  Metrics& metrics = GlobalMetrics();
  metrics.Set("propscaler_vertical_nodes", {}, counts.nodes);
  metrics.Set("propscaler_vertical_cores", {}, counts.cores);
  for (const auto& [container, resources] : computed) {
    for (const auto& [resource, millis] : resources.requests) {
      metrics.Set("propscaler_vertical_computed",
                  {{"container", container},
                   {"side", "requests"},
                   {"resource", resource}},
                  millis / 1000.0);
    }
    for (const auto& [resource, millis] : resources.limits) {
      metrics.Set("propscaler_vertical_computed",
                  {{"container", container},
                   {"side", "limits"},
                   {"resource", resource}},
                  millis / 1000.0);
    }
  }
  board_->Update([&](VerticalStatus& status) {
    status.counts = counts;
    status.computed = computed;
  });
  Status resized =
      Resize(computed, counts, now).WithContext("resizing " + TargetRef());
  if (!config.ok()) return config.status();
  return resized;
}

kube::Reflector<kube::NodeInfo> VerticalAutoscaler::NodeReflector(
    kube::ReflectorSink<kube::NodeInfo> sink) const {
  return kube::Reflector<kube::NodeInfo>(
      client_->CountedNodes(options_.node_selector, TaintFilter(),
                            options_.schedulable_nodes_only
                                ? kube::CountedCpu::kAllocatable
                                : kube::CountedCpu::kCapacity),
      std::move(sink), "nodes");
}

Status VerticalAutoscaler::PollNodes() {
  kube::Reflector<kube::NodeInfo> poll =
      NodeReflector({[this](std::vector<kube::NodeInfo> nodes) {
                       nodes_.Replace(std::move(nodes));
                     },
                     nullptr, nullptr});
  return poll.ListOnce();
}

void VerticalAutoscaler::WatchConfigFile(StopSignal* stop) {
  std::optional<FileStamp> seen;
  if (Result<FileStamp> stamp = StampOf(options_.config_file); stamp.ok()) {
    seen = *stamp;
  }
  while (!stop->WaitFor(kFileCheckPeriod)) {
    Result<FileStamp> stamp = StampOf(options_.config_file);
    std::optional<FileStamp> now;
    if (stamp.ok()) now = *stamp;
    if (now != seen) NotifyChange("config file changed");
    seen = now;
  }
}

void VerticalAutoscaler::WaitForNextCycle(StopSignal* stop) {
  health_->Heartbeat();
  stop->WaitUntil(clock_->Now() + options_.poll_period,
                  [this] { return changed_.load(); });
  // The first cycle, on the first complete list, runs at once.
  if (changed_ && last_cycle_start_ != TimePoint{}) {
    stop->WaitFor(std::max<Duration>(
        kSettleDelay, kCoalesceWindow - (clock_->Now() - last_cycle_start_)));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  cycle_cause_ = changed_ ? pending_cause_ : "poll period";
  changed_ = false;
  pending_cause_.clear();
}

int VerticalAutoscaler::Run(StopSignal* stop) {
  kube::Reflector<kube::NodeInfo> node_reflector = NodeReflector(NodeStoreSink(
      &nodes_, [this] { NotifyChange("nodes changed"); },
      [this] {
        nodes_polled_ = false;
        {
          std::lock_guard<std::mutex> lock(mutex_);
          nodes_synced_ = true;
        }
        NotifyChange("nodes listed");
      }));
  const std::string config_map_ref =
      "configmap " + options_.namespace_ + "/" + options_.configmap;
  auto set_config_map = [this](std::optional<kube::ConfigMap> config_map) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      config_map_ = std::move(config_map);
      config_map_synced_ = true;
    }
    NotifyChange("config changed");
  };
  kube::Reflector<kube::ConfigMap> config_map_reflector(
      client_->ConfigMapNamed(options_.namespace_, options_.configmap),
      {[&](std::vector<kube::ConfigMap> items) {
         std::optional<kube::ConfigMap> found;
         for (auto& item : items) {
           if (item.name == options_.configmap) found = std::move(item);
         }
         set_config_map(std::move(found));
       },
       [&](const kube::ConfigMap& item) { set_config_map(item); },
       [&](const kube::ConfigMap&) { set_config_map(std::nullopt); }},
      config_map_ref);

  std::thread node_thread = clock_->StartThread([&] {
    node_reflector.RunRetryingWhenForbidden(stop, [this](const Status& why) {
      LOG_IF(WARNING, !nodes_polled_)
          << why.message()
          << "; listing nodes every cycle (every --poll-period-seconds) "
             "instead. Grant watch on nodes to react within a second";
      nodes_polled_ = true;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        nodes_synced_ = true;
      }
      NotifyChange("nodes polled");
      return true;
    });
  });
  kube::Reflector<kube::PodTemplateWorkload> target_reflector(
      client_->PodTemplateNamed(options_.namespace_, options_.target),
      {[&](std::vector<kube::PodTemplateWorkload> items) {
         std::optional<kube::PodTemplateWorkload> found;
         for (auto& item : items) {
           if (item.name == options_.target.name) found = std::move(item);
         }
         SetTarget(std::move(found));
       },
       [&](const kube::PodTemplateWorkload& item) { SetTarget(item); },
       [&](const kube::PodTemplateWorkload&) { SetTarget(std::nullopt); }},
      TargetRef());
  std::thread target_thread = clock_->StartThread([&] {
    target_reflector.RunRetryingWhenForbidden(stop, [this](const Status& why) {
      LOG_IF(WARNING, !target_polled_)
          << why.message() << "; reading " << TargetRef()
          << " with a GET every cycle instead. Grant list and watch on it "
             "to read nothing at rest and set back other writers' changes "
             "within a second";
      target_polled_ = true;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        target_synced_ = true;
      }
      NotifyChange("target polled");
      return true;
    });
  });
  std::thread config_thread;
  if (!options_.configmap.empty()) {
    config_thread =
        clock_->StartThread([&] { config_map_reflector.Run(stop); });
  } else if (!options_.config_file.empty()) {
    config_thread = clock_->StartThread([&] { WatchConfigFile(stop); });
  }

  int exit_code = 0;
  SyncFailureLimit failures(options_.max_sync_failures);
  WaitForNextCycle(stop);
  while (!stop->stopped()) {
    health_->Heartbeat();
    bool synced;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      synced = nodes_synced_ && target_synced_ &&
               (options_.configmap.empty() || config_map_synced_);
    }
    const TimePoint start = clock_->Now();
    if (synced) last_cycle_start_ = start;
    Status status = synced
                        ? RunCycle(start)
                        : Status::Unavailable(
                              "waiting for the first list of nodes" +
                              std::string(options_.configmap.empty()
                                              ? ""
                                              : " and of " + config_map_ref));
    if (status.ok() && !nodes_polled_) status = node_reflector.LastError();
    if (status.ok() && !target_polled_) status = target_reflector.LastError();
    if (status.ok() && !options_.configmap.empty()) {
      status = config_map_reflector.LastError();
    }
    health_->CycleFinished(status);
    board_->Update([&](VerticalStatus& s) {
      s.last_cycle = start;
      s.last_cycle_error = status.ok() ? "" : status.message();
    });
    if (status.ok()) {
      GlobalMetrics().Set(
          "propscaler_last_successful_cycle_timestamp_seconds", {},
          std::chrono::duration<double>(start.time_since_epoch()).count());
    } else {
      LOG(WARNING) << "cycle failed: " << status.message();
      GlobalMetrics().Add("propscaler_cycle_failures_total");
    }
    if (failures.Reached(status)) {
      exit_code = 1;
      break;
    }
    WaitForNextCycle(stop);
  }
  stop->Stop();
  node_thread.join();
  target_thread.join();
  if (config_thread.joinable()) config_thread.join();
  return exit_code;
}

Status VerticalAutoscaler::RunOnce() {
  if (Status status = PollNodes(); !status.ok()) return status;
  if (!options_.configmap.empty()) {
    Result<kube::ConfigMap> config_map =
        client_->GetConfigMap(options_.namespace_, options_.configmap);
    if (config_map.ok()) {
      config_map_ = *config_map;
    } else if (config_map.status().code() != StatusCode::kNotFound) {
      return config_map.status();
    }
  }
  target_polled_ = true;  // one GET, no watch
  cycle_cause_ = "--once";
  return RunCycle(clock_->Now());
}

}  // namespace propscaler
