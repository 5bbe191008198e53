// The protobuf node list decoder against lists encoded here by hand, field
// by field as kube-apiserver writes them (the real server's own protobuf is
// compared with its JSON in WireRealServerTest): the same NodeInfos as the
// JSON decoder, however the bytes are cut, in batches, and clear errors.
#include "kube/wire/node_proto_decode.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kube/wire/decode.h"
#include "kube/wire/proto_wire.h"
#include "unit/proto_test_encoding.h"

namespace propscaler::kube {
namespace {

using namespace prototest;  // NOLINT: the encoding helpers

struct TestNode {
  std::string name;
  std::string allocatable_cpu;
  std::string capacity_cpu;
  bool unschedulable = false;
  std::string ready = "True";
  std::string taint_key;
};

// A Node message with the fields propscaler reads and others it skips.
std::string NodeMessage(const TestNode& node) {
  const std::string meta = Bytes(1, node.name) + Bytes(5, "uid-1") +
                           Bytes(6, "42") +
                           Bytes(11, Bytes(1, "zone") + Bytes(2, "a")) +
                           Bytes(17, Bytes(1, "kubelet") + Bytes(2, "Update"));
  std::string spec = Bytes(1, "10.0.0.0/24");
  if (node.unschedulable) spec += Bool(4, true);
  if (!node.taint_key.empty()) {
    spec += Bytes(5, Bytes(1, node.taint_key) + Bytes(3, "NoSchedule"));
  }
  std::string status;
  if (!node.capacity_cpu.empty()) {
    status += Entry(1, "memory", "8Gi", true) +
              Entry(1, "cpu", node.capacity_cpu, true);
  }
  if (!node.allocatable_cpu.empty()) {
    status += Entry(2, "cpu", node.allocatable_cpu, true) +
              Entry(2, "pods", "110", true);
  }
  status += Bytes(3, "Running") +
            Bytes(4, Bytes(1, "MemoryPressure") + Bytes(2, "False")) +
            Bytes(4, Bytes(1, "Ready") + Bytes(2, node.ready) +
                         Bytes(5, "KubeletReady")) +
            Bytes(4, Bytes(1, "Ready") + Bytes(2, "Unknown"));
  return Bytes(1, meta) + Bytes(2, spec) + Bytes(3, status);
}

std::string NodeJson(const TestNode& node) {
  std::string json = R"({"metadata":{"name":")" + node.name +
                     R"(","resourceVersion":"42"},"spec":{)";
  json += node.unschedulable ? R"("unschedulable":true)" : "";
  if (!node.taint_key.empty()) {
    json += std::string(node.unschedulable ? "," : "") +
            R"("taints":[{"key":")" + node.taint_key +
            R"(","effect":"NoSchedule"}])";
  }
  json += R"(},"status":{)";
  if (!node.capacity_cpu.empty()) {
    json += R"("capacity":{"cpu":")" + node.capacity_cpu + R"("},)";
  }
  if (!node.allocatable_cpu.empty()) {
    json += R"("allocatable":{"cpu":")" + node.allocatable_cpu + R"("},)";
  }
  return json + R"("conditions":[{"type":"Ready","status":")" + node.ready +
         R"("}]}})";
}

std::string ProtoList(const std::vector<TestNode>& nodes) {
  std::string list = Bytes(1, Bytes(2, "77") + Bytes(3, "next-page"));
  for (const TestNode& node : nodes) list += Bytes(2, NodeMessage(node));
  return Envelope("NodeList", list);
}

std::string JsonList(const std::vector<TestNode>& nodes) {
  std::string json =
      R"({"kind":"NodeList","metadata":{"resourceVersion":"77","continue":"next-page"},"items":[)";
  for (size_t i = 0; i < nodes.size(); ++i) {
    json += (i > 0 ? "," : "") + NodeJson(nodes[i]);
  }
  return json + "]}";
}

Result<ListPage<NodeInfo>> DecodeProto(
    const std::string& body, size_t piece = 4096,
    const TaintFilter& excluded = {},
    CountedCpu cpu = CountedCpu::kAllocatable) {
  JsonChunkStream stream = Cut(body, piece);
  return DecodeNodeListProto(&stream, excluded, cpu, {});
}

const std::vector<TestNode> kNodes = {
    {.name = "a", .allocatable_cpu = "3500m", .capacity_cpu = "4"},
    {.name = "b",
     .allocatable_cpu = "2",
     .capacity_cpu = "2",
     .unschedulable = true,
     .taint_key = "dedicated"},
    {.name = "c", .allocatable_cpu = "16", .ready = "False"},
    {.name = "d", .capacity_cpu = "8", .taint_key = "gpu"},
};

