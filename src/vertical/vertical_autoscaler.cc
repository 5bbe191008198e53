#include "vertical/vertical_autoscaler.h"

#include <glog/logging.h>

#include "cluster/node_store_sink.h"
#include "common/metrics.h"
#include "common/quantity_format.h"

namespace propscaler {
namespace {

// How often the config file is looked at between cycles: a stat() five
// times a second costs nothing and keeps an edit's delay well under 1 s.
constexpr auto kFileCheckPeriod = std::chrono::milliseconds(200);

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

using runtime::CycleDriver;

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
      events_(options_.dry_run ? nullptr : events),
      board_(board),
      driver_(clock, health,
              {options_.poll_period, options_.max_sync_failures}),
      node_watch_(
          clock,
          [this] {
            return client_->CountedNodes(options_.node_selector, TaintFilter(),
                                         options_.schedulable_nodes_only
                                             ? kube::CountedCpu::kAllocatable
                                             : kube::CountedCpu::kCapacity);
          },
          NodeStoreSink(&nodes_, [this] { driver_.Notify("nodes changed"); }),
          {"nodes", "Grant watch on nodes to react within a second."},
          [this](const std::string& cause) { driver_.Notify(cause); }),
      target_(
          clock, client->PodTemplateNamed(options_.namespace_, options_.target),
          [this] {
            return client_->GetPodTemplate(options_.namespace_,
                                           options_.target);
          },
          {.name = options_.target.name,
           .what = TargetRef(),
           .grant_hint = "Grant list and watch on it to read nothing at rest "
                         "and set back other writers' changes within a second",
           .changed_cause = "target changed",
           .get_fallback =
               "patching " + TargetRef() +
               " whenever the computed resources change, as "
               "cluster-proportional-vertical-autoscaler does (grant get on "
               "it to compare with its current resources first)"},
          [this](const std::string& cause) { driver_.Notify(cause); }),
      config_map_(runtime::WatchConfigMap(
          clock, client, options_.namespace_, options_.configmap,
          "config changed",
          [this](const std::string& cause) { driver_.Notify(cause); })) {
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
  Result<kube::ConfigMap> read = config_map_->Read();
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
  RejectConfig(over.status());
  return over.status();
}

void VerticalAutoscaler::RejectConfig(const Status& status) {
  GlobalMetrics().Add("propscaler_vertical_config_rejected_total");
  if (status.message() != last_config_error_) {
    // As CPVA: a config invalid from the start leaves the defaults in force.
    LOG(ERROR) << status.message()
               << (last_valid_ ? "; keeping the last valid config"
                   : options_.default_config
                       ? "; applying --default-config "
                         "until it is valid"
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
  if (Status leading = runtime::CheckStillLeading(
          options_.may_act, "resizing " + options_.target.ToString());
      !leading.ok()) {
    return leading;
  }
  Result<kube::PodTemplateWorkload> written = client_->PatchContainerResources(
      options_.namespace_, options_.target, resource_version, EditsOf(changes));
  if (!written.ok()) return written.status();
  target_.Wrote(*written);
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

Status VerticalAutoscaler::Resize(
    const std::map<std::string, ComputedResources>& computed,
    const VerticalCounts& counts, TimePoint now) {
  constexpr int kAttempts = 3;
  Status status;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    Result<kube::PodTemplateWorkload> workload =
        attempt > 1 ? target_.ReadFresh() : target_.Read();
    if (workload.status().code() == StatusCode::kPermissionDenied) {
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
  if (Status listed = node_watch_.ListIfPolled(); !listed.ok()) return listed;
  Result<VerticalConfig> config = CurrentConfig();
  const std::optional<VerticalConfig> in_force =
      config.ok()   ? std::optional(*config)
      : last_valid_ ? last_valid_
                    : options_.default_config;
  if (!in_force) return config.status();
  const VerticalCounts counts = Counts();
  const auto computed = ComputeResources(*in_force, counts);
  SetMetrics(counts, computed);
  board_->Update([&](VerticalStatus& status) {
    status.counts = counts;
    status.computed = computed;
  });
  Status resized =
      Resize(computed, counts, now).WithContext("resizing " + TargetRef());
  if (!config.ok()) return config.status();
  return resized;
}

void VerticalAutoscaler::SetMetrics(
    const VerticalCounts& counts,
    const std::map<std::string, ComputedResources>& computed) {
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
    if (now != seen) driver_.Notify("config file changed");
    seen = now;
  }
}

Status VerticalAutoscaler::Ready() const {
  if (node_watch_.synced() && target_.synced() &&
      (options_.configmap.empty() || config_map_->synced())) {
    return Status::Ok();
  }
  return Status::Unavailable(
      "waiting for the first list of nodes and of " + TargetRef() +
      (options_.configmap.empty() ? "" : " and of " + ConfigMapRef()));
}

void VerticalAutoscaler::CycleFinished(TimePoint start, const Status& status) {
  board_->Update([&](VerticalStatus& s) {
    s.last_cycle = start;
    s.last_cycle_error = status.ok() ? "" : status.message();
  });
  if (!status.ok()) LOG(WARNING) << "cycle failed: " << status.message();
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
                {node_watch_.LastError(), target_.LastError(),
                 options_.configmap.empty() ? Status::Ok()
                                            : config_map_->LastError()});
          },
      .finished = [this](
                      TimePoint start,
                      const Status& status) { CycleFinished(start, status); },
      .may_act = options_.may_act,
  };
}

int VerticalAutoscaler::Run(StopSignal* stop) {
  node_watch_.Start(stop);
  target_.Start(stop);
  std::thread config_file_thread;
  if (!options_.configmap.empty()) {
    config_map_->Start(stop);
  } else if (!options_.config_file.empty()) {
    config_file_thread = clock_->StartThread([&] { WatchConfigFile(stop); });
  }
  const int exit_code = driver_.Run(stop, Hooks());
  stop->Stop();
  node_watch_.Join();
  target_.Join();
  config_map_->Join();
  if (config_file_thread.joinable()) config_file_thread.join();
  return exit_code;
}

Status VerticalAutoscaler::RunOnce() {
  if (Status status = node_watch_.ListOnce(); !status.ok()) return status;
  cycle_cause_ = "--once";
  return RunCycle(clock_->Now());  // the target and ConfigMap with GETs
}

}  // namespace propscaler
