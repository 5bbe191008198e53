#include "transport/api.h"

#include <algorithm>
#include <thread>

#include "kube/wire/capacity_buffer_json.h"
#include "kube/wire/cluster_api_json.h"
#include "kube/wire/counted_pod_json.h"
#include "kube/wire/decode.h"
#include "kube/wire/event_json.h"
#include "kube/wire/json_fields.h"
#include "kube/wire/lease_json.h"
#include "kube/wire/node_scale_bodies.h"
#include "kube/wire/node_taint_patch.h"
#include "kube/wire/pod_decode.h"
#include "kube/wire/pod_template_json.h"
#include "kube/wire/proto_wire.h"
#include "kube/wire/provisioning_request_json.h"
#include "kube/wire/raw_object_json.h"
#include "kube/wire/resized_pod_json.h"
#include "kube/wire/volumes_json.h"
#include "transport/api_discovery.h"
#include "transport/chunk_pipe.h"
#include "transport/http_list_watch.h"

namespace propscaler::kube {
namespace {

StatusCode CodeForHttp(long http_status) {
  switch (http_status) {
    case 401:
      return StatusCode::kUnauthenticated;
    case 403:
      return StatusCode::kPermissionDenied;
    case 404:
      return StatusCode::kNotFound;
    case 409:
      return StatusCode::kConflict;
    case 410:
      return StatusCode::kGone;
    case 422:
    case 400:
      return StatusCode::kInvalidArgument;
    case 429:
      return StatusCode::kUnavailable;
    default:
      return http_status >= 500 ? StatusCode::kUnavailable
                                : StatusCode::kInternal;
  }
}

std::string CollectionQuery(const Collection& collection) {
  std::string query;
  if (!collection.label_selector.empty()) {
    query += "&labelSelector=" + QueryEscape(collection.label_selector);
  }
  if (!collection.field_selector.empty()) {
    query += "&fieldSelector=" + QueryEscape(collection.field_selector);
  }
  return query;
}

std::string PathOf(const HttpRequest& request) {
  return request.path.substr(0, request.path.find('?'));
}

std::string ConfigMapPath(const std::string& ns, const std::string& name) {
  return "/api/v1/namespaces/" + ns + "/configmaps" +
         (name.empty() ? "" : "/" + name);
}

std::string HpaCollectionPath(const std::string& ns,
                              const std::string& version = "v1") {
  return "/apis/autoscaling/" + version + "/namespaces/" + ns +
         "/horizontalpodautoscalers";
}

}  // namespace

std::string QueryEscape(std::string_view value) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : value) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

Status StatusFromHttp(const HttpRequest& request,
                      const HttpResponse& response) {
  if (response.status >= 200 && response.status < 300) return Status::Ok();
  std::string message = request.method + " " + PathOf(request) + ": HTTP " +
                        std::to_string(response.status) + ": " +
                        DecodeStatusMessage(response.body);
  if (response.retry_after_seconds >= 0) {
    message +=
        " (Retry-After " + std::to_string(response.retry_after_seconds) + "s)";
  }
  return Status(CodeForHttp(response.status), message);
}

std::chrono::milliseconds KubeApi::RetryAfterLeft(
    const std::string& path) const {
  std::lock_guard<std::mutex> lock(retry_mutex_);
  auto it = retry_not_before_.find(path);
  if (it == retry_not_before_.end()) return std::chrono::milliseconds(0);
  const Duration left = it->second - clock_->Now();
  if (left <= Duration::zero()) {
    retry_not_before_.erase(it);
    return std::chrono::milliseconds(0);
  }
  // Rounded up, so a caller that waits this long is past the deadline.
  return std::chrono::ceil<std::chrono::milliseconds>(left);
}

void KubeApi::NoteRetryAfter(const HttpRequest& request,
                             const HttpResponse& response) const {
  if (response.retry_after_seconds <= 0 || response.status < 400) return;
  const auto wait = std::min<std::chrono::seconds>(
      std::chrono::seconds(response.retry_after_seconds), kMaxRetryAfter);
  std::lock_guard<std::mutex> lock(retry_mutex_);
  TimePoint& not_before = retry_not_before_[PathOf(request)];
  not_before = std::max(not_before, clock_->Now() + wait);
}