TEST(NodeProtoDecodeTest, ReadsWhatTheJsonDecoderReads) {
  const TaintFilter gpu = TaintFilter::Parse("gpu").value();
  for (const TaintFilter& excluded : {TaintFilter(), gpu}) {
    for (CountedCpu cpu : {CountedCpu::kAllocatable, CountedCpu::kCapacity}) {
      Result<ListPage<NodeInfo>> json =
          DecodeNodeList(JsonList(kNodes), excluded, cpu);
      ASSERT_TRUE(json.ok()) << json.status().message();
      for (size_t piece : {1, 3, 64, 1 << 20}) {
        Result<ListPage<NodeInfo>> proto =
            DecodeProto(ProtoList(kNodes), piece, excluded, cpu);
        ASSERT_TRUE(proto.ok()) << proto.status().message();
        EXPECT_EQ(proto->items, json->items) << piece;
        EXPECT_EQ(proto->resource_version, "77");
        EXPECT_EQ(proto->continue_token, "next-page");
      }
    }
  }
  Result<ListPage<NodeInfo>> proto = DecodeProto(ProtoList(kNodes));
  ASSERT_TRUE(proto.ok());
  EXPECT_EQ(proto->items[0],
            (NodeInfo{"a", 3500, false, true, false}));  // allocatable
}

TEST(NodeProtoDecodeTest, ItemsGoOutInBatches) {
  std::vector<TestNode> nodes;
  for (int i = 0; i < 1234; ++i) {
    nodes.push_back({.name = "n" + std::to_string(i), .allocatable_cpu = "2"});
  }
  std::vector<size_t> sizes;
  size_t handed = 0;
  const std::string body = ProtoList(nodes);
  JsonChunkStream stream = Cut(body, 1000);
  Result<ListPage<NodeInfo>> page = DecodeNodeListProto(
      &stream, {}, CountedCpu::kAllocatable, [&](std::vector<NodeInfo> batch) {
        sizes.push_back(batch.size());
        handed += batch.size();
      });
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_EQ(sizes, (std::vector<size_t>{kNodeBatch, kNodeBatch, 234}));
  EXPECT_EQ(handed, 1234u);
  EXPECT_TRUE(page->items.empty());
}

TEST(NodeProtoDecodeTest, BadItemIsSkippedNamingTheNode) {
  Result<ListPage<NodeInfo>> page = DecodeProto(
      ProtoList({{.name = "bad", .allocatable_cpu = "lots"}, kNodes[0]}));
  ASSERT_TRUE(page.ok()) << page.status().message();
  ASSERT_EQ(page->items.size(), 1u);
  ASSERT_EQ(page->item_errors.size(), 1u);
  EXPECT_NE(page->item_errors[0].find("node bad status.allocatable.cpu"),
            std::string::npos)
      << page->item_errors[0];
}

TEST(NodeProtoDecodeTest, MalformedBodiesAreErrorsThatSayWhat) {
  const std::string good = ProtoList(kNodes);
  struct Case {
    std::string body;
    std::string error;
  };
  for (const Case& c : std::vector<Case>{
           {"{\"kind\":\"NodeList\"}", "does not start with"},
           {good.substr(0, good.size() / 2), "truncated"},
           {Envelope("Status", ""), "the server sent a \"Status\""},
           {std::string(kKubeProtobufMagic), "no list"},
           {std::string(kKubeProtobufMagic) + Bytes(2, Bytes(2, "\x80")),
            "node list (protobuf)"},
           {std::string(kKubeProtobufMagic) + "\x13", "unsupported field key"},
       }) {
    Result<ListPage<NodeInfo>> page = DecodeProto(c.body, 5);
    ASSERT_FALSE(page.ok()) << c.error;
    EXPECT_NE(page.status().message().find(c.error), std::string::npos)
        << page.status().message();
  }
}

TEST(NodeProtoDecodeTest, StatusMessageOfAProtobufError) {
  const std::string status = Envelope(
      "Status", Bytes(2, "Failure") + Bytes(3, "nodes is forbidden: no") +
                    Bytes(4, "Forbidden") + Varint(6 << 3) + Varint(403));
  EXPECT_EQ(KubeProtobufStatusMessage(status), "nodes is forbidden: no");
  EXPECT_EQ(DecodeStatusMessage(status), "nodes is forbidden: no");
  EXPECT_EQ(KubeProtobufStatusMessage("{\"message\":\"x\"}"), std::nullopt);
}

TEST(ProtoCursorTest, RefusesWhatRunsPastTheEnd) {
  ProtoField field;
  const std::string long_bytes = Varint(1 << 3 | 2) + Varint(100) + "abc";
  ProtoCursor long_length(long_bytes);
  EXPECT_FALSE(long_length.Next(&field));
  EXPECT_EQ(long_length.error(), "length 100 past the end at byte 2");
  const std::string endless_bytes(11, '\xff');
  ProtoCursor endless(endless_bytes);
  EXPECT_FALSE(endless.Next(&field));
  EXPECT_EQ(endless.error(), "varint longer than 10 bytes at byte 10");
  const std::string group_bytes = Varint(1 << 3 | 3);
  ProtoCursor group(group_bytes);
  EXPECT_FALSE(group.Next(&field));
  EXPECT_EQ(group.error(), "unsupported wire type 3 at byte 1");
}

}  // namespace
}  // namespace propscaler::kube
