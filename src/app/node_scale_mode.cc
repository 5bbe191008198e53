#include "app/node_scale_mode.h"

#include <gflags/gflags.h>
#include <glog/logging.h>
#include <malloc.h>

#include <optional>
#include <string>

#include "app/api_session.h"
#include "app/cluster_api_version.h"
#include "app/loop_runner.h"
#include "app/node_scale_flags.h"
#include "app/node_scale_parts.h"
#include "app/shared_flags.h"
#include "transport/client_config.h"

namespace propscaler {
namespace {

// Lists of pods arrive as pages of several MB, decoded into documents of
// 64 KB blocks, interleaved with the small objects the store keeps. With
// glibc's default (a threshold that rises to the largest block freed, up to
// 32 MB) those blocks come from the heap and, once freed, stay resident
// between the kept objects: 1,000 nodes x 30,000 pods on kube-apiserver
// held 81 MiB instead of 61 (bench/HISTORY.md). Blocks of 64 KB and more are
// mapped and given back to the system when freed.
void ReturnLargeBlocksToTheSystem() {
  constexpr int kThresholdBytes = 64 * 1024;
  if (mallopt(M_MMAP_THRESHOLD, kThresholdBytes) != 1) {
    LOG(WARNING) << "mallopt(M_MMAP_THRESHOLD, " << kThresholdBytes
                 << ") failed; memory may stay resident after lists";
  }
}

// Cluster API's management cluster, where it is not the workload one:
// then each connection's API metrics say which cluster they count.
Result<std::optional<kube::ClientConfig>> ManagementCluster(
    const NodeScaleSettings& settings, kube::ClientConfig* workload) {
  if (settings.cloud_provider != "clusterapi") {
    return std::optional<kube::ClientConfig>();
  }
  Result<std::optional<kube::ClientConfig>> management =
      ManagementClusterConfig(settings.cloud_config,
                              settings.cloud_config_authoritative);
  if (management.ok() && management->has_value()) {
    workload->metrics_cluster = "workload";
    (*management)->metrics_cluster = "management";
  }
  return management;
}

}  // namespace

int RunNodeScaleMode() {
  ReturnLargeBlocksToTheSystem();
  // Every flag is checked before the configuration is read.
  Result<NodeScaleSettings> settings = NodeScaleSettingsFromFlags("");
  if (!settings.ok()) {
    LOG(ERROR) << settings.status().message();
    return kExitUsage;
  }
  Result<LeaderElectionSettings> election =
      LeaderElectionFromFlags(/*elect_by_default=*/true, "propscaler", "");
  if (!election.ok()) {
    LOG(ERROR) << election.status().message();
    return kExitUsage;
  }
  Result<kube::ClientConfig> config = LoadClientConfigFromFlags();
  if (!config.ok()) {
    LOG(ERROR) << config.status().message();
    return kExitUsage;
  }
  // Cluster Autoscaler's --namespace defaults to kube-system.
  Result<std::string> ns = NamespaceFromFlags(*config, "kube-system");
  if (!ns.ok()) {
    LOG(ERROR) << ns.status().message();
    return kExitUsage;
  }
  settings->loop.namespace_ = *ns;
  election->config.namespace_ = *ns;
  Result<std::optional<kube::ClientConfig>> management =
      ManagementCluster(*settings, &*config);
  if (!management.ok()) {
    LOG(ERROR) << management.status().message();
    return kExitUsage;
  }
  const Clock& clock = RealClock::Instance();
  ApiSession session(*config, &clock, settings->loop.scan_interval);
  const std::string start_line =
      "propscaler " PROPSCALER_VERSION " node-scale mode, provider " +
      settings->cloud_provider + ", namespace " + settings->loop.namespace_ +
      ", identity " + election->config.identity + ", against " + config->server;
  Result<std::unique_ptr<NodeScaleParts>> parts = NodeScaleParts::Make(
      &session, &clock, *std::move(settings), *election, *management);
  if (!parts.ok()) {
    LOG(ERROR) << parts.status().message();
    return 1;
  }
  NodeScaleParts& mode = **parts;
  return RunLoop(clock, &session.health,
                 {.once = [&mode] { return mode.RunOnce(); },
                  .run = [&mode](StopSignal* stop) { return mode.Run(stop); },
                  .status_page = [&mode] { return mode.StatusPage(); },
                  .start_lines = {start_line},
                  .elector = mode.elector()});
}

}  // namespace propscaler