Result<HttpRequest> KubeApi::Prepare(const HttpRequest& request) const {
  const std::chrono::milliseconds left = RetryAfterLeft(PathOf(request));
  if (left.count() > 0) {
    return Status::Unavailable(
        request.method + " " + PathOf(request) +
        ": not sent, the server asked to retry later (Retry-After, " +
        std::to_string(left.count()) + "ms left)");
  }
  HttpRequest prepared = request;
  prepared.idle_timeout_seconds =
      static_cast<int>(options_.idle_timeout.count());
  return prepared;
}

Result<std::string> KubeApi::Call(const HttpRequest& request) const {
  Result<HttpRequest> prepared = Prepare(request);
  if (!prepared.ok()) return prepared.status();
  Result<HttpResponse> response = http_->Do(*prepared);
  if (!response.ok()) return response.status();
  NoteRetryAfter(request, *response);
  if (Status status = StatusFromHttp(request, *response); !status.ok()) {
    return status;
  }
  return std::move(response->body);
}

HttpRequest KubeApi::ListPageRequest(const Collection& collection,
                                     const PageQuery& query) {
  HttpRequest request;
  request.path = collection.path + "?limit=" + std::to_string(query.limit) +
                 CollectionQuery(collection);
  if (!query.continue_token.empty()) {
    request.path += "&continue=" + QueryEscape(query.continue_token);
  } else if (query.any_version) {
    request.path += "&resourceVersion=0";
  }
  if (query.protobuf) {
    request.accept = std::string(kKubeProtobufType) + ", application/json";
  }
  // A whole collection from the watch cache is one response: 65,000 nodes
  // take seconds on a busy server. The idle timeout still ends a stalled one.
  request.timeout_seconds = query.any_version ? 300 : 60;
  return request;
}

Result<std::string> KubeApi::ListPage(const Collection& collection,
                                      const PageQuery& query) const {
  return Call(ListPageRequest(collection, query));
}

Status KubeApi::StreamListPage(
    const Collection& collection, const PageQuery& query,
    const std::function<Status(JsonChunkStream* body)>& decode) const {
  const HttpRequest request = ListPageRequest(collection, query);
  Result<HttpRequest> prepared = Prepare(request);
  if (!prepared.ok()) return prepared.status();
  ChunkPipe pipe;
  Result<HttpResponse> response = Status::Internal("not sent");
  std::thread transfer([&] {
    response = http_->StreamChunks(
        *prepared, [&](std::string_view chunk) { return pipe.Push(chunk); },
        nullptr, [&] { pipe.Open(); });
    pipe.CloseWriter();
  });
  Status decoded;
  if (pipe.WaitOpen()) {
    JsonChunkStream body(
        [&](std::string_view* chunk) { return pipe.Next(chunk); });
    decoded = decode(&body);
  }
  pipe.CloseReader();  // a decoder that stopped early ends the transfer
  transfer.join();
  if (!response.ok()) return response.status();
  NoteRetryAfter(request, *response);
  if (Status status = StatusFromHttp(request, *response); !status.ok()) {
    return status;
  }
  return decoded;
}

Status KubeApi::Watch(const Collection& collection,
                      const std::string& resource_version, int timeout_seconds,
                      const std::function<bool(std::string_view)>& on_line,
                      const std::atomic<bool>* cancel,
                      const std::function<void()>& on_open) const {
  return StreamWatch(collection,
                     "resourceVersion=" + QueryEscape(resource_version) +
                         "&timeoutSeconds=" + std::to_string(timeout_seconds),
                     timeout_seconds, on_line, cancel, on_open);
}

Status KubeApi::WatchList(const Collection& collection, int timeout_seconds,
                          const std::function<bool(std::string_view)>& on_line,
                          const std::atomic<bool>* cancel,
                          const std::function<void()>& on_open) const {
  // No resourceVersion: the initial state is read consistently (from etcd,
  // or a watch cache proven current), as a list without one is.
  return StreamWatch(collection,
                     "sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
                     "&timeoutSeconds=" +
                         std::to_string(timeout_seconds),
                     timeout_seconds, on_line, cancel, on_open);
}

