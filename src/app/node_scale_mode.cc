#include "app/node_scale_mode.h"

#include <gflags/gflags.h>
#include <glog/logging.h>
#include <malloc.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "app/api_session.h"
#include "app/cluster_api_version.h"
#include "app/leadership.h"
#include "app/loop_runner.h"
#include "app/node_scale_flags.h"
#include "app/shared_flags.h"
#include "kube/controllers/event_recorder.h"
#include "kube/wire/capacity_buffer_json.h"
#include "kube/wire/provisioning_request_json.h"
#include "nodescale/expander/priority_config_yaml.h"
#include "nodescale/provider/clusterapi.h"
#include "nodescale/provider/clusterapi_objects.h"
#include "nodescale/provider/kwok.h"
#include "nodescale/run/loop_runner.h"
#include "nodescale/run/node_scale_reporter.h"
#include "nodescale/run/status_page.h"
#include "runtime/watch_set.h"
#include "runtime/watched_collection.h"
#include "runtime/watched_config_map.h"
#include "transport/api_discovery.h"
#include "transport/client_config.h"
#include "transport/http_client.h"

namespace propscaler {
namespace {

// `management`: where Cluster API's objects are (the workload cluster's
// `api` unless --cloud-config says otherwise).
std::unique_ptr<nodescale::Provider> MakeProvider(
    const kube::KubeApi* api, const kube::KubeApi* management,
    const Clock* clock, const NodeScaleSettings& settings,
    nodescale::ClusterApiObjects* cluster_api_objects,
    const kube::ClusterApiVersion& cluster_api,
    runtime::WatchedObject<kube::ConfigMap>* node_groups) {
  if (settings.cloud_provider == "clusterapi") {
    std::string warning;
    std::string arch = nodescale::ScaleFromZeroDefaultArch(
        EnvOrEmpty("CAPI_SCALE_ZERO_DEFAULT_ARCH"), &warning);
    LOG_IF(WARNING, !warning.empty()) << warning;
    return std::make_unique<nodescale::ClusterApiProvider>(
        management, management, clock, cluster_api_objects,
        nodescale::ClusterApiProviderOptions{
            cluster_api, settings.cluster_api_discovery, std::move(arch)});
  }
  return std::make_unique<nodescale::KwokProvider>(
      api, clock,
      nodescale::KwokOptions{settings.loop.namespace_,
                             settings.node_group_config,
                             settings.kwok_not_ready_groups,
                             [node_groups] { return node_groups->Read(); },
                             settings.kwok_unregistered_groups});
}

// A ConfigMap the loop reads every iteration, watched (a GET each time
// where RBAC refuses the watch); nullptr when `needed` is false.
std::unique_ptr<runtime::WatchedObject<kube::ConfigMap>> WatchedIf(
    bool needed, const Clock* clock, const kube::KubeApi* api,
    const std::string& ns, const std::string& name) {
  if (!needed) return nullptr;
  return runtime::WatchConfigMap(clock, api, ns, name,
                                 "configmap " + name + " changed",
                                 [](const std::string&) {});
}

// The newest storage.k8s.io version that serves CSIStorageCapacities (v1
// from Kubernetes 1.24, v1beta1 from 1.21, v1alpha1 in 1.19-1.20 behind a
// feature gate); "" when none does. Any answer but 404 (a 403 too: the
// watch then says which grant is missing) counts as served.
std::string ServedStorageCapacityVersion(const kube::KubeApi& api) {
  const kube::ApiDiscovery discovery(&api);
  for (const char* version : {"v1", "v1beta1", "v1alpha1"}) {
    if (discovery.ServesList(std::string("storage.k8s.io/") + version,
                             "csistoragecapacities")) {
      return version;
    }
  }
  return "";
}

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
  // Cluster API's management cluster, where it is not the workload one:
  // then each connection's API metrics say which cluster they count.
  Result<std::optional<kube::ClientConfig>> management =
      std::optional<kube::ClientConfig>();
  if (settings->cloud_provider == "clusterapi") {
    management = ManagementClusterConfig(settings->cloud_config,
                                         settings->cloud_config_authoritative);
    if (!management.ok()) {
      LOG(ERROR) << management.status().message();
      return kExitUsage;
    }
  }
  if (management->has_value()) {
    config->metrics_cluster = "workload";
    (*management)->metrics_cluster = "management";
  }
  const Clock& clock = RealClock::Instance();
  ApiSession session(*config, &clock, settings->loop.scan_interval);
  const kube::KubeApi& api = session.api;

