// The JSON of CapacityBuffers (autoscaling.x-k8s.io/v1beta1) and of the
// objects their chunks come from; their paths and status patches.
#ifndef PROPSCALER_KUBE_WIRE_CAPACITY_BUFFER_JSON_H_
#define PROPSCALER_KUBE_WIRE_CAPACITY_BUFFER_JSON_H_

#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "common/clock.h"
#include "common/status.h"
#include "kube/model/capacity_buffer.h"
#include "kube/model/list_watch.h"

namespace propscaler::kube {

inline constexpr char kCapacityBufferApi[] =
    "/apis/autoscaling.x-k8s.io/v1beta1";

ListWatchCodec<CapacityBuffer> CapacityBufferCodec();

Result<BufferChunk> DecodePodTemplateChunk(std::string_view body);
// The same of a PodTemplate already parsed (a List's item at `path`).
Result<BufferChunk> PodTemplateChunkOf(const rapidjson::Value& pod_template,
                                       const std::string& path);
Result<BufferChunk> DecodeWorkloadChunk(std::string_view body);

// Where a buffer's chunk is read: its PodTemplate, or its scalableRef (an
// apps Deployment, ReplicaSet or StatefulSet: an error names any other).
struct BufferChunkSource {
  std::string path;      // "/api/v1/namespaces/NS/podtemplates/NAME"
  std::string resource;  // "podtemplates", "deployments", ...
  Result<BufferChunk> (*decode)(std::string_view body) = nullptr;
};
Result<BufferChunkSource> ChunkSourceOf(const CapacityBuffer& buffer);
// The buffer's status subresource.
std::string BufferStatusPath(const CapacityBuffer& buffer);

// A merge patch of the status subresource: the conditions keep their
// lastTransitionTime where their status did not change, else `now`.
std::string EncodeBufferStatusPatch(const CapacityBuffer& buffer,
                                    const BufferStatus& want, TimePoint now);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_CAPACITY_BUFFER_JSON_H_