Status KubeApi::StreamWatch(
    const Collection& collection, const std::string& query, int timeout_seconds,
    const std::function<bool(std::string_view)>& on_line,
    const std::atomic<bool>* cancel,
    const std::function<void()>& on_open) const {
  HttpRequest request;
  request.path = collection.path + "?watch=1&allowWatchBookmarks=true&" +
                 query + CollectionQuery(collection);
  // The server closes the stream after timeoutSeconds; give it slack.
  request.timeout_seconds = timeout_seconds + 30;
  request.idle_only_until_accepted = true;
  Result<HttpRequest> prepared = Prepare(request);
  if (!prepared.ok()) return prepared.status();
  Result<HttpResponse> response =
      http_->Stream(*prepared, on_line, cancel, on_open);
  if (!response.ok()) return response.status();
  NoteRetryAfter(request, *response);
  return StatusFromHttp(request, *response);
}

Result<ConfigMap> KubeApi::GetConfigMap(const std::string& ns,
                                        const std::string& name) const {
  HttpRequest request;
  request.path = ConfigMapPath(ns, name);
  Result<std::string> body = Call(request);
  if (!body.ok()) return body.status();
  return DecodeConfigMap(*body);
}

Result<ConfigMap> KubeApi::CreateConfigMap(const ConfigMap& config_map) const {
  HttpRequest request;
  request.method = "POST";
  request.path = ConfigMapPath(config_map.namespace_, "");
  request.content_type = "application/json";
  request.body = EncodeConfigMap(config_map);
  Result<std::string> body = Call(request);
  if (!body.ok()) return body.status();
  return DecodeConfigMap(*body);
}

Result<ConfigMap> KubeApi::UpdateConfigMap(const ConfigMap& config_map) const {
  HttpRequest read;
  read.path = ConfigMapPath(config_map.namespace_, config_map.name);
  Result<std::string> stored = Call(read);
  if (!stored.ok()) return stored.status();
  Result<std::string> edited = EditedConfigMapJson(*stored, config_map);
  if (!edited.ok()) return edited.status();
  HttpRequest request;
  request.method = "PUT";
  request.path = read.path;
  request.content_type = "application/json";
  request.body = std::move(edited).value();
  Result<std::string> body = Call(request);
  if (!body.ok()) return body.status();
  return DecodeConfigMap(*body);
}

Result<Scale> KubeApi::GetScale(const std::string& ns,
                                const ScaleTarget& target) const {
  HttpRequest request;
  request.path = target.ScalePath(ns);
  Result<std::string> body = Call(request);
  if (!body.ok()) return body.status();
  return DecodeScale(*body);
}

Result<Scale> KubeApi::PatchScale(const std::string& ns,
                                  const ScaleTarget& target,
                                  int64_t replicas) const {
  HttpRequest request;
  request.method = "PATCH";
  request.path = target.ScalePath(ns);
  request.content_type = "application/merge-patch+json";
  request.body = EncodeReplicasPatch(replicas);
  Result<std::string> body = Call(request);
  if (!body.ok()) return body.status();
  return DecodeScale(*body);
}

Result<Scale> KubeApi::UpdateScale(const std::string& ns,
                                   const ScaleTarget& target, const Scale& read,
                                   int64_t replicas) const {
  HttpRequest request;
  request.method = "PUT";
  request.path = target.ScalePath(ns);
  request.content_type = "application/json";
  request.body =
      EncodeScaleUpdate(ns, target.name, read.resource_version, replicas);
  Result<std::string> body = Call(request);
  if (!body.ok()) return body.status();
  return DecodeScale(*body);
}

std::unique_ptr<ListWatch<NodeInfo>> KubeApi::CountedNodes(
    const std::string& label_selector, const TaintFilter& excluded,
    CountedCpu cpu) const {
  return std::make_unique<HttpListWatch<NodeInfo>>(
      this, Collection{"/api/v1/nodes", label_selector, ""},
      CountedNodeCodec(excluded, cpu));
}

std::unique_ptr<ListWatch<CountedPod>> KubeApi::CountedPods(
    const std::string& ns, const std::string& label_selector) const {
  return std::make_unique<HttpListWatch<CountedPod>>(
      this,
      Collection{
          ns.empty() ? "/api/v1/pods" : "/api/v1/namespaces/" + ns + "/pods",
          label_selector, ""},
      CountedPodCodec());
}

