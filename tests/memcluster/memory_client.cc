#include "memcluster/memory_client.h"

#include <glog/logging.h>

#include <algorithm>
#include <cctype>

#include "apiserver/eviction_route.h"
#include "apiserver/json_util.h"
#include "apiserver/pod_resize.h"
#include "apiserver/resources.h"
#include "apiserver/scale_subresource.h"
#include "kube/model/cluster_api.h"
#include "kube/model/lease.h"
#include "kube/wire/capacity_buffer_json.h"
#include "kube/wire/cluster_api_json.h"
#include "kube/wire/counted_pod_json.h"
#include "kube/wire/decode.h"
#include "kube/wire/event_json.h"
#include "kube/wire/lease_json.h"
#include "kube/wire/node_scale_bodies.h"
#include "kube/wire/node_taint_patch.h"
#include "kube/wire/pod_decode.h"
#include "kube/wire/pod_template_json.h"
#include "kube/wire/provisioning_request_json.h"
#include "kube/wire/raw_object_json.h"
#include "kube/wire/resized_pod_json.h"
#include "kube/wire/volumes_json.h"
#include "memcluster/memory_list_watch.h"

namespace propscaler::memcluster {
namespace {

const sim::ResourceType& TypeNamed(const char* plural) {
  return *sim::FindResourceType(plural);
}

// The request body as the server would parse it.
Result<rapidjson::Document> Parse(const std::string& json) {
  rapidjson::Document doc;
  std::string error;
  if (!sim::ParseJsonObject(json, &doc, &error)) {
    return Status::Invalid("request body: " + error);
  }
  return doc;
}

Result<kube::ConfigMap> ConfigMapFrom(
    const sim::ApiResult<sim::ObjectPtr>& stored) {
  if (!stored.ok()) return stored.error().ToStatus();
  return kube::DecodeConfigMap(stored.value()->json);
}

Result<kube::Lease> LeaseFrom(const sim::ApiResult<sim::ObjectPtr>& stored) {
  if (!stored.ok()) return stored.error().ToStatus();
  return kube::DecodeLease(stored.value()->json);
}

Status StatusOf(const sim::ApiResult<sim::ObjectPtr>& result) {
  return result.ok() ? Status::Ok() : result.error().ToStatus();
}

Result<kube::Scale> ScaleFrom(const sim::ApiResult<std::string>& body) {
  if (!body.ok()) return body.error().ToStatus();
  return kube::DecodeScale(body.value());
}

// The target's scale subresource, after the fault check of `verb` on it.
Result<sim::ResourcePath> ScaleCall(const MemoryCluster& cluster,
                                    const char* verb, const std::string& ns,
                                    const kube::ScaleTarget& target) {
  const sim::ResourceType* type = sim::FindResourceType(target.ApiKind());
  if (type == nullptr) {
    return Status::NotFound("no resource of kind " + target.ApiKind());
  }
  const Status fault =
      cluster.CheckFault(std::string(verb) + " " + type->plural + "/scale");
  if (!fault.ok()) return fault;
  return sim::ResourcePath{type, ns, target.name, "scale"};
}

}  // namespace

std::unique_ptr<kube::ListWatch<kube::NodeInfo>> MemoryClient::CountedNodes(
    const std::string& label_selector, const TaintFilter& excluded,
    kube::CountedCpu cpu) const {
  std::multimap<std::string, std::string> params;
  if (!label_selector.empty()) params.emplace("labelSelector", label_selector);
  return std::make_unique<MemoryListWatch<kube::NodeInfo>>(
      cluster_, sim::ResourcePath{&TypeNamed("nodes"), "", "", ""},
      std::move(params), kube::CountedNodeCodec(excluded, cpu));
}

std::unique_ptr<kube::ListWatch<kube::CountedPod>> MemoryClient::CountedPods(
    const std::string& ns, const std::string& label_selector) const {
  std::multimap<std::string, std::string> params;
  if (!label_selector.empty()) params.emplace("labelSelector", label_selector);
  return std::make_unique<MemoryListWatch<kube::CountedPod>>(
      cluster_, sim::ResourcePath{&TypeNamed("pods"), ns, "", ""},
      std::move(params), kube::CountedPodCodec());
}

Result<kube::PodTemplateWorkload> MemoryClient::GetPodTemplate(
    const std::string& ns, const kube::WorkloadRef& target) const {
  const std::string collection = target.Collection();
  if (Status fault = cluster_->CheckFault("get " + collection); !fault.ok()) {
    return fault;
  }
  sim::ApiResult<sim::ObjectPtr> stored =
      cluster_->store().Get(TypeNamed(collection.c_str()), ns, target.name);
  if (!stored.ok()) return stored.error().ToStatus();
  return kube::DecodePodTemplateWorkload(stored.value()->json);
}

std::unique_ptr<kube::ListWatch<kube::PodTemplateWorkload>>
MemoryClient::PodTemplateNamed(const std::string& ns,
                               const kube::WorkloadRef& target) const {
  const std::string collection = target.Collection();
  return std::make_unique<MemoryListWatch<kube::PodTemplateWorkload>>(
      cluster_, sim::ResourcePath{&TypeNamed(collection.c_str()), ns, "", ""},
      std::multimap<std::string, std::string>{
          {"fieldSelector", "metadata.name=" + target.name}},
      kube::PodTemplateCodec());
}

Result<kube::PodTemplateWorkload> MemoryClient::PatchContainerResources(
    const std::string& ns, const kube::WorkloadRef& target,
    const std::string& resource_version,
    const std::vector<kube::ContainerResourcesEdit>& edits) const {
  const std::string collection = target.Collection();
  if (Status fault = cluster_->CheckFault("patch " + collection); !fault.ok()) {
    return fault;
  }
  Result<rapidjson::Document> patch =
      Parse(kube::EncodeContainerResourcesPatch(resource_version, edits));
  if (!patch.ok()) return patch.status();
  sim::ApiResult<sim::ObjectPtr> stored =
      cluster_->store().Patch(TypeNamed(collection.c_str()), ns, target.name,
                              *patch, sim::ObjectStore::PatchType::kStrategic);
  if (!stored.ok()) return stored.error().ToStatus();
  cluster_->Answering("patch " + collection);
  return kube::DecodePodTemplateWorkload(stored.value()->json);
}

std::unique_ptr<kube::ListWatch<kube::ConfigMap>> MemoryClient::ConfigMapNamed(
    const std::string& ns, const std::string& name) const {
  return std::make_unique<MemoryListWatch<kube::ConfigMap>>(
      cluster_, sim::ResourcePath{&TypeNamed("configmaps"), ns, "", ""},
      std::multimap<std::string, std::string>{
          {"fieldSelector", "metadata.name=" + name}},
      kube::ConfigMapCodec());
}

Result<kube::ConfigMap> MemoryClient::GetConfigMap(
    const std::string& ns, const std::string& name) const {
  if (Status fault = cluster_->CheckFault("get configmaps"); !fault.ok()) {
    return fault;
  }
  return ConfigMapFrom(
      cluster_->store().Get(TypeNamed("configmaps"), ns, name));
}

Result<kube::ConfigMap> MemoryClient::CreateConfigMap(
    const kube::ConfigMap& config_map) const {
  if (Status fault = cluster_->CheckFault("create configmaps"); !fault.ok()) {
    return fault;
  }
  Result<rapidjson::Document> doc = Parse(kube::EncodeConfigMap(config_map));
  if (!doc.ok()) return doc.status();
  return ConfigMapFrom(cluster_->store().Create(
      TypeNamed("configmaps"), config_map.namespace_, std::move(doc).value()));
}

Result<kube::ConfigMap> MemoryClient::UpdateConfigMap(
    const kube::ConfigMap& config_map) const {
  if (Status fault = cluster_->CheckFault("update configmaps"); !fault.ok()) {
    return fault;
  }
  const sim::ResourceType& type = TypeNamed("configmaps");
  sim::ApiResult<sim::ObjectPtr> stored =
      cluster_->store().Get(type, config_map.namespace_, config_map.name);
  if (!stored.ok()) return stored.error().ToStatus();
  Result<std::string> edited =
      kube::EditedConfigMapJson(stored.value()->json, config_map);
  if (!edited.ok()) return edited.status();
  Result<rapidjson::Document> doc = Parse(*edited);
  if (!doc.ok()) return doc.status();
  Result<kube::ConfigMap> written = ConfigMapFrom(cluster_->store().Update(
      type, config_map.namespace_, config_map.name, std::move(doc).value()));
  if (written.ok()) cluster_->Answering("update configmaps");
  return written;
}

std::unique_ptr<kube::ListWatch<kube::Scale>> MemoryClient::TargetNamed(
    const std::string& ns, const kube::ScaleTarget& target) const {
  const sim::ResourceType* type = sim::FindResourceType(target.ApiKind());
  CHECK(type != nullptr) << target.ApiKind();
  return std::make_unique<MemoryListWatch<kube::Scale>>(
      cluster_, sim::ResourcePath{type, ns, "", ""},
      std::multimap<std::string, std::string>{
          {"fieldSelector", "metadata.name=" + target.name}},
      kube::WorkloadScaleCodec());
}

std::unique_ptr<kube::ListWatch<kube::Scale>> MemoryClient::TargetsSelected(
    const std::string& ns, const kube::TargetSelector& selector) const {
  const kube::ScaleTarget any = selector.Named("");
  const sim::ResourceType* type = sim::FindResourceType(any.ApiKind());
  CHECK(type != nullptr) << any.ApiKind();
  return std::make_unique<MemoryListWatch<kube::Scale>>(
      cluster_, sim::ResourcePath{type, ns, "", ""},
      std::multimap<std::string, std::string>{
          {"labelSelector", selector.label_selector}},
      kube::WorkloadScaleCodec());
}

Result<kube::Scale> MemoryClient::GetScale(
    const std::string& ns, const kube::ScaleTarget& target) const {
  Result<sim::ResourcePath> path = ScaleCall(*cluster_, "get", ns, target);
  if (!path.ok()) return path.status();
  return ScaleFrom(sim::GetScale(cluster_->store(), *path));
}

Result<kube::Scale> MemoryClient::PatchScale(const std::string& ns,
                                             const kube::ScaleTarget& target,
                                             int64_t replicas) const {
  Result<sim::ResourcePath> path = ScaleCall(*cluster_, "patch", ns, target);
  if (!path.ok()) return path.status();
  Result<rapidjson::Document> patch =
      Parse(kube::EncodeReplicasPatch(replicas));
  if (!patch.ok()) return patch.status();
  Result<kube::Scale> written =
      ScaleFrom(sim::PatchScale(cluster_->store(), *path, *patch));
  if (written.ok())
    cluster_->Answering("patch " + path->type->plural + "/scale");
  return written;
}

Result<kube::Scale> MemoryClient::UpdateScale(const std::string& ns,
                                              const kube::ScaleTarget& target,
                                              const kube::Scale& read,
                                              int64_t replicas) const {
  Result<sim::ResourcePath> path = ScaleCall(*cluster_, "update", ns, target);
  if (!path.ok()) return path.status();
  Result<rapidjson::Document> scale = Parse(kube::EncodeScaleUpdate(
      ns, target.name, read.resource_version, replicas));
  if (!scale.ok()) return scale.status();
  Result<kube::Scale> written =
      ScaleFrom(sim::PutScale(cluster_->store(), *path, *scale));
  if (written.ok()) {
    cluster_->Answering("update " + path->type->plural + "/scale");
  }
  return written;
}

std::unique_ptr<kube::ListWatch<kube::ResizedPod>> MemoryClient::ResizablePods(
    const std::string& ns, const std::string& label_selector) const {
  std::multimap<std::string, std::string> params;
  if (!label_selector.empty()) params.emplace("labelSelector", label_selector);
  return std::make_unique<MemoryListWatch<kube::ResizedPod>>(
      cluster_, sim::ResourcePath{&TypeNamed("pods"), ns, "", ""},
      std::move(params), kube::ResizedPodCodec());
}

Result<kube::ResizedPod> MemoryClient::ResizePod(
    const std::string& ns, const std::string& name,
    const std::string& resource_version,
    const std::vector<kube::ContainerResourcesEdit>& edits) const {
  if (Status fault = cluster_->CheckFault("patch pods/resize"); !fault.ok()) {
    return fault;
  }
  Result<rapidjson::Document> patch =
      Parse(kube::EncodePodResizePatch(resource_version, edits));
  if (!patch.ok()) return patch.status();
  sim::ApiResult<std::string> resized =
      sim::ResizePod(cluster_->store(),
                     sim::ResourcePath{&TypeNamed("pods"), ns, name, "resize"},
                     *patch, sim::ObjectStore::PatchType::kStrategic);
  if (!resized.ok()) return resized.error().ToStatus();
  cluster_->Answering("patch pods/resize");
  return kube::DecodeResizedPod(resized.value());
}

std::unique_ptr<kube::ListWatch<kube::HpaRef>>
MemoryClient::HorizontalPodAutoscalers(const std::string& ns) const {
  return std::make_unique<MemoryListWatch<kube::HpaRef>>(
      cluster_,
      sim::ResourcePath{&TypeNamed("horizontalpodautoscalers"), ns, "", ""},
      std::multimap<std::string, std::string>{}, kube::HpaCodec());
}

namespace {

// The HPA type, when autoscaling/`version` serves it.
Result<const sim::ResourceType*> HpaType(const std::string& version) {
  std::optional<sim::ResourcePath> path = sim::ParseResourcePath(
      "/apis/autoscaling/" + version + "/horizontalpodautoscalers");
  if (!path.has_value()) {
    return Status::NotFound("autoscaling/" + version +
                            " horizontalpodautoscalers: HTTP 404: not served");
  }
  return path->type;
}

}  // namespace

std::unique_ptr<kube::ListWatch<kube::HpaRef>> MemoryClient::HpaNamed(
    const std::string& ns, const std::string& name,
    const std::string& version) const {
  Result<const sim::ResourceType*> type = HpaType(version);
  CHECK(type.ok()) << type.status().message();
  return std::make_unique<MemoryListWatch<kube::HpaRef>>(
      cluster_, sim::ResourcePath{*type, ns, "", ""},
      std::multimap<std::string, std::string>{
          {"fieldSelector", "metadata.name=" + name}},
      kube::HpaCodec());
}

Result<kube::HpaRef> MemoryClient::GetHpa(const std::string& ns,
                                          const std::string& name,
                                          const std::string& version) const {
  Result<const sim::ResourceType*> type = HpaType(version);
  if (!type.ok()) return type.status();
  if (Status fault = cluster_->CheckFault("get horizontalpodautoscalers");
      !fault.ok()) {
    return fault;
  }
  sim::ApiResult<sim::ObjectPtr> stored =
      cluster_->store().Get(**type, ns, name);
  if (!stored.ok()) return stored.error().ToStatus();
  return kube::DecodeHpa(stored.value()->json);
}

Result<kube::HpaRef> MemoryClient::PatchHpaMinReplicas(
    const std::string& ns, const std::string& name, const std::string& version,
    const std::string& resource_version, int64_t min_replicas) const {
  Result<const sim::ResourceType*> type = HpaType(version);
  if (!type.ok()) return type.status();
  if (Status fault = cluster_->CheckFault("patch horizontalpodautoscalers");
      !fault.ok()) {
    return fault;
  }
  Result<rapidjson::Document> patch =
      Parse(kube::EncodeMinReplicasPatch(resource_version, min_replicas));
  if (!patch.ok()) return patch.status();
  sim::ApiResult<sim::ObjectPtr> stored = cluster_->store().Patch(
      **type, ns, name, *patch, sim::ObjectStore::PatchType::kMerge);
  if (!stored.ok()) return stored.error().ToStatus();
  cluster_->Answering("patch horizontalpodautoscalers");
  return kube::DecodeHpa(stored.value()->json);
}

Status MemoryClient::CreateEvent(const kube::EventInfo& event,
                                 const std::string& component,
                                 TimePoint now) const {
  if (Status fault = cluster_->CheckFault("create events"); !fault.ok()) {
    return fault;
  }
  const std::string ns = kube::EventNamespace(event.object);
  Result<rapidjson::Document> doc =
      Parse(kube::EncodeEventJson(event, ns, component, now));
  if (!doc.ok()) return doc.status();
  return StatusOf(cluster_->store().Create(TypeNamed("events"), ns,
                                           std::move(doc).value()));
}

std::unique_ptr<kube::ListWatch<kube::LivePod>> MemoryClient::Pods() const {
  return std::make_unique<MemoryListWatch<kube::LivePod>>(
      cluster_, sim::ResourcePath{&TypeNamed("pods"), "", "", ""},
      std::multimap<std::string, std::string>{}, kube::LivePodCodec());
}

std::unique_ptr<kube::ListWatch<kube::LiveNode>> MemoryClient::LiveNodes()
    const {
  return std::make_unique<MemoryListWatch<kube::LiveNode>>(
      cluster_, sim::ResourcePath{&TypeNamed("nodes"), "", "", ""},
      std::multimap<std::string, std::string>{}, kube::LiveNodeCodec());
}

std::unique_ptr<kube::ListWatch<kube::PdbState>>
MemoryClient::PodDisruptionBudgets() const {
  return std::make_unique<MemoryListWatch<kube::PdbState>>(
      cluster_,
      sim::ResourcePath{&TypeNamed("poddisruptionbudgets"), "", "", ""},
      std::multimap<std::string, std::string>{},
      kube::PdbCodec(kube::PdbVersion::kV1));
}

std::unique_ptr<kube::ListWatch<kube::PersistentVolume>>
MemoryClient::PersistentVolumes() const {
  return std::make_unique<MemoryListWatch<kube::PersistentVolume>>(
      cluster_, sim::ResourcePath{&TypeNamed("persistentvolumes"), "", "", ""},
      std::multimap<std::string, std::string>{}, kube::PersistentVolumeCodec());
}

std::unique_ptr<kube::ListWatch<kube::PersistentVolumeClaim>>
MemoryClient::PersistentVolumeClaims() const {
  return std::make_unique<MemoryListWatch<kube::PersistentVolumeClaim>>(
      cluster_,
      sim::ResourcePath{&TypeNamed("persistentvolumeclaims"), "", "", ""},
      std::multimap<std::string, std::string>{},
      kube::PersistentVolumeClaimCodec());
}

std::unique_ptr<kube::ListWatch<kube::StorageClass>>
MemoryClient::StorageClasses() const {
  return std::make_unique<MemoryListWatch<kube::StorageClass>>(
      cluster_, sim::ResourcePath{&TypeNamed("storageclasses"), "", "", ""},
      std::multimap<std::string, std::string>{}, kube::StorageClassCodec());
}

std::unique_ptr<kube::ListWatch<kube::CsiNode>> MemoryClient::CsiNodes() const {
  return std::make_unique<MemoryListWatch<kube::CsiNode>>(
      cluster_, sim::ResourcePath{&TypeNamed("csinodes"), "", "", ""},
      std::multimap<std::string, std::string>{}, kube::CsiNodeCodec());
}

std::unique_ptr<kube::ListWatch<kube::CsiDriver>> MemoryClient::CsiDrivers()
    const {
  return std::make_unique<MemoryListWatch<kube::CsiDriver>>(
      cluster_, sim::ResourcePath{&TypeNamed("csidrivers"), "", "", ""},
      std::multimap<std::string, std::string>{}, kube::CsiDriverCodec());
}

// The in-memory cluster serves storage.k8s.io/v1 alone, whatever `version`.
std::unique_ptr<kube::ListWatch<kube::CsiStorageCapacity>>
MemoryClient::CsiStorageCapacities(std::string_view) const {
  return std::make_unique<MemoryListWatch<kube::CsiStorageCapacity>>(
      cluster_,
      sim::ResourcePath{&TypeNamed("csistoragecapacities"), "", "", ""},
      std::multimap<std::string, std::string>{},
      kube::CsiStorageCapacityCodec());
}

std::unique_ptr<kube::ListWatch<kube::CapacityBuffer>>
MemoryClient::CapacityBuffers() const {
  return std::make_unique<MemoryListWatch<kube::CapacityBuffer>>(
      cluster_, sim::ResourcePath{&TypeNamed("capacitybuffers"), "", "", ""},
      std::multimap<std::string, std::string>{}, kube::CapacityBufferCodec());
}

std::unique_ptr<kube::ListWatch<kube::RawObject>> MemoryClient::NodePools()
    const {
  return std::make_unique<MemoryListWatch<kube::RawObject>>(
      cluster_, sim::ResourcePath{&TypeNamed("nodepools"), "", "", ""},
      std::multimap<std::string, std::string>{}, kube::RawObjectCodec());
}

Result<kube::BufferChunk> MemoryClient::GetBufferChunk(
    const kube::CapacityBuffer& buffer) const {
  Result<kube::BufferChunkSource> source = kube::ChunkSourceOf(buffer);
  if (!source.ok()) return source.status();
  if (Status fault = cluster_->CheckFault("get " + source->resource);
      !fault.ok()) {
    return fault;
  }
  std::optional<sim::ResourcePath> path = sim::ParseResourcePath(source->path);
  if (!path) return Status::Internal("unparsable path " + source->path);
  sim::ApiResult<sim::ObjectPtr> stored =
      cluster_->store().Get(*path->type, path->ns, path->name);
  if (!stored.ok()) return stored.error().ToStatus();
  return source->decode(stored.value()->json);
}

Status MemoryClient::PatchCapacityBufferStatus(
    const kube::CapacityBuffer& buffer, const kube::BufferStatus& want,
    TimePoint now) const {
  if (Status fault = cluster_->CheckFault("patch capacitybuffers/status");
      !fault.ok()) {
    return fault;
  }
  Result<rapidjson::Document> doc =
      Parse(kube::EncodeBufferStatusPatch(buffer, want, now));
  if (!doc.ok()) return doc.status();
  return StatusOf(cluster_->store().Patch(
      TypeNamed("capacitybuffers"), buffer.namespace_, buffer.name, *doc));
}

std::unique_ptr<kube::ListWatch<kube::ProvisioningRequest>>
MemoryClient::ProvisioningRequests() const {
  return std::make_unique<MemoryListWatch<kube::ProvisioningRequest>>(
      cluster_,
      sim::ResourcePath{&TypeNamed("provisioningrequests"), "", "", ""},
      std::multimap<std::string, std::string>{},
      kube::ProvisioningRequestCodec());
}

std::unique_ptr<kube::ListWatch<kube::PodTemplate>> MemoryClient::PodTemplates()
    const {
  return std::make_unique<MemoryListWatch<kube::PodTemplate>>(
      cluster_, sim::ResourcePath{&TypeNamed("podtemplates"), "", "", ""},
      std::multimap<std::string, std::string>{},
      kube::RequestPodTemplateCodec());
}

Status MemoryClient::PatchProvisioningRequestConditions(
    const kube::ProvisioningRequest& request,
    const std::vector<kube::ProvReqCondition>& set) const {
  if (Status fault = cluster_->CheckFault("patch provisioningrequests/status");
      !fault.ok()) {
    return fault;
  }
  Result<rapidjson::Document> doc =
      Parse(kube::EncodeProvisioningRequestConditions(request, set));
  if (!doc.ok()) return doc.status();
  return StatusOf(cluster_->store().Patch(TypeNamed("provisioningrequests"),
                                          request.namespace_, request.name,
                                          *doc));
}

Status MemoryClient::DeleteProvisioningRequest(
    const kube::ProvisioningRequest& request) const {
  if (Status fault = cluster_->CheckFault("delete provisioningrequests");
      !fault.ok()) {
    return fault;
  }
  return StatusOf(cluster_->store().Delete(TypeNamed("provisioningrequests"),
                                           request.namespace_, request.name,
                                           {.uid = request.uid}));
}

Status MemoryClient::EditNodeTaints(const std::string& name,
                                    const kube::NodeTaintEdit& edit) const {
  const sim::ResourceType& nodes = TypeNamed("nodes");
  return kube::EditNodeTaintsWith(
      [&]() -> Result<std::string> {
        if (Status fault = cluster_->CheckFault("get nodes"); !fault.ok()) {
          return fault;
        }
        sim::ApiResult<sim::ObjectPtr> node =
            cluster_->store().Get(nodes, "", name);
        if (!node.ok()) return node.error().ToStatus();
        return node.value()->json;
      },
      [&](const std::string& merge_patch) {
        if (Status fault = cluster_->CheckFault("patch nodes"); !fault.ok()) {
          return fault;
        }
        Result<rapidjson::Document> patch = Parse(merge_patch);
        if (!patch.ok()) return patch.status();
        Status patched =
            StatusOf(cluster_->store().Patch(nodes, "", name, *patch));
        if (patched.ok()) cluster_->Answering("patch nodes");
        return patched;
      },
      name, edit);
}

Status MemoryClient::EvictPod(const std::string& ns, const std::string& name,
                              int64_t grace_seconds) const {
  if (Status fault = cluster_->CheckFault("create pods/eviction");
      !fault.ok()) {
    return fault;
  }
  const Status evicted =
      StatusOf(sim::EvictPod(&cluster_->store(), ns, name,
                             kube::EncodeEviction(ns, name, grace_seconds)));
  if (evicted.ok()) cluster_->Answering("create pods/eviction");
  return evicted;
}

Status MemoryClient::CreateSimulatedNode(const std::string& name,
                                         const kube::NodeTemplate& shape,
                                         bool ready) const {
  if (Status fault = cluster_->CheckFault("create nodes"); !fault.ok()) {
    return fault;
  }
  Result<rapidjson::Document> node =
      Parse(kube::EncodeSimulatedNode(name, shape, ready));
  if (!node.ok()) return node.status();
  const Status created = StatusOf(
      cluster_->store().Create(TypeNamed("nodes"), "", std::move(*node)));
  if (created.ok()) cluster_->Answering("create nodes");
  return created;
}

Status MemoryClient::DeleteNode(const std::string& name,
                                const std::string& uid) const {
  if (Status fault = cluster_->CheckFault("delete nodes"); !fault.ok()) {
    return fault;
  }
  const Status deleted = StatusOf(
      cluster_->store().Delete(TypeNamed("nodes"), "", name, {.uid = uid}));
  if (deleted.ok()) cluster_->Answering("delete nodes");
  return deleted;
}

Result<kube::Lease> MemoryClient::GetLease(const std::string& ns,
                                           const std::string& name) const {
  if (Status fault = cluster_->CheckFault("get leases"); !fault.ok()) {
    return fault;
  }
  return LeaseFrom(cluster_->store().Get(TypeNamed("leases"), ns, name));
}

Result<kube::Lease> MemoryClient::CreateLease(const kube::Lease& lease) const {
  if (Status fault = cluster_->CheckFault("create leases"); !fault.ok()) {
    return fault;
  }
  Result<rapidjson::Document> doc = Parse(kube::EncodeLease(lease));
  if (!doc.ok()) return doc.status();
  return LeaseFrom(cluster_->store().Create(
      TypeNamed("leases"), lease.namespace_, std::move(doc).value()));
}

Result<kube::Lease> MemoryClient::UpdateLease(const kube::Lease& lease) const {
  if (Status fault = cluster_->CheckFault("update leases"); !fault.ok()) {
    return fault;
  }
  Result<rapidjson::Document> doc = Parse(kube::EncodeLease(lease));
  if (!doc.ok()) return doc.status();
  return LeaseFrom(cluster_->store().Update(TypeNamed("leases"),
                                            lease.namespace_, lease.name,
                                            std::move(doc).value()));
}

std::unique_ptr<kube::ListWatch<kube::ClusterApiObject>>
MemoryClient::ClusterApiObjects(const kube::ClusterApiVersion&,
                                const std::string& resource) const {
  return std::make_unique<MemoryListWatch<kube::ClusterApiObject>>(
      cluster_, sim::ResourcePath{&TypeNamed(resource.c_str()), "", "", ""},
      std::multimap<std::string, std::string>{}, kube::ClusterApiCodec());
}

Status MemoryClient::AnnotateMachine(
    const kube::ClusterApiVersion&, const std::string& ns,
    const std::string& name, const std::string& key,
    const std::optional<std::string>& value) const {
  if (Status fault = cluster_->CheckFault("patch machines"); !fault.ok()) {
    return fault;
  }
  Result<rapidjson::Document> patch =
      Parse(kube::EncodeAnnotationPatch(key, value));
  if (!patch.ok()) return patch.status();
  return StatusOf(
      cluster_->store().Patch(TypeNamed("machines"), ns, name, *patch));
}

Result<kube::InfrastructureTemplate> MemoryClient::GetInfrastructureTemplate(
    const kube::InfrastructureRef& ref, const std::string& ns) const {
  std::string resource = ref.kind + "s";
  std::transform(resource.begin(), resource.end(), resource.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  const std::string what =
      "infrastructure template " + ref.kind + " " + ns + "/" + ref.name;
  const sim::ResourceType* type = sim::FindResourceType(resource);
  if (type == nullptr || type->group != ref.Group()) {
    return Status::NotFound(what + ": no version of API group " + ref.Group() +
                            " serves kind " + ref.kind);
  }
  if (Status fault = cluster_->CheckFault("get " + resource); !fault.ok()) {
    return fault;
  }
  sim::ApiResult<sim::ObjectPtr> stored =
      cluster_->store().Get(*type, ns, ref.name);
  if (!stored.ok()) return stored.error().ToStatus().WithContext(what);
  return kube::DecodeInfrastructureTemplate(stored.value()->json, what);
}

}  // namespace propscaler::memcluster
