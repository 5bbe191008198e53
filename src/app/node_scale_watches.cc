#include "app/node_scale_watches.h"

#include <glog/logging.h>

#include <atomic>
#include <memory>

#include "app/cluster_api_version.h"
#include "app/shared_flags.h"
#include "kube/wire/capacity_buffer_json.h"
#include "kube/wire/provisioning_request_json.h"
#include "nodescale/expander/priority_config_yaml.h"
#include "transport/api_discovery.h"

namespace propscaler {
namespace {

// The newest storage.k8s.io version that serves CSIStorageCapacities (v1
// from Kubernetes 1.24, v1beta1 from 1.21, v1alpha1 in 1.19-1.20 behind a
// feature gate); "" when none does. A 403 counts as served: the watch then
// says which grant is missing.
std::string ServedStorageCapacityVersion(const kube::ApiDiscovery& discovery) {
  for (const char* version : {"v1", "v1beta1", "v1alpha1"}) {
    if (discovery.ServesList(std::string("storage.k8s.io/") + version,
                             "csistoragecapacities")) {
      return version;
    }
  }
  return "";
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

}  // namespace

NodeScaleWatches::NodeScaleWatches(const kube::KubeApi* api, const Clock* clock,
                                   NodeScaleSettings* settings)
    : api_(api),
      clock_(clock),
      // Pods the scheduler gives up on are batched and scaled up for as the
      // batch closes.
      pending_(clock, settings->loop.batch,
               settings->loop.expendable_pods_priority_cutoff) {
  Watch<kube::LivePod>(
      "pods", "Grant list and watch on pods.", [api] { return api->Pods(); },
      pending_.Wrap(state_.PodSink()));
  Watch<kube::LiveNode>(
      "nodes", "Grant list and watch on nodes.",
      [api] { return api->LiveNodes(); }, state_.NodeSink());
  Watch<kube::PdbState>(
      "poddisruptionbudgets",
      "Grant list and watch on poddisruptionbudgets "
      "(policy): disruption waits for them.",
      [api] { return api->PodDisruptionBudgets(); }, state_.PdbSink());
  WatchVolumes();
  WatchServedApis(settings->loop.provisioning_requests,
                  settings->cloud_provider != "clusterapi");
  WatchConfigMaps(settings);
}

template <typename T>
void NodeScaleWatches::Watch(
    std::string what, std::string grant_hint,
    typename runtime::WatchedCollection<T>::MakeSource source,
    kube::ReflectorSink<T> sink, std::function<void(const Status&)> on_refused,
    std::function<bool()> excused) {
  auto watch = std::make_unique<runtime::WatchedCollection<T>>(
      clock_, std::move(source), std::move(sink),
      typename runtime::WatchedCollection<T>::Options{
          std::move(what), std::move(grant_hint), std::move(on_refused)},
      [](const std::string&) {});
  set_.Add(watch.get(), std::move(excused));
  owned_.push_back(std::shared_ptr<void>(std::move(watch)));
}

template <typename T>
void NodeScaleWatches::WatchVolumeKind(
    const char* kind, std::string grant_hint,
    typename runtime::WatchedCollection<T>::MakeSource source,
    kube::ReflectorSink<T> sink) {
  LiveObjectStore* state = &state_;
  auto said = std::make_shared<std::atomic<bool>>(false);
  auto on_refused = [state, kind, grant_hint, said](const Status& refused) {
    LOG_IF(WARNING, !said->exchange(true))
        << refused.message() << ": pods with claims are held until it is "
        << "granted; the others are served. " << grant_hint;
    state->MarkUnreadable(kind, refused.message() + ". " + grant_hint);
  };
  Watch<T>(kind, grant_hint, std::move(source), std::move(sink), on_refused,
           [state, kind] { return state->IsUnreadable(kind); });
}

// Where pods' volumes may go (plan/simulation/volume_needs.h).
void NodeScaleWatches::WatchVolumes() {
  const kube::KubeApi* api = api_;
  WatchVolumeKind<kube::PersistentVolume>(
      kPersistentVolumes,
      "Grant list and watch on persistentvolumes: pods with claims are "
      "placed where their volumes are.",
      [api] { return api->PersistentVolumes(); }, state_.VolumeSink());
  WatchVolumeKind<kube::PersistentVolumeClaim>(
      kPersistentVolumeClaims,
      "Grant list and watch on persistentvolumeclaims: pods with claims are "
      "placed where their volumes are.",
      [api] { return api->PersistentVolumeClaims(); }, state_.ClaimSink());
  WatchVolumeKind<kube::StorageClass>(
      kStorageClasses,
      "Grant list and watch on storageclasses (storage.k8s.io): pods with "
      "claims are placed where their volumes can be made.",
      [api] { return api->StorageClasses(); }, state_.StorageClassSink());
  WatchVolumeKind<kube::CsiNode>(
      kCsiNodes,
      "Grant list and watch on csinodes (storage.k8s.io): nodes at their "
      "CSI attach limit take no more volumes.",
      [api] { return api->CsiNodes(); }, state_.CsiNodeSink());
  WatchVolumeKind<kube::CsiDriver>(
      kCsiDrivers,
      "Grant list and watch on csidrivers (storage.k8s.io): a driver that "
      "checks storage capacity provisions only where there is room.",
      [api] { return api->CsiDrivers(); }, state_.CsiDriverSink());
}

// The APIs a server may not serve (an old release, a CRD not installed):
// each watched where it is served, and said once where it is not.
void NodeScaleWatches::WatchServedApis(bool provisioning_requests,
                                       bool node_pools) {
  const kube::KubeApi* api = api_;
  const kube::ApiDiscovery discovery(api);
  if (const std::string version = ServedStorageCapacityVersion(discovery);
      version.empty()) {
    LOG(INFO) << "the server serves no CSIStorageCapacity API "
                 "(storage.k8s.io v1, v1beta1 or v1alpha1): storage capacity "
                 "is not checked";
  } else {
    WatchVolumeKind<kube::CsiStorageCapacity>(
        kCsiStorageCapacities,
        "Grant list and watch on csistoragecapacities (storage.k8s.io): "
        "new volumes are provisioned only where there is room.",
        [api, version] { return api->CsiStorageCapacities(version); },
        state_.CsiStorageCapacitySink());
  }
  if (!discovery.Serves(kube::kCapacityBufferApi)) {
    LOG(INFO) << "the server does not serve " << kube::kCapacityBufferApi
              << ": no CapacityBuffers (install their CRD and restart to "
                 "use them)";
  } else {
    Watch<kube::CapacityBuffer>(
        "capacitybuffers",
        "Grant list and watch on capacitybuffers (autoscaling.x-k8s.io).",
        [api] { return api->CapacityBuffers(); },
        pending_.WrapBuffers(state_.BufferSink()));
  }
  if (node_pools) WatchNodePools(discovery);
  if (!provisioning_requests) return;
  if (!discovery.Serves(kube::kProvisioningRequestApi)) {
    LOG(WARNING) << "--enable-provisioning-requests: the server does not "
                    "serve "
                 << kube::kProvisioningRequestApi
                 << ": no ProvisioningRequests (install their CRD and "
                    "restart to serve them)";
    return;
  }
  Watch<kube::ProvisioningRequest>(
      "provisioningrequests",
      "Grant list and watch on provisioningrequests (autoscaling.x-k8s.io).",
      [api] { return api->ProvisioningRequests(); },
      state_.ProvisioningRequestSink());
  Watch<kube::PodTemplate>(
      "podtemplates",
      "Grant list and watch on podtemplates: ProvisioningRequests' pods "
      "come from them.",
      [api] { return api->PodTemplates(); }, state_.PodTemplateSink());
}

// Karpenter's NodePools for the kwok provider, where their CRD is served.
void NodeScaleWatches::WatchNodePools(const kube::ApiDiscovery& discovery) {
  if (!discovery.ServesList("karpenter.sh/v1", "nodepools")) {
    LOG(INFO) << "the server does not serve NodePools (karpenter.sh/v1): "
                 "NodePools come from the node-group ConfigMap only "
                 "(install their CRD and restart to watch them)";
    return;
  }
  const kube::KubeApi* api = api_;
  Watch<kube::RawObject>(
      "nodepools", "Grant list and watch on nodepools (karpenter.sh).",
      [api] { return api->NodePools(); }, state_.NodePoolSink());
  node_pools_watched_ = true;
}

// kwok's node groups and Cluster Autoscaler's priority expander config.
void NodeScaleWatches::WatchConfigMaps(NodeScaleSettings* settings) {
  const std::string& ns = settings->loop.namespace_;
  node_groups_ = WatchedIf(settings->cloud_provider != "clusterapi", clock_,
                           api_, ns, settings->node_group_config);
  priorities_ =
      WatchedIf(settings->loop.expander.find("priority") != std::string::npos,
                clock_, api_, ns, nodescale::kPriorityExpanderConfigMap);
  if (node_groups_) set_.Add(node_groups_.get());
  if (priorities_) {
    set_.Add(priorities_.get());
    settings->loop.read_priority_config = [this] {
      return priorities_->Read();
    };
  }
}

Status NodeScaleWatches::WatchClusterApi(const kube::KubeApi* management) {
  management_ = management;
  Result<kube::ClusterApiVersion> resolved = ResolveClusterApiVersion(
      *management, EnvOrEmpty("CAPI_GROUP"), EnvOrEmpty("CAPI_VERSION"));
  if (!resolved.ok()) return resolved.status();
  cluster_api_ = *resolved;
  LOG(INFO) << "Cluster API objects are read and written as "
            << cluster_api_.GroupVersion();
  // MachinePools are optional in Cluster API: watched where served.
  Result<bool> pools =
      ClusterApiServes(*management, cluster_api_, "machinepools");
  if (!pools.ok()) return pools.status();
  if (!*pools) {
    LOG(INFO) << cluster_api_.GroupVersion()
              << " serves no machinepools: no MachinePool groups";
    cluster_api_objects_.NotServed(nodescale::ClusterApiObjects::kMachinePools);
  }
  using Objects = nodescale::ClusterApiObjects;
  for (int kind = 0; kind < Objects::kKinds; ++kind) {
    if (kind == Objects::kMachinePools && !*pools) continue;
    const std::string resource = Objects::kResources[kind];
    auto watch =
        std::make_unique<runtime::WatchedCollection<kube::ClusterApiObject>>(
            clock_,
            [management, this, resource] {
              return management->ClusterApiObjects(cluster_api_, resource);
            },
            cluster_api_objects_.Sink(static_cast<Objects::Kind>(kind)),
            runtime::WatchedCollection<kube::ClusterApiObject>::Options{
                resource, "Grant list and watch on " + resource + " (" +
                              cluster_api_.group + ")."},
            [](const std::string&) {});
    set_.Add(watch.get());
    cluster_api_watches_.emplace_back(watch.get(), resource);
    owned_.push_back(std::shared_ptr<void>(std::move(watch)));
  }
  return Status::Ok();
}

Status NodeScaleWatches::ClusterApiStillServed() const {
  const bool pinned = !EnvOrEmpty("CAPI_VERSION").empty();
  for (const auto& [watch, resource] : cluster_api_watches_) {
    Status served = StillServed(*management_, cluster_api_, pinned, resource,
                                watch->LastError());
    if (!served.ok()) return served;
  }
  return Status::Ok();
}

}  // namespace propscaler