Result<PodTemplateWorkload> KubeApi::GetPodTemplate(
    const std::string& ns, const WorkloadRef& target) const {
  HttpRequest request;
  request.path = target.Path(ns);
  Result<std::string> body = Call(request);
  if (!body.ok()) return body.status();
  return DecodePodTemplateWorkload(*body);
}

std::unique_ptr<ListWatch<PodTemplateWorkload>> KubeApi::PodTemplateNamed(
    const std::string& ns, const WorkloadRef& target) const {
  const std::string path = target.Path(ns);
  return std::make_unique<HttpListWatch<PodTemplateWorkload>>(
      this,
      Collection{path.substr(0, path.rfind('/')), "",
                 "metadata.name=" + target.name},
      PodTemplateCodec());
}

Result<PodTemplateWorkload> KubeApi::PatchContainerResources(
    const std::string& ns, const WorkloadRef& target,
    const std::string& resource_version,
    const std::vector<ContainerResourcesEdit>& edits) const {
  HttpRequest request;
  request.method = "PATCH";
  request.path = target.Path(ns);
  request.content_type = "application/strategic-merge-patch+json";
  request.body = EncodeContainerResourcesPatch(resource_version, edits);
  Result<std::string> body = Call(request);
  if (!body.ok()) return body.status();
  return DecodePodTemplateWorkload(*body);
}

std::unique_ptr<ListWatch<ResizedPod>> KubeApi::ResizablePods(
    const std::string& ns, const std::string& label_selector) const {
  return std::make_unique<HttpListWatch<ResizedPod>>(
      this,
      Collection{"/api/v1/namespaces/" + ns + "/pods", label_selector, ""},
      ResizedPodCodec());
}

Result<ResizedPod> KubeApi::ResizePod(
    const std::string& ns, const std::string& name,
    const std::string& resource_version,
    const std::vector<ContainerResourcesEdit>& edits) const {
  HttpRequest request;
  request.method = "PATCH";
  request.path = "/api/v1/namespaces/" + ns + "/pods/" + name + "/resize";
  request.content_type = "application/strategic-merge-patch+json";
  request.body = EncodePodResizePatch(resource_version, edits);
  Result<std::string> body = Call(request);
  if (!body.ok()) return body.status();
  return DecodeResizedPod(*body);
}

std::unique_ptr<ListWatch<ConfigMap>> KubeApi::ConfigMapNamed(
    const std::string& ns, const std::string& name) const {
  return std::make_unique<HttpListWatch<ConfigMap>>(
      this, Collection{ConfigMapPath(ns, ""), "", "metadata.name=" + name},
      ConfigMapCodec());
}

std::unique_ptr<ListWatch<HpaRef>> KubeApi::HorizontalPodAutoscalers(
    const std::string& ns) const {
  return std::make_unique<HttpListWatch<HpaRef>>(
      this, Collection{HpaCollectionPath(ns), "", ""}, HpaCodec());
}

std::unique_ptr<ListWatch<HpaRef>> KubeApi::HpaNamed(
    const std::string& ns, const std::string& name,
    const std::string& version) const {
  return std::make_unique<HttpListWatch<HpaRef>>(
      this,
      Collection{HpaCollectionPath(ns, version), "", "metadata.name=" + name},
      HpaCodec());
}

Result<HpaRef> KubeApi::GetHpa(const std::string& ns, const std::string& name,
                               const std::string& version) const {
  HttpRequest request;
  request.path = HpaCollectionPath(ns, version) + "/" + name;
  Result<std::string> body = Call(request);
  if (!body.ok()) return body.status();
  return DecodeHpa(*body);
}

Result<HpaRef> KubeApi::PatchHpaMinReplicas(const std::string& ns,
                                            const std::string& name,
                                            const std::string& version,
                                            const std::string& resource_version,
                                            int64_t min_replicas) const {
  HttpRequest request;
  request.method = "PATCH";
  request.path = HpaCollectionPath(ns, version) + "/" + name;
  request.content_type = "application/merge-patch+json";
  request.body = EncodeMinReplicasPatch(resource_version, min_replicas);
  Result<std::string> body = Call(request);
  if (!body.ok()) return body.status();
  return DecodeHpa(*body);
}

