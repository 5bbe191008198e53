// JSON <-> compact objects. The only place that knows RapidJSON and the
// field names of API objects.
#ifndef PROPSCALER_KUBE_WIRE_DECODE_H_
#define PROPSCALER_KUBE_WIRE_DECODE_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/taint_filter.h"
#include "kube/model/list_watch.h"
#include "kube/model/objects.h"
#include "kube/wire/json_chunk_stream.h"
#include "kube/wire/node_fields.h"

namespace propscaler::kube {

// Nodes (node_decode.cc): streamed through a SAX reader, no DOM. A node with
// a taint `excluded` matches gets excluded_by_taint.
// `cpu` picks status.allocatable.cpu or status.capacity.cpu.
Result<ListPage<NodeInfo>> DecodeNodeList(
    std::string_view body, const TaintFilter& excluded = {},
    CountedCpu cpu = CountedCpu::kAllocatable);
// The same, read from a stream as the list arrives; with `on_items` set the
// nodes go there in batches of kNodeBatch (node_fields.h) as they are
// decoded, and the page returned holds none.
Result<ListPage<NodeInfo>> DecodeNodeListStream(
    JsonChunkStream* body, const TaintFilter& excluded = {},
    CountedCpu cpu = CountedCpu::kAllocatable,
    const ItemBatches<NodeInfo>& on_items = {});
Result<WatchEvent<NodeInfo>> DecodeNodeWatchEvent(
    std::string_view line, const TaintFilter& excluded = {},
    CountedCpu cpu = CountedCpu::kAllocatable);

// The codecs of the collections the loops watch.
// Counted nodes' lists are decoded as streams.
ListWatchCodec<NodeInfo> CountedNodeCodec(const TaintFilter& excluded,
                                          CountedCpu cpu);
ListWatchCodec<ConfigMap> ConfigMapCodec();

Result<ListPage<ConfigMap>> DecodeConfigMapList(std::string_view body);
Result<WatchEvent<ConfigMap>> DecodeConfigMapWatchEvent(std::string_view line);
Result<ConfigMap> DecodeConfigMap(std::string_view body);
std::string EncodeConfigMap(const ConfigMap& config_map);
// The stored ConfigMap (JSON as the server sent it) with `data` replaced by
// desired.data and desired.annotations set; everything else (labels,
// binaryData, owners, other annotations) kept. kConflict when the stored
// resourceVersion is not desired.resource_version.
Result<std::string> EditedConfigMapJson(std::string_view stored,
                                        const ConfigMap& desired);

Result<Scale> DecodeScale(std::string_view body);
// Workloads (Deployments, StatefulSets, ...) read as their scale: name,
// resourceVersion, spec.replicas and status.replicas.
ListWatchCodec<Scale> WorkloadScaleCodec();
// autoscaling/v1 HorizontalPodAutoscalers, as what they scale.
ListWatchCodec<HpaRef> HpaCodec();
std::string EncodeReplicasPatch(int64_t replicas);
// An autoscaling/v1 Scale for a PUT: `replicas` under the resourceVersion
// that was read, so a concurrent write makes the server answer 409.
std::string EncodeScaleUpdate(const std::string& ns, const std::string& name,
                              const std::string& resource_version,
                              int64_t replicas);

// A page of an autoscaling/v1 HorizontalPodAutoscalerList; items without a
// scaleTargetRef are skipped.
Result<ListPage<HpaRef>> DecodeHpaPage(std::string_view body);
Result<HpaRef> DecodeHpa(std::string_view body);
// A merge patch of an HPA's spec.minReplicas, conditional on
// `resource_version` (the server answers 409 when the HPA changed since).
std::string EncodeMinReplicasPatch(const std::string& resource_version,
                                   int64_t min_replicas);

// "ADDED", "MODIFIED", "DELETED", "BOOKMARK" or "ERROR".
Result<WatchEventType> ParseWatchEventType(const std::string& type);

// The message of a Kubernetes Status object, or the body itself (shortened)
// when it is not one.
std::string DecodeStatusMessage(std::string_view body);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_DECODE_H_