  // The parts: watched pods, nodes, PodDisruptionBudgets and volume objects
  // (and Cluster API's objects), leader election, the provider, the loop and
  // its scan-interval driver.
  LiveObjectStore state;
  // Pods the scheduler gives up on are batched and scaled up for as the
  // batch closes.
  nodescale::PendingPodTrigger pending(
      &clock, settings->loop.batch,
      settings->loop.expendable_pods_priority_cutoff);
  auto nothing_to_notify = [](const std::string&) {};
  runtime::WatchedCollection<kube::LivePod> pods(
      &clock, [&api] { return api.Pods(); }, pending.Wrap(state.PodSink()),
      {"pods", "Grant list and watch on pods."}, nothing_to_notify);
  runtime::WatchedCollection<kube::LiveNode> nodes(
      &clock, [&api] { return api.LiveNodes(); }, state.NodeSink(),
      {"nodes", "Grant list and watch on nodes."}, nothing_to_notify);
  runtime::WatchedCollection<kube::PdbState> pdbs(
      &clock, [&api] { return api.PodDisruptionBudgets(); }, state.PdbSink(),
      {"poddisruptionbudgets",
       "Grant list and watch on poddisruptionbudgets (policy): disruption "
       "waits for them."},
      nothing_to_notify);
  // Where pods' volumes may go (plan/volume_needs.h).
  runtime::WatchedCollection<kube::PersistentVolume> volumes(
      &clock, [&api] { return api.PersistentVolumes(); }, state.VolumeSink(),
      {"persistentvolumes",
       "Grant list and watch on persistentvolumes: pods with claims are "
       "placed where their volumes are."},
      nothing_to_notify);
  runtime::WatchedCollection<kube::PersistentVolumeClaim> claims(
      &clock, [&api] { return api.PersistentVolumeClaims(); },
      state.ClaimSink(),
      {"persistentvolumeclaims",
       "Grant list and watch on persistentvolumeclaims: pods with claims are "
       "placed where their volumes are."},
      nothing_to_notify);
  runtime::WatchedCollection<kube::StorageClass> storage_classes(
      &clock, [&api] { return api.StorageClasses(); }, state.StorageClassSink(),
      {"storageclasses",
       "Grant list and watch on storageclasses (storage.k8s.io): pods with "
       "claims are placed where their volumes can be made."},
      nothing_to_notify);
  runtime::WatchedCollection<kube::CsiNode> csi_nodes(
      &clock, [&api] { return api.CsiNodes(); }, state.CsiNodeSink(),
      {"csinodes",
       "Grant list and watch on csinodes (storage.k8s.io): nodes at their "
       "CSI attach limit take no more volumes."},
      nothing_to_notify);
  runtime::WatchedCollection<kube::CsiDriver> csi_drivers(
      &clock, [&api] { return api.CsiDrivers(); }, state.CsiDriverSink(),
      {"csidrivers",
       "Grant list and watch on csidrivers (storage.k8s.io): a driver that "
       "checks storage capacity provisions only where there is room."},
      nothing_to_notify);
  std::optional<runtime::WatchedCollection<kube::CsiStorageCapacity>>
      capacities;
  if (const std::string version = ServedStorageCapacityVersion(api);
      version.empty()) {
    LOG(INFO) << "the server serves no CSIStorageCapacity API "
                 "(storage.k8s.io v1, v1beta1 or v1alpha1): storage capacity "
                 "is not checked";
  } else {
    capacities.emplace(
        &clock, [&api, version] { return api.CsiStorageCapacities(version); },
        state.CsiStorageCapacitySink(),
        runtime::WatchedCollection<kube::CsiStorageCapacity>::Options{
            "csistoragecapacities",
            "Grant list and watch on csistoragecapacities (storage.k8s.io): "
            "new volumes are provisioned only where there is room."},
        nothing_to_notify);
  }
  // CapacityBuffers where the server serves their API (the CRD installed).
  std::optional<runtime::WatchedCollection<kube::CapacityBuffer>> buffers;
  if (api.Call({.path = kube::kCapacityBufferApi}).status().code() ==
      StatusCode::kNotFound) {
    LOG(INFO) << "the server does not serve " << kube::kCapacityBufferApi
              << ": no CapacityBuffers (install their CRD and restart to "
                 "use them)";
  } else {
    buffers.emplace(
        &clock, [&api] { return api.CapacityBuffers(); },
        pending.WrapBuffers(state.BufferSink()),
        runtime::WatchedCollection<kube::CapacityBuffer>::Options{
            "capacitybuffers",
            "Grant list and watch on capacitybuffers "
            "(autoscaling.x-k8s.io)."},
        nothing_to_notify);
  }
  // ProvisioningRequests, with --enable-provisioning-requests, where the
  // server serves their API (the CRD installed).
  std::optional<runtime::WatchedCollection<kube::ProvisioningRequest>>
      provisioning_requests;
  const bool provisioning_requests_served =
      settings->loop.provisioning_requests &&
      api.Call({.path = kube::kProvisioningRequestApi}).status().code() !=
          StatusCode::kNotFound;
  if (settings->loop.provisioning_requests && !provisioning_requests_served) {
    LOG(WARNING) << "--enable-provisioning-requests: the server does not "
                    "serve "
                 << kube::kProvisioningRequestApi
                 << ": no ProvisioningRequests (install their CRD and "
                    "restart to serve them)";
  } else if (provisioning_requests_served) {
    provisioning_requests.emplace(
        &clock, [&api] { return api.ProvisioningRequests(); },
        state.ProvisioningRequestSink(),
        runtime::WatchedCollection<kube::ProvisioningRequest>::Options{
            "provisioningrequests",
            "Grant list and watch on provisioningrequests "
            "(autoscaling.x-k8s.io)."},
        nothing_to_notify);
  }
  // Cluster API's objects, watched as the pods and nodes are, in the
  // version Cluster Autoscaler would pick, in the management cluster (its
  // own connection: TLS, token, watches) when --cloud-config names one.
  nodescale::ClusterApiObjects cluster_api_objects;
  kube::ClusterApiVersion cluster_api;
  std::optional<kube::HttpClient> management_http;
  std::optional<kube::KubeApi> management_api;
  const kube::KubeApi* capi = &api;
  std::vector<
      std::unique_ptr<runtime::WatchedCollection<kube::ClusterApiObject>>>
      cluster_api_watches;
  std::vector<std::string> cluster_api_resources;  // each watch's
  if (settings->cloud_provider == "clusterapi") {
    if (management->has_value()) {
      management_http.emplace(**management, &clock);
      management_api.emplace(&*management_http, ApiOptionsFromFlags());
      capi = &*management_api;
      LOG(INFO) << "Cluster API management cluster: " << (*management)->server;
    }
    Result<kube::ClusterApiVersion> resolved = ResolveClusterApiVersion(
        *capi, EnvOrEmpty("CAPI_GROUP"), EnvOrEmpty("CAPI_VERSION"));
    if (!resolved.ok()) {
      LOG(ERROR) << resolved.status().message();
      return 1;
    }
    cluster_api = *resolved;
    LOG(INFO) << "Cluster API objects are read and written as "
              << cluster_api.GroupVersion();
    // MachinePools are optional in Cluster API: watched where served.
    Result<bool> pools = ClusterApiServes(*capi, cluster_api, "machinepools");
    if (!pools.ok()) {
      LOG(ERROR) << pools.status().message();
      return 1;
    }
    if (!*pools) {
      LOG(INFO) << cluster_api.GroupVersion()
                << " serves no machinepools: no MachinePool groups";
      cluster_api_objects.NotServed(
          nodescale::ClusterApiObjects::kMachinePools);
    }
    for (int kind = 0; kind < nodescale::ClusterApiObjects::kKinds; ++kind) {
      const std::string resource =
          nodescale::ClusterApiObjects::kResources[kind];
      if (kind == nodescale::ClusterApiObjects::kMachinePools && !*pools) {
        continue;
      }
      cluster_api_resources.push_back(resource);
      cluster_api_watches.push_back(
          std::make_unique<runtime::WatchedCollection<kube::ClusterApiObject>>(
              &clock,
              [capi, &cluster_api, resource] {
                return capi->ClusterApiObjects(cluster_api, resource);
              },
              cluster_api_objects.Sink(
                  static_cast<nodescale::ClusterApiObjects::Kind>(kind)),
              runtime::WatchedCollection<kube::ClusterApiObject>::Options{
                  resource, "Grant list and watch on " + resource + " (" +
                                cluster_api.group + ")."},
              nothing_to_notify));
    }
  }
  // The ConfigMaps read every iteration: kwok's node groups and Cluster
  // Autoscaler's priority expander config.
  std::unique_ptr<runtime::WatchedObject<kube::ConfigMap>> node_groups =
      WatchedIf(settings->cloud_provider != "clusterapi", &clock, &api,
                settings->loop.namespace_, settings->node_group_config);
  std::unique_ptr<runtime::WatchedObject<kube::ConfigMap>> priorities =
      WatchedIf(settings->loop.expander.find("priority") != std::string::npos,
                &clock, &api, settings->loop.namespace_,
                nodescale::kPriorityExpanderConfigMap);
  if (priorities) {
    settings->loop.read_priority_config = [&priorities] {
      return priorities->Read();
    };
  }
  Leadership leadership(&api, &clock, *election);
  // --once acts without electing (it ignores --leader-elect).
  const std::function<bool()> may_act =
      FLAGS_once ? std::function<bool()>([] { return true; })
                 : leadership.MayActFunction();
  std::unique_ptr<nodescale::Provider> provider =
      MakeProvider(&api, capi, &clock, *settings, &cluster_api_objects,
                   cluster_api, node_groups.get());
  nodescale::NodeScaleStatusBoard board;
  const nodescale::NodeScaleReporter reporter(&session.events, &board, &api,
                                              settings->loop.namespace_);
  nodescale::NodeScaleLoop loop(&api, provider.get(), &state, &reporter, &clock,
                                settings->loop, may_act);