std::unique_ptr<ListWatch<Scale>> KubeApi::TargetNamed(
    const std::string& ns, const ScaleTarget& target) const {
  return std::make_unique<HttpListWatch<Scale>>(
      this,
      Collection{target.CollectionPath(ns), "", "metadata.name=" + target.name},
      WorkloadScaleCodec());
}

std::unique_ptr<ListWatch<Scale>> KubeApi::TargetsSelected(
    const std::string& ns, const TargetSelector& selector) const {
  return std::make_unique<HttpListWatch<Scale>>(
      this,
      Collection{selector.Named("").CollectionPath(ns), selector.label_selector,
                 ""},
      WorkloadScaleCodec());
}

Status KubeApi::CreateEvent(const EventInfo& event,
                            const std::string& component, TimePoint now) const {
  HttpRequest request;
  request.method = "POST";
  const std::string ns = EventNamespace(event.object);
  request.path = "/api/v1/namespaces/" + ns + "/events";
  request.content_type = "application/json";
  request.body = EncodeEventJson(event, ns, component, now);
  return Call(request).status();
}

std::unique_ptr<ListWatch<LivePod>> KubeApi::Pods() const {
  return std::make_unique<HttpListWatch<LivePod>>(
      this, Collection{"/api/v1/pods", "", ""}, LivePodCodec());
}

std::unique_ptr<ListWatch<LiveNode>> KubeApi::LiveNodes() const {
  return std::make_unique<HttpListWatch<LiveNode>>(
      this, Collection{"/api/v1/nodes", "", ""}, LiveNodeCodec());
}

std::unique_ptr<ListWatch<PdbState>> KubeApi::PodDisruptionBudgets() const {
  // Discovery needs no RBAC beyond being authenticated; a server that does
  // not serve policy/v1 answers 404.
  const bool v1 = Call({.path = "/apis/policy/v1"}).status().code() !=
                  StatusCode::kNotFound;
  return std::make_unique<HttpListWatch<PdbState>>(
      this,
      Collection{v1 ? "/apis/policy/v1/poddisruptionbudgets"
                    : "/apis/policy/v1beta1/poddisruptionbudgets",
                 "", ""},
      PdbCodec(v1 ? PdbVersion::kV1 : PdbVersion::kV1beta1));
}

std::unique_ptr<ListWatch<PersistentVolume>> KubeApi::PersistentVolumes()
    const {
  return std::make_unique<HttpListWatch<PersistentVolume>>(
      this, Collection{"/api/v1/persistentvolumes", "", ""},
      PersistentVolumeCodec());
}

std::unique_ptr<ListWatch<PersistentVolumeClaim>>
KubeApi::PersistentVolumeClaims() const {
  return std::make_unique<HttpListWatch<PersistentVolumeClaim>>(
      this, Collection{"/api/v1/persistentvolumeclaims", "", ""},
      PersistentVolumeClaimCodec());
}

std::unique_ptr<ListWatch<StorageClass>> KubeApi::StorageClasses() const {
  return std::make_unique<HttpListWatch<StorageClass>>(
      this, Collection{"/apis/storage.k8s.io/v1/storageclasses", "", ""},
      StorageClassCodec());
}

std::unique_ptr<ListWatch<CsiNode>> KubeApi::CsiNodes() const {
  return std::make_unique<HttpListWatch<CsiNode>>(
      this, Collection{"/apis/storage.k8s.io/v1/csinodes", "", ""},
      CsiNodeCodec());
}

std::unique_ptr<ListWatch<CsiDriver>> KubeApi::CsiDrivers() const {
  return std::make_unique<HttpListWatch<CsiDriver>>(
      this, Collection{"/apis/storage.k8s.io/v1/csidrivers", "", ""},
      CsiDriverCodec());
}

std::unique_ptr<ListWatch<CsiStorageCapacity>> KubeApi::CsiStorageCapacities(
    std::string_view version) const {
  return std::make_unique<HttpListWatch<CsiStorageCapacity>>(
      this,
      Collection{"/apis/storage.k8s.io/" + std::string(version) +
                     "/csistoragecapacities",
                 "", ""},
      CsiStorageCapacityCodec());
}

