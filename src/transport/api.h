// Typed calls to the Kubernetes API: list pages, watch streams, ConfigMaps,
// the scale subresource and Events. Maps HTTP answers to Status codes
// (404 kNotFound, 409 kConflict, 410 kGone, 401 kUnauthenticated, 403
// kPermissionDenied, 429/5xx kUnavailable) with messages naming the call and
// the server's reason.
//
// Honours Retry-After: when an answer carries one, no request to the same
// path (without its query) is sent until it has passed; such calls fail at
// once with kUnavailable, and RetryAfterLeft() tells retry loops how long to
// wait. Every request has a total timeout and the idle timeout of
// KubeApiOptions. Thread-safe.
#ifndef PROPSCALER_TRANSPORT_API_H_
#define PROPSCALER_TRANSPORT_API_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "common/clock.h"
#include "common/status.h"
#include "kube/client/client.h"
#include "kube/model/objects.h"
#include "kube/model/scale_target.h"
#include "kube/wire/json_chunk_stream.h"
#include "transport/http_client.h"

namespace propscaler::kube {

// What to list and watch: a collection and its selectors.
struct Collection {
  std::string path;            // e.g. /api/v1/nodes
  std::string label_selector;  // passed to the server as is
  std::string field_selector;
};

struct KubeApiOptions {
  // A request, or a watch the server has not accepted yet, on which nothing
  // arrives for this long is abandoned and retried. An accepted watch may
  // be silent until its timeoutSeconds (kube-apiserver v1.20 sends a quiet
  // watch no bookmark before); TCP keep-alive finds a peer that went away.
  std::chrono::seconds idle_timeout{120};
};

// One page of a list: see ListCall for `any_version`.
struct PageQuery {
  int limit = 0;               // > 0
  std::string continue_token;  // empty for the first page
  bool any_version = false;    // resourceVersion=0, first page only
  // Ask for Kubernetes' protobuf first (JSON where the server has none).
  bool protobuf = false;
};

class KubeApi : public Client {
 public:
  // The longest Retry-After honoured; longer ones are shortened to it.
  static constexpr std::chrono::seconds kMaxRetryAfter{300};

  explicit KubeApi(const HttpClient* http, KubeApiOptions options = {})
      : http_(http), options_(options), clock_(http->clock()) {}

  Result<std::string> ListPage(const Collection& collection,
                               const PageQuery& query) const;

  // One page of a list, passed to `decode` as it arrives (a JSON stream)
  // and never held whole. A transport failure or an HTTP error wins over
  // what `decode` returned.
  Status StreamListPage(
      const Collection& collection, const PageQuery& query,
      const std::function<Status(JsonChunkStream* body)>& decode) const;

  // Streams watch event lines from `resource_version` until the server ends
  // the stream (after about `timeout_seconds`), `on_line` returns false, or
  // `*cancel`; `on_open` (may be empty) once the server answered 200. An
  // HTTP error status is returned as an error.
  Status Watch(const Collection& collection,
               const std::string& resource_version, int timeout_seconds,
               const std::function<bool(std::string_view)>& on_line,
               const std::atomic<bool>* cancel,
               const std::function<void()>& on_open = {}) const;

  // A WatchList: the stream starts with every object's ADDED event and a
  // BOOKMARK annotated k8s.io/initial-events-end, then goes on as Watch.
  // kInvalidArgument (HTTP 400/422) where the server does not know it.
  Status WatchList(const Collection& collection, int timeout_seconds,
                   const std::function<bool(std::string_view)>& on_line,
                   const std::atomic<bool>* cancel,
                   const std::function<void()>& on_open = {}) const;

