#include <algorithm>
#include <string_view>

#include "fuzz/fuzz_targets.h"
#include "kube/model/capacity_buffer.h"
#include "kube/wire/capacity_buffer_json.h"
#include "kube/wire/provisioning_request_json.h"
#include "nodescale/plan/buffers/buffer_demand.h"

namespace propscaler::fuzz {
namespace {

// Every buffer that decodes is counted against a chunk, as the loop does.
void DecodeBuffers(std::string_view text) {
  auto page = kube::CapacityBufferCodec().decode_list(text);
  if (!page.ok()) return;
  kube::Resources chunk;
  chunk.cpu_millis = 250;
  chunk.memory_bytes = 1 << 20;
  chunk.pods = 1;
  // As the loop bounds the chunks: here, one group of up to 9 nodes.
  nodescale::NodeGroup group;
  group.max_size = 9;
  const nodescale::ChunkBound bound = nodescale::MaxBufferChunks({}, {group});
  for (const kube::CapacityBuffer& buffer : page->items) {
    (void)kube::ChunkSourceOf(buffer);
    (void)kube::StatusIsCurrent(buffer, {});
    auto replicas = nodescale::BufferReplicas(buffer, 7, chunk);
    if (replicas.ok()) {
      (void)nodescale::BufferPods(buffer, {},
                                  std::min(*replicas, bound.chunks));
    }
  }
}

}  // namespace

void FuzzCapacityBuffer(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const std::string_view text(reinterpret_cast<const char*>(data + 1),
                              size - 1);
  switch (data[0] % 4) {
    case 0:
      DecodeBuffers(text);
      break;
    case 1:
      (void)kube::DecodePodTemplateChunk(text);
      break;
    case 2:
      (void)kube::DecodeWorkloadChunk(text);
      break;
    default:
      (void)kube::RequestPodTemplateCodec().decode_list(text);
      (void)kube::RequestPodTemplateCodec().decode_event(text);
      break;
  }
}

}  // namespace propscaler::fuzz