std::unique_ptr<ListWatch<CapacityBuffer>> KubeApi::CapacityBuffers() const {
  return std::make_unique<HttpListWatch<CapacityBuffer>>(
      this,
      Collection{std::string(kCapacityBufferApi) + "/capacitybuffers", "", ""},
      CapacityBufferCodec());
}

std::unique_ptr<ListWatch<RawObject>> KubeApi::NodePools() const {
  return std::make_unique<HttpListWatch<RawObject>>(
      this, Collection{std::string(kNodePoolApi) + "/nodepools", "", ""},
      RawObjectCodec());
}

Result<BufferChunk> KubeApi::GetBufferChunk(
    const CapacityBuffer& buffer) const {
  Result<BufferChunkSource> source = ChunkSourceOf(buffer);
  if (!source.ok()) return source.status();
  Result<std::string> body = Call({.path = source->path});
  if (!body.ok()) {
    return body.status().WithContext("reading the chunk of CapacityBuffer " +
                                     buffer.Key());
  }
  Result<BufferChunk> chunk = source->decode(*body);
  if (!chunk.ok()) return chunk.status().WithContext(source->path);
  return chunk;
}

Status KubeApi::PatchCapacityBufferStatus(const CapacityBuffer& buffer,
                                          const BufferStatus& want,
                                          TimePoint now) const {
  return Call({.method = "PATCH",
               .path = BufferStatusPath(buffer),
               .body = EncodeBufferStatusPatch(buffer, want, now),
               .content_type = "application/merge-patch+json"})
      .status()
      .WithContext("writing the status of CapacityBuffer " + buffer.Key());
}

std::unique_ptr<ListWatch<ProvisioningRequest>> KubeApi::ProvisioningRequests()
    const {
  return std::make_unique<HttpListWatch<ProvisioningRequest>>(
      this,
      Collection{std::string(kProvisioningRequestApi) + "/provisioningrequests",
                 "", ""},
      ProvisioningRequestCodec());
}

std::unique_ptr<ListWatch<PodTemplate>> KubeApi::PodTemplates() const {
  return std::make_unique<HttpListWatch<PodTemplate>>(
      this, Collection{"/api/v1/podtemplates", "", ""},
      RequestPodTemplateCodec());
}

Status KubeApi::PatchProvisioningRequestConditions(
    const ProvisioningRequest& request,
    const std::vector<ProvReqCondition>& set) const {
  return Call({.method = "PATCH",
               .path = ProvisioningRequestPath(request) + "/status",
               .body = EncodeProvisioningRequestConditions(request, set),
               .content_type = "application/merge-patch+json"})
      .status()
      .WithContext("writing the conditions of ProvisioningRequest " +
                   request.Key());
}

Status KubeApi::DeleteProvisioningRequest(
    const ProvisioningRequest& request) const {
  return Call({.method = "DELETE",
               .path = ProvisioningRequestPath(request),
               .body = DeleteOptionsWithUid(request.uid),
               .content_type = "application/json"})
      .status()
      .WithContext("deleting ProvisioningRequest " + request.Key());
}

Status KubeApi::EditNodeTaints(const std::string& name,
                               const NodeTaintEdit& edit) const {
  const std::string path = "/api/v1/nodes/" + name;
  return EditNodeTaintsWith(
      [&] { return Call({.path = path}); },
      [&](const std::string& merge_patch) {
        return Call({.method = "PATCH",
                     .path = path,
                     .body = merge_patch,
                     .content_type = "application/merge-patch+json"})
            .status();
      },
      name, edit);
}

// policy/v1 Evictions came with Kubernetes 1.22; older servers refuse the
// kind ("no kind \"Eviction\" is registered for version \"policy/v1\"")
// and take policy/v1beta1, which is then used from there on.
Status KubeApi::EvictPod(const std::string& ns, const std::string& name,
                         int64_t grace_seconds) const {
  auto evict = [&](std::string_view version) {
    return Call({.method = "POST",
                 .path =
                     "/api/v1/namespaces/" + ns + "/pods/" + name + "/eviction",
                 .body = EncodeEviction(ns, name, grace_seconds, version),
                 .content_type = "application/json"})
        .status();
  };
  if (!eviction_v1beta1_.load()) {
    Status status = evict("policy/v1");
    if (status.code() != StatusCode::kInvalidArgument ||
        status.message().find("no kind") == std::string::npos) {
      return status;
    }
    eviction_v1beta1_ = true;
  }
  return evict("policy/v1beta1");
}