  std::unique_ptr<ListWatch<NodeInfo>> CountedNodes(
      const std::string& label_selector, const TaintFilter& excluded,
      CountedCpu cpu) const override;
  std::unique_ptr<ListWatch<ConfigMap>> ConfigMapNamed(
      const std::string& ns, const std::string& name) const override;
  Result<ConfigMap> GetConfigMap(const std::string& ns,
                                 const std::string& name) const override;
  Result<ConfigMap> CreateConfigMap(const ConfigMap& config_map) const override;
  // A GET, then a PUT of what was read, edited.
  Result<ConfigMap> UpdateConfigMap(const ConfigMap& config_map) const override;
  std::unique_ptr<ListWatch<Scale>> TargetNamed(
      const std::string& ns, const ScaleTarget& target) const override;
  std::unique_ptr<ListWatch<Scale>> TargetsSelected(
      const std::string& ns, const TargetSelector& selector) const override;
  Result<Scale> GetScale(const std::string& ns,
                         const ScaleTarget& target) const override;
  Result<Scale> PatchScale(const std::string& ns, const ScaleTarget& target,
                           int64_t replicas) const override;
  Result<Scale> UpdateScale(const std::string& ns, const ScaleTarget& target,
                            const Scale& read, int64_t replicas) const override;
  Result<PodTemplateWorkload> GetPodTemplate(
      const std::string& ns, const WorkloadRef& target) const override;
  std::unique_ptr<ListWatch<PodTemplateWorkload>> PodTemplateNamed(
      const std::string& ns, const WorkloadRef& target) const override;
  Result<PodTemplateWorkload> PatchContainerResources(
      const std::string& ns, const WorkloadRef& target,
      const std::string& resource_version,
      const std::vector<ContainerResourcesEdit>& edits) const override;
  std::unique_ptr<ListWatch<ProvisioningRequest>> ProvisioningRequests()
      const override;
  std::unique_ptr<ListWatch<PodTemplate>> PodTemplates() const override;
  Status PatchProvisioningRequestConditions(
      const ProvisioningRequest& request,
      const std::vector<ProvReqCondition>& set) const override;
  Status DeleteProvisioningRequest(
      const ProvisioningRequest& request) const override;
  std::unique_ptr<ListWatch<ResizedPod>> ResizablePods(
      const std::string& ns, const std::string& label_selector) const override;
  Result<ResizedPod> ResizePod(
      const std::string& ns, const std::string& name,
      const std::string& resource_version,
      const std::vector<ContainerResourcesEdit>& edits) const override;
  std::unique_ptr<ListWatch<HpaRef>> HorizontalPodAutoscalers(
      const std::string& ns) const override;
  std::unique_ptr<ListWatch<HpaRef>> HpaNamed(
      const std::string& ns, const std::string& name,
      const std::string& version) const override;
  Result<HpaRef> GetHpa(const std::string& ns, const std::string& name,
                        const std::string& version) const override;
  Result<HpaRef> PatchHpaMinReplicas(const std::string& ns,
                                     const std::string& name,
                                     const std::string& version,
                                     const std::string& resource_version,
                                     int64_t min_replicas) const override;
  Status CreateEvent(const EventInfo& event, const std::string& component,
                     TimePoint now) const override;
  std::unique_ptr<ListWatch<LivePod>> Pods() const override;
  std::unique_ptr<ListWatch<LiveNode>> LiveNodes() const override;
  std::unique_ptr<ListWatch<PdbState>> PodDisruptionBudgets() const override;
  std::unique_ptr<ListWatch<PersistentVolume>> PersistentVolumes()
      const override;
  std::unique_ptr<ListWatch<PersistentVolumeClaim>> PersistentVolumeClaims()
      const override;
  std::unique_ptr<ListWatch<StorageClass>> StorageClasses() const override;
  std::unique_ptr<ListWatch<CsiNode>> CsiNodes() const override;
  std::unique_ptr<ListWatch<CsiDriver>> CsiDrivers() const override;
  std::unique_ptr<ListWatch<CsiStorageCapacity>> CsiStorageCapacities(
      std::string_view version) const override;
  std::unique_ptr<ListWatch<CapacityBuffer>> CapacityBuffers() const override;
  std::unique_ptr<ListWatch<RawObject>> NodePools() const override;
  Result<BufferChunk> GetBufferChunk(
      const CapacityBuffer& buffer) const override;
  Status PatchCapacityBufferStatus(const CapacityBuffer& buffer,
                                   const BufferStatus& want,
                                   TimePoint now) const override;
  Status EditNodeTaints(const std::string& name,
                        const NodeTaintEdit& edit) const override;
  Status EvictPod(const std::string& ns, const std::string& name,
                  int64_t grace_seconds) const override;
  Status CreateSimulatedNode(const std::string& name, const NodeTemplate& shape,
                             bool ready) const override;
  Status DeleteNode(const std::string& name,
                    const std::string& uid) const override;
  Result<Lease> GetLease(const std::string& ns,
                         const std::string& name) const override;
  Result<Lease> CreateLease(const Lease& lease) const override;
  Result<Lease> UpdateLease(const Lease& lease) const override;
  std::unique_ptr<ListWatch<ClusterApiObject>> ClusterApiObjects(
      const ClusterApiVersion& api, const std::string& resource) const override;
  Status AnnotateMachine(
      const ClusterApiVersion& api, const std::string& ns,
      const std::string& name, const std::string& key,
      const std::optional<std::string>& value) const override;
  Result<InfrastructureTemplate> GetInfrastructureTemplate(
      const InfrastructureRef& ref, const std::string& ns) const override;
  std::unique_ptr<ListWatch<CountedPod>> CountedPods(
      const std::string& ns, const std::string& label_selector) const override;

  // Sends a request and maps a non-2xx answer to an error Status.
  Result<std::string> Call(const HttpRequest& request) const;

  // How long the server asked us to stay away from `path` (no query);
  // zero when it did not.
  std::chrono::milliseconds RetryAfterLeft(const std::string& path) const;

 private:
  // A watch request with `query` (its own parameters) streamed to on_line.
  Status StreamWatch(const Collection& collection, const std::string& query,
                     int timeout_seconds,
                     const std::function<bool(std::string_view)>& on_line,
                     const std::atomic<bool>* cancel,
                     const std::function<void()>& on_open) const;
  static HttpRequest ListPageRequest(const Collection& collection,
                                     const PageQuery& query);
  // The request with the idle timeout set, or an error when Retry-After for
  // its path has not passed yet.
  Result<HttpRequest> Prepare(const HttpRequest& request) const;
  // Remembers a Retry-After from `response`.
  void NoteRetryAfter(const HttpRequest& request,
                      const HttpResponse& response) const;

  const HttpClient* http_;
  const KubeApiOptions options_;
  const Clock* const clock_;
  // The server knows only policy/v1beta1 Evictions (before 1.22).
  mutable std::atomic<bool> eviction_v1beta1_{false};
  mutable std::mutex retry_mutex_;
  mutable std::map<std::string, TimePoint> retry_not_before_;
};

// Percent-encodes a query parameter value.
std::string QueryEscape(std::string_view value);

// The Status for an HTTP answer (OK for 2xx).
Status StatusFromHttp(const HttpRequest& request, const HttpResponse& response);

}  // namespace propscaler::kube

#endif  // PROPSCALER_TRANSPORT_API_H_
