// The protobuf node list decoder of node-scale mode against nodes encoded
// here by hand, field by field as kube-apiserver writes them (the real
// server's own protobuf is compared with its JSON in WireRealServerTest):
// every field the JSON decoder reads comes out the same, bad values are
// item errors naming the same paths, and a list cut anywhere is handed over
// in batches of kListBatch.
#include "kube/wire/live_node_proto_decode.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kube/wire/pod_decode.h"
#include "nodescale/domain/node_marks.h"
#include "unit/live_node_text.h"
#include "unit/proto_test_encoding.h"

namespace propscaler::kube {
namespace {

using namespace prototest;  // NOLINT: the encoding helpers
using testing::LiveNodeText;

std::string Time(int64_t seconds) { return Int(1, seconds) + Int(2, 500); }

std::string Taint(const std::string& key, const std::string& value,
                  const std::string& effect) {
  return Bytes(5, Bytes(1, key) + Bytes(2, value) + Bytes(3, effect));
}

// A cordoned GPU node of group "small", with what node-scale mode reads.
std::string GpuNodeMessage(const std::string& name,
                           const std::string& effect = "NoSchedule") {
  return Bytes(1, Bytes(1, name) + Bytes(5, "uid-" + name) + Bytes(6, "77") +
                      Bytes(8, Time(1767225600)) +
                      Entry(11, "propscaler.io/node-group", "small") +
                      Entry(11, "topology.kubernetes.io/zone", "z1") +
                      Entry(12, "propscaler.io/template-hash", "abc")) +
         Bytes(2, Bytes(3, "kwok://" + name) + Bool(4, true) +
                      Taint("dedicated", "gpu", effect)) +
         Bytes(3, Entry(1, "cpu", "8", true) + Entry(2, "cpu", "3500m", true) +
                      Entry(2, "memory", "16Gi", true) +
                      Entry(2, "pods", "110", true) +
                      Entry(2, "nvidia.com/gpu", "2", true) +
                      Bytes(4, Bytes(1, "MemoryPressure") + Bytes(2, "False")) +
                      Bytes(4, Bytes(1, "Ready") + Bytes(2, "True")));
}
std::string GpuNodeJson(const std::string& name,
                        const std::string& effect = "NoSchedule") {
  return R"({"metadata":{"name":")" + name + R"(","uid":"uid-)" + name +
         R"(","resourceVersion":"77","creationTimestamp":"2026-01-01T00:00:00Z",)"
         R"("labels":{"propscaler.io/node-group":"small","topology.kubernetes.io/zone":"z1"},)"
         R"("annotations":{"propscaler.io/template-hash":"abc"}},)"
         R"("spec":{"providerID":"kwok://)" +
         name +
         R"(","unschedulable":true,)"
         R"("taints":[{"key":"dedicated","value":"gpu","effect":")" +
         effect +
         R"("}]},)"
         R"("status":{"capacity":{"cpu":"8"},"allocatable":{"cpu":"3500m","memory":"16Gi","pods":"110","nvidia.com/gpu":"2"},)"
         R"("conditions":[{"type":"MemoryPressure","status":"False"},{"type":"Ready","status":"True"}]}})";
}

// A new node, still tainted not-ready by the API server.
std::string NewNodeMessage() {
  return Bytes(1, Bytes(1, "new-1")) +
         Bytes(2, Taint("node.kubernetes.io/not-ready", "", "NoSchedule")) +
         Bytes(3, Bytes(4, Bytes(1, "Ready") + Bytes(2, "True")));
}
constexpr char kNewNodeJson[] =
    R"({"metadata":{"name":"new-1"},"spec":{"taints":[{"key":"node.kubernetes.io/not-ready","effect":"NoSchedule"}]},)"
    R"("status":{"conditions":[{"type":"Ready","status":"True"}]}})";

std::string ProtoList(const std::vector<std::string>& nodes) {
  std::string list = Bytes(1, Bytes(2, "91"));
  for (const std::string& node : nodes) list += Bytes(2, node);
  return Envelope("NodeList", list);
}
std::string JsonList(const std::vector<std::string>& nodes) {
  std::string json =
      R"({"kind":"NodeList","metadata":{"resourceVersion":"91"},"items":[)";
  for (size_t i = 0; i < nodes.size(); ++i) {
    json += (i > 0 ? "," : "") + nodes[i];
  }
  return json + "]}";
}

Result<ListPage<LiveNode>> DecodeProto(
    const std::string& body, size_t piece = 4096,
    const ItemBatches<LiveNode>& batches = {}) {
  JsonChunkStream stream = Cut(body, piece);
  return DecodeLiveNodeListProto(&stream, batches);
}