Status KubeApi::CreateSimulatedNode(const std::string& name,
                                    const NodeTemplate& shape,
                                    bool ready) const {
  return Call({.method = "POST",
               .path = "/api/v1/nodes",
               .body = EncodeSimulatedNode(name, shape, ready),
               .content_type = "application/json"})
      .status();
}

Status KubeApi::DeleteNode(const std::string& name,
                           const std::string& uid) const {
  HttpRequest request{.method = "DELETE", .path = "/api/v1/nodes/" + name};
  if (!uid.empty()) {
    request.body = DeleteOptionsWithUid(uid);
    request.content_type = "application/json";
  }
  return Call(request).status();
}

Result<Lease> KubeApi::GetLease(const std::string& ns,
                                const std::string& name) const {
  HttpRequest request;
  request.path = LeasesPath(ns) + "/" + name;
  Result<std::string> body = Call(request);
  if (!body.ok()) return body.status();
  return DecodeLease(*body);
}

Result<Lease> KubeApi::CreateLease(const Lease& lease) const {
  HttpRequest request{"POST", LeasesPath(lease.namespace_), EncodeLease(lease),
                      "application/json"};
  Result<std::string> body = Call(request);
  if (!body.ok()) return body.status();
  return DecodeLease(*body);
}

Result<Lease> KubeApi::UpdateLease(const Lease& lease) const {
  HttpRequest request{"PUT", LeasesPath(lease.namespace_) + "/" + lease.name,
                      EncodeLease(lease), "application/json"};
  Result<std::string> body = Call(request);
  if (!body.ok()) return body.status();
  return DecodeLease(*body);
}

std::unique_ptr<ListWatch<ClusterApiObject>> KubeApi::ClusterApiObjects(
    const ClusterApiVersion& api, const std::string& resource) const {
  return std::make_unique<HttpListWatch<ClusterApiObject>>(
      this, Collection{api.Prefix() + "/" + resource, "", ""},
      ClusterApiCodec());
}

Status KubeApi::AnnotateMachine(const ClusterApiVersion& api,
                                const std::string& ns, const std::string& name,
                                const std::string& key,
                                const std::optional<std::string>& value) const {
  HttpRequest request{
      "PATCH", api.Prefix() + "/namespaces/" + ns + "/machines/" + name,
      EncodeAnnotationPatch(key, value), "application/merge-patch+json"};
  return Call(request).status();
}

namespace {

// The version of `ref`'s group that serves its kind, and the kind's
// resource: the ref's own version (v1beta1), else the first in discovery
// order (v1beta2 refs name only a group).
Result<std::pair<std::string, std::string>> InfrastructureResource(
    const KubeApi& api, const InfrastructureRef& ref) {
  const std::string group = ref.Group();
  const ApiDiscovery discovery(&api);
  std::vector<std::string> versions;
  if (!ref.Version().empty()) {
    versions.push_back(ref.Version());
  } else {
    PS_ASSIGN_OR_RETURN(versions, discovery.GroupVersions(group));
  }
  for (const std::string& version : versions) {
    std::string resource;
    PS_ASSIGN_OR_RETURN(
        resource, discovery.ResourceOfKind(group + "/" + version, ref.kind));
    if (!resource.empty()) return std::pair{version, resource};
  }
  return Status::NotFound("no version of API group " + group + " serves kind " +
                          ref.kind);
}

}  // namespace

Result<InfrastructureTemplate> KubeApi::GetInfrastructureTemplate(
    const InfrastructureRef& ref, const std::string& ns) const {
  const std::string what =
      "infrastructure template " + ref.kind + " " + ns + "/" + ref.name;
  Result<std::pair<std::string, std::string>> resource =
      InfrastructureResource(*this, ref);
  if (!resource.ok()) return resource.status().WithContext(what);
  Result<std::string> json = Call(
      {.path = "/apis/" + ref.Group() + "/" + resource->first + "/namespaces/" +
               ns + "/" + resource->second + "/" + ref.name});
  if (!json.ok()) return json.status().WithContext(what);
  return DecodeInfrastructureTemplate(*json, what);
}

}  // namespace propscaler::kube
