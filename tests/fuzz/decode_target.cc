#include <cstdlib>
#include <memory>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_targets.h"
#include "kube/wire/decode.h"
#include "kube/wire/list_head.h"
#include "kube/wire/live_node_proto_decode.h"
#include "kube/wire/node_proto_decode.h"
#include "kube/wire/pod_proto_decode.h"
#include "kube/wire/proto_wire.h"

namespace propscaler::fuzz {
namespace {

const TaintFilter kNoTaints;

// Node inputs are decoded with and without it, so the taint path is fuzzed
// too without changing what the first byte selects.
const TaintFilter& ExcludedTaints() {
  static const TaintFilter filter =
      TaintFilter::Parse("node.kubernetes.io/unreachable,a:NoSchedule").value();
  return filter;
}

// `text` in 7-byte chunks, as it would arrive over HTTP.
kube::JsonChunkStream SevenByteChunks(std::string_view text) {
  auto rest = std::make_shared<std::string_view>(text);
  return kube::JsonChunkStream([rest](std::string_view* chunk) {
    if (rest->empty()) return false;
    *chunk = rest->substr(0, 7);
    rest->remove_prefix(chunk->size());
    return true;
  });
}

// The list decoded from 7-byte chunks: where both decodings succeed they
// must agree.
void CheckStreamedNodeList(std::string_view text) {
  kube::JsonChunkStream stream = SevenByteChunks(text);
  auto streamed = kube::DecodeNodeListStream(&stream);
  auto whole = kube::DecodeNodeList(text);
  if (streamed.ok() && whole.ok() && streamed->items != whole->items) {
    std::abort();
  }
}

}  // namespace

// The first byte picks the decoder; the rest is the body or line.
void FuzzDecode(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1,
                              size - 1);
  switch (data[0] % 8) {
    case 0:
      (void)kube::PeekContinueToken(text);
      (void)kube::DecodeNodeList(text);
      (void)kube::DecodeNodeList(text, ExcludedTaints());
      CheckStreamedNodeList(text);
      break;
    case 1:
      (void)kube::DecodeNodeWatchEvent(text);
      (void)kube::DecodeNodeWatchEvent(text, ExcludedTaints());
      break;
    case 2:
      (void)kube::DecodeConfigMapWatchEvent(text);
      break;
    case 3:
      (void)kube::DecodeConfigMapList(text);
      break;
    case 4:
      if (auto config_map = kube::DecodeConfigMap(text); config_map.ok()) {
        (void)kube::EncodeConfigMap(*config_map);
      }
      break;
    case 5:
      (void)kube::DecodeScale(text);
      break;
    case 6:
      (void)kube::DecodeStatusMessage(text);
      break;
    default:
      // A protobuf node list (with the envelope), handed over in batches.
      for (const TaintFilter* filter : {&kNoTaints, &ExcludedTaints()}) {
        kube::JsonChunkStream stream = SevenByteChunks(text);
        (void)kube::DecodeNodeListProto(&stream, *filter,
                                        kube::CountedCpu::kAllocatable,
                                        [](std::vector<kube::NodeInfo>) {});
      }
      {
        // The same bytes as a protobuf pod list.
        kube::JsonChunkStream stream = SevenByteChunks(text);
        (void)kube::DecodeLivePodListProto(&stream,
                                           [](std::vector<kube::LivePod>) {});
      }
      {
        // And as node-scale mode's protobuf node list.
        kube::JsonChunkStream stream = SevenByteChunks(text);
        (void)kube::DecodeLiveNodeListProto(&stream,
                                            [](std::vector<kube::LiveNode>) {});
      }
      (void)kube::KubeProtobufStatusMessage(text);
  }
}

}  // namespace propscaler::fuzz