  runtime::WatchSet watches;
  watches.Add(&pods);
  watches.Add(&nodes);
  watches.Add(&pdbs);
  watches.Add(&volumes);
  watches.Add(&claims);
  watches.Add(&storage_classes);
  watches.Add(&csi_nodes);
  watches.Add(&csi_drivers);
  if (capacities) watches.Add(&*capacities);
  if (buffers) watches.Add(&*buffers);
  if (provisioning_requests) watches.Add(&*provisioning_requests);
  for (auto& watch : cluster_api_watches) watches.Add(watch.get());
  if (node_groups) watches.Add(node_groups.get());
  if (priorities) watches.Add(priorities.get());
  // As Cluster Autoscaler's /health-check past --max-failing-time: a process
  // whose watches keep failing is restarted by its liveness probe.
  session.health.FailWhenStaleFor(
      settings->max_failing_time.value_or(session.health.stall_after()));

  return RunLoop(
      clock, &session.health,
      {.once = [&]() -> Status {
         if (Status listed = watches.ListOnce(); !listed.ok()) {
           return listed;
         }
         if (Status ready = loop.ReadyToIterate(); !ready.ok()) {
           return ready;
         }
         return loop.RunOnce();
       },
       .run =
           [&](StopSignal* stop) {
             watches.Start(stop);
             bool unserved = false;
             const bool version_pinned = !EnvOrEmpty("CAPI_VERSION").empty();
             // A Cluster API version that stops being served is
             // not followed in place: the process exits, and its
             // restart discovers the version served now.
             auto staleness = [&]() -> Status {
               for (size_t i = 0; i < cluster_api_watches.size(); ++i) {
                 Status served =
                     StillServed(*capi, cluster_api, version_pinned,
                                 cluster_api_resources[i],
                                 cluster_api_watches[i]->LastError());
                 if (!served.ok()) {
                   LOG(ERROR) << served.message();
                   unserved = true;
                   stop->Stop();
                   return served;
                 }
               }
               return watches.Staleness();
             };
             nodescale::RunEveryScanInterval(
                 &loop, &pending, may_act, staleness,
                 settings->loop.scan_interval, &session.health, stop);
             stop->Stop();
             watches.Join();
             return unserved ? 1 : 0;
           },
       .status_page =
           [&board, &leadership] {
             return nodescale::RenderStatusPage(board.Snapshot(),
                                                leadership.View());
           },
       .start_lines = {"propscaler " PROPSCALER_VERSION
                       " node-scale mode, provider " +
                       settings->cloud_provider + ", namespace " +
                       settings->loop.namespace_ + ", identity " +
                       election->config.identity + ", against " +
                       config->server},
       .elector = leadership.elector()});
}

}  // namespace propscaler