TEST(LiveNodeProtoDecodeTest, EveryFieldAsTheJsonDecoderReadsIt) {
  Result<ListPage<LiveNode>> json =
      DecodeLiveNodeList(JsonList({GpuNodeJson("gpu-1"), kNewNodeJson}));
  ASSERT_TRUE(json.ok()) << json.status().message();
  ASSERT_EQ(json->items.size(), 2u);
  for (size_t piece : {1, 3, 64, 1 << 20}) {
    Result<ListPage<LiveNode>> proto = DecodeProto(
        ProtoList({GpuNodeMessage("gpu-1"), NewNodeMessage()}), piece);
    ASSERT_TRUE(proto.ok()) << proto.status().message();
    ASSERT_EQ(proto->items.size(), 2u);
    EXPECT_TRUE(proto->item_errors.empty());
    EXPECT_EQ(proto->resource_version, "91");
    for (size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(LiveNodeText(proto->items[i]), LiveNodeText(json->items[i]))
          << "node " << i << ", pieces of " << piece;
    }
  }
  // And what it reads, spelled out once.
  Result<LiveNode> node = DecodeLiveNodeProto(GpuNodeMessage("gpu-1"), "x");
  ASSERT_TRUE(node.ok()) << node.status().message();
  const NodeState& state = node->state;
  EXPECT_EQ(state.uid, "uid-gpu-1");
  EXPECT_EQ(nodescale::NodeGroupOf(state), "small");
  EXPECT_EQ(state.allocatable.cpu_millis, 3500);  // allocatable, not capacity
  EXPECT_EQ(state.allocatable.memory_bytes, int64_t{16} << 30);
  EXPECT_EQ(state.allocatable.pods, 110);
  EXPECT_EQ(state.allocatable.Extended("nvidia.com/gpu"), 2);
  EXPECT_EQ(state.provider_id, "kwok://gpu-1");
  EXPECT_TRUE(state.unschedulable);
  EXPECT_TRUE(state.ready);
  EXPECT_EQ(state.created, TimePoint(std::chrono::seconds(1767225600)));
  Result<LiveNode> fresh = DecodeLiveNodeProto(NewNodeMessage(), "x");
  ASSERT_TRUE(fresh.ok()) << fresh.status().message();
  EXPECT_FALSE(fresh->state.ready);  // Ready, but still tainted not-ready
}

TEST(LiveNodeProtoDecodeTest, BadValuesAreItemErrorsNamedAsInJson) {
  Result<ListPage<LiveNode>> json = DecodeLiveNodeList(
      JsonList({GpuNodeJson("bad", "Sometimes"), kNewNodeJson}));
  ASSERT_TRUE(json.ok()) << json.status().message();
  ASSERT_EQ(json->item_errors.size(), 1u);
  Result<ListPage<LiveNode>> proto = DecodeProto(
      ProtoList({GpuNodeMessage("bad", "Sometimes"), NewNodeMessage()}));
  ASSERT_TRUE(proto.ok()) << proto.status().message();
  ASSERT_EQ(proto->items.size(), 1u);
  ASSERT_EQ(proto->item_errors.size(), 1u);
  EXPECT_EQ(proto->item_errors[0], json->item_errors[0]);
  EXPECT_NE(proto->item_errors[0].find("items[0].spec.taints[0].effect"),
            std::string::npos)
      << proto->item_errors[0];
  // A node without a name.
  Result<LiveNode> nameless =
      DecodeLiveNodeProto(Bytes(1, Bytes(5, "uid")), "items[4]");
  ASSERT_FALSE(nameless.ok());
  EXPECT_EQ(nameless.status().message(), "items[4].metadata.name: missing");
}

TEST(LiveNodeProtoDecodeTest, AListCutAnywhereComesInBatches) {
  std::vector<std::string> nodes;
  for (int i = 0; i < 1100; ++i) {
    nodes.push_back(GpuNodeMessage("n-" + std::to_string(i)));
  }
  const std::string body = ProtoList(nodes);
  for (size_t piece : {7, 4096}) {
    std::vector<size_t> batches;
    std::vector<std::string> names;
    Result<ListPage<LiveNode>> page =
        DecodeProto(body, piece, [&](std::vector<LiveNode> batch) {
          batches.push_back(batch.size());
          for (const LiveNode& node : batch) names.push_back(node.state.name);
        });
    ASSERT_TRUE(page.ok()) << page.status().message();
    EXPECT_TRUE(page->items.empty());
    EXPECT_EQ(batches, (std::vector<size_t>{kListBatch, kListBatch, 100}));
    ASSERT_EQ(names.size(), 1100u);
    EXPECT_EQ(names[1099], "n-1099");
  }
}

TEST(LiveNodeProtoDecodeTest, MalformedListsAreErrorsThatSayWhat) {
  const std::string good = ProtoList({GpuNodeMessage("a"), NewNodeMessage()});
  struct Case {
    std::string body;
    std::string error;
  };
  for (const Case& c : std::vector<Case>{
           {good.substr(0, good.size() - 20), "node list (protobuf): "},
           {Envelope("PodList", ""),
            "node list (protobuf): the server sent a \"PodList\", not a "
            "NodeList"},
       }) {
    Result<ListPage<LiveNode>> page = DecodeProto(c.body);
    ASSERT_FALSE(page.ok()) << c.error;
    EXPECT_NE(page.status().message().find(c.error), std::string::npos)
        << page.status().message();
  }
}

// The codec node-scale mode lists nodes with asks for protobuf and reads
// whichever the server answers.
TEST(LiveNodeProtoDecodeTest, CodecReadsProtobufAndJson) {
  ListWatchCodec<LiveNode> codec = LiveNodeCodec();
  EXPECT_TRUE(codec.list_stream_protobuf);
  for (const std::string& body :
       {ProtoList({NewNodeMessage()}), JsonList({kNewNodeJson})}) {
    JsonChunkStream stream = Cut(body, 5);
    Result<ListPage<LiveNode>> page = codec.decode_list_stream(&stream, {});
    ASSERT_TRUE(page.ok()) << page.status().message();
    ASSERT_EQ(page->items.size(), 1u);
    EXPECT_EQ(page->items[0].state.name, "new-1");
  }
}

}  // namespace
}  // namespace propscaler::kube
