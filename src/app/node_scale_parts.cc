#include "app/node_scale_parts.h"

#include <gflags/gflags.h>
#include <glog/logging.h>

#include <utility>

#include "app/shared_flags.h"
#include "nodescale/provider/clusterapi.h"
#include "nodescale/provider/kwok.h"
#include "nodescale/run/loop_runner.h"
#include "nodescale/report/status_page.h"

namespace propscaler {
namespace {

// `management`: where Cluster API's objects are (the workload cluster's
// `api` unless --cloud-config says otherwise).
std::unique_ptr<nodescale::Provider> MakeProvider(
    const kube::KubeApi* api, const kube::KubeApi* management,
    const Clock* clock, const NodeScaleSettings& settings,
    NodeScaleWatches* watches) {
  if (settings.cloud_provider == "clusterapi") {
    std::string warning;
    std::string arch = nodescale::ScaleFromZeroDefaultArch(
        EnvOrEmpty("CAPI_SCALE_ZERO_DEFAULT_ARCH"), &warning);
    LOG_IF(WARNING, !warning.empty()) << warning;
    return std::make_unique<nodescale::ClusterApiProvider>(
        management, management, clock, watches->cluster_api_objects(),
        nodescale::ClusterApiProviderOptions{watches->cluster_api(),
                                             settings.cluster_api_discovery,
                                             std::move(arch)});
  }
  runtime::WatchedObject<kube::ConfigMap>* node_groups = watches->node_groups();
  nodescale::KwokOptions options{settings.loop.namespace_,
                                 settings.node_group_config,
                                 settings.kwok_not_ready_groups,
                                 [node_groups] { return node_groups->Read(); },
                                 settings.kwok_unregistered_groups,
                                 settings.kwok_instance_types};
  if (watches->node_pools_watched()) {
    LiveObjectStore* state = watches->state();
    options.cluster_node_pools = [state] { return state->NodePools(); };
  }
  return std::make_unique<nodescale::KwokProvider>(api, clock,
                                                   std::move(options));
}

}  // namespace

Result<std::unique_ptr<NodeScaleParts>> NodeScaleParts::Make(
    ApiSession* session, const Clock* clock, NodeScaleSettings settings,
    const LeaderElectionSettings& election,
    const std::optional<kube::ClientConfig>& management) {
  std::unique_ptr<NodeScaleParts> parts(
      new NodeScaleParts(session, clock, std::move(settings), election));
  if (parts->settings_.cloud_provider == "clusterapi") {
    if (Status connected = parts->ConnectClusterApi(management);
        !connected.ok()) {
      return connected;
    }
  }
  parts->MakeProviderAndLoop();
  return parts;
}

NodeScaleParts::NodeScaleParts(ApiSession* session, const Clock* clock,
                               NodeScaleSettings settings,
                               const LeaderElectionSettings& election)
    : session_(session),
      clock_(clock),
      settings_(std::move(settings)),
      leadership_(&session->api, clock, election),
      may_act_(FLAGS_once ? std::function<bool()>([] { return true; })
                          : leadership_.MayActFunction()),
      cluster_api_(&session->api),
      watches_(&session->api, clock, &settings_),
      reporter_(&session->events, &board_, &session->api,
                settings_.loop.namespace_, settings_.status_map,
                settings_.ca_metrics, settings_.cloud_provider) {}

Status NodeScaleParts::ConnectClusterApi(
    const std::optional<kube::ClientConfig>& management) {
  if (management.has_value()) {
    management_http_.emplace(*management, clock_);
    management_api_.emplace(&*management_http_, ApiOptionsFromFlags());
    cluster_api_ = &*management_api_;
    LOG(INFO) << "Cluster API management cluster: " << management->server;
  }
  return watches_.WatchClusterApi(cluster_api_);
}

void NodeScaleParts::MakeProviderAndLoop() {
  provider_ =
      MakeProvider(&session_->api, cluster_api_, clock_, settings_, &watches_);
  loop_.emplace(nodescale::LoopClients::Of(&session_->api), provider_.get(),
                watches_.state(), &reporter_, clock_, settings_.loop, may_act_);
  // As Cluster Autoscaler's /health-check past --max-failing-time: a process
  // whose watches keep failing is restarted by its liveness probe.
  session_->health.FailWhenStaleFor(
      settings_.max_failing_time.value_or(session_->health.stall_after()));
}

Status NodeScaleParts::RunOnce() {
  if (Status listed = watches_.set().ListOnce(); !listed.ok()) return listed;
  if (Status ready = loop_->ReadyToIterate(); !ready.ok()) return ready;
  return loop_->RunOnce();
}

int NodeScaleParts::Run(StopSignal* stop) {
  watches_.set().Start(stop);
  bool unserved = false;
  // A Cluster API version that stops being served is not followed in
  // place: the process exits, and its restart discovers the one served now.
  auto staleness = [&]() -> Status {
    if (Status served = watches_.ClusterApiStillServed(); !served.ok()) {
      LOG(ERROR) << served.message();
      unserved = true;
      stop->Stop();
      return served;
    }
    session_->health.DegradedBy(watches_.state()->Unreadable());
    return watches_.set().Staleness();
  };
  nodescale::RunEveryScanInterval(&*loop_, watches_.pending(), may_act_,
                                  staleness, settings_.loop.scan_interval,
                                  &session_->health, stop);
  stop->Stop();
  watches_.set().Join();
  return unserved ? 1 : 0;
}

std::string NodeScaleParts::StatusPage() const {
  return nodescale::RenderStatusPage(
      board_.Snapshot(), {leadership_.View(), session_->health.Waiting(),
                          session_->health.Degraded()});
}

}  // namespace propscaler
