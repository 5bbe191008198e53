#include "kube/wire/decode.h"

#include <gtest/gtest.h>

namespace propscaler::kube {
namespace {

TEST(DecodeTest, NodeListKeepsOnlyCompactFields) {
  Result<ListPage<NodeInfo>> page = DecodeNodeList(R"({
    "kind":"NodeList","metadata":{"resourceVersion":"42","continue":"c1"},
    "items":[
      {"metadata":{"name":"a","labels":{"x":"y"}},
       "spec":{"unschedulable":true},
       "status":{"allocatable":{"cpu":"3500m","memory":"16Gi"},
                 "conditions":[{"type":"MemoryPressure","status":"False"},
                               {"type":"Ready","status":"True"}]}},
      {"metadata":{"name":"b"},"status":{"allocatable":{"cpu":"2"},
       "conditions":[{"type":"Ready","status":"Unknown"}]}},
      {"metadata":{"name":"bad"},"status":{"allocatable":{"cpu":"lots"}}}
    ]})");
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_EQ(page->resource_version, "42");
  EXPECT_EQ(page->continue_token, "c1");
  ASSERT_EQ(page->items.size(), 2u);
  EXPECT_EQ(page->items[0], (NodeInfo{"a", 3500, true, true}));
  EXPECT_EQ(page->items[1], (NodeInfo{"b", 2000, false, false}));
  ASSERT_EQ(page->item_errors.size(), 1u);
  EXPECT_NE(page->item_errors[0].find("node bad"), std::string::npos);
  EXPECT_NE(page->item_errors[0].find("lots"), std::string::npos);
}

TEST(DecodeTest, NodeCpuIsAllocatableOrCapacityAsAsked) {
  const char* list = R"({"metadata":{"resourceVersion":"1"},"items":[
      {"metadata":{"name":"a"},"status":{"capacity":{"cpu":"4"},
       "allocatable":{"cpu":"3500m"}}},
      {"metadata":{"name":"b"},"status":{"capacity":{"cpu":"x"},
       "allocatable":{"cpu":"1"}}}]})";
  Result<ListPage<NodeInfo>> allocatable = DecodeNodeList(list);
  ASSERT_TRUE(allocatable.ok());
  ASSERT_EQ(allocatable->items.size(), 2u);
  EXPECT_EQ(allocatable->items[0].cpu_millis, 3500);
  Result<ListPage<NodeInfo>> capacity =
      DecodeNodeList(list, {}, CountedCpu::kCapacity);
  ASSERT_TRUE(capacity.ok());
  ASSERT_EQ(capacity->items.size(), 1u);
  EXPECT_EQ(capacity->items[0].cpu_millis, 4000);
  ASSERT_EQ(capacity->item_errors.size(), 1u);
  EXPECT_NE(capacity->item_errors[0].find("node b status.capacity.cpu"),
            std::string::npos)
      << capacity->item_errors[0];
  Result<WatchEvent<NodeInfo>> event = DecodeNodeWatchEvent(
      R"({"type":"ADDED","object":{"metadata":{"name":"c"},"status":{
          "allocatable":{"cpu":"1"},"capacity":{"cpu":"2"}}}})",
      {}, CountedCpu::kCapacity);
  ASSERT_TRUE(event.ok());
  ASSERT_TRUE(event->object.has_value());
  EXPECT_EQ(event->object->cpu_millis, 2000);
}

TEST(DecodeTest, WatchEvents) {
  Result<WatchEvent<NodeInfo>> added = DecodeNodeWatchEvent(
      R"({"type":"ADDED","object":{"metadata":{"name":"n","resourceVersion":"7"},"status":{"allocatable":{"cpu":"1"}}}})");
  ASSERT_TRUE(added.ok()) << added.status().message();
  EXPECT_EQ(added->type, WatchEventType::kAdded);
  EXPECT_EQ(added->resource_version, "7");
  EXPECT_EQ(added->object->cpu_millis, 1000);

  Result<WatchEvent<NodeInfo>> bookmark = DecodeNodeWatchEvent(
      R"({"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}})");
  ASSERT_TRUE(bookmark.ok());
  EXPECT_EQ(bookmark->type, WatchEventType::kBookmark);
  EXPECT_EQ(bookmark->resource_version, "9");

  Result<WatchEvent<NodeInfo>> gone = DecodeNodeWatchEvent(
      R"({"type":"ERROR","object":{"kind":"Status","code":410,"message":"too old"}})");
  ASSERT_TRUE(gone.ok());
  EXPECT_EQ(gone->error_code, 410);
  EXPECT_EQ(gone->error_message, "too old");

  EXPECT_FALSE(DecodeNodeWatchEvent("{not json").ok());
  EXPECT_FALSE(DecodeNodeWatchEvent(R"({"type":"RENAMED","object":{}})").ok());
}

constexpr char kTaintedNodes[] = R"({"items":[
  {"metadata":{"name":"unreachable"},
   "spec":{"taints":[{"key":"other","effect":"NoSchedule"},
                     {"effect":"NoExecute","timeAdded":"2024-01-01T00:00:00Z",
                      "key":"node.kubernetes.io/unreachable"}]},
   "status":{"conditions":[{"type":"Ready","status":"True"}]}},
  {"metadata":{"name":"virtual"},
   "spec":{"taints":[{"key":"virtual-kubelet.io/provider","value":"x",
                      "effect":"NoSchedule"}]},
   "status":{"conditions":[{"type":"Ready","status":"True"}]}},
  {"metadata":{"name":"prefer"},
   "spec":{"taints":[{"key":"virtual-kubelet.io/provider",
                      "effect":"PreferNoSchedule"}]},
   "status":{"conditions":[{"type":"Ready","status":"True"}]}},
  {"metadata":{"name":"plain"},"spec":{"taints":[]},
   "status":{"conditions":[{"type":"Ready","status":"True"}]}}]})";

TEST(DecodeTest, NodeTaintsExcludeOnlyWhenListed) {
  Result<TaintFilter> filter = TaintFilter::Parse(
      "node.kubernetes.io/unreachable,virtual-kubelet.io/provider:NoSchedule");
  ASSERT_TRUE(filter.ok()) << filter.status().message();
  Result<ListPage<NodeInfo>> page = DecodeNodeList(kTaintedNodes, *filter);
  ASSERT_TRUE(page.ok()) << page.status().message();
  ASSERT_EQ(page->items.size(), 4u);
  // Key alone: any effect, in any field order, after a taint not listed.
  EXPECT_TRUE(page->items[0].excluded_by_taint);
  EXPECT_FALSE(page->items[0].schedulable());
  // key:Effect: that effect only.
  EXPECT_TRUE(page->items[1].excluded_by_taint);
  EXPECT_FALSE(page->items[2].excluded_by_taint);
  EXPECT_TRUE(page->items[2].schedulable());
  EXPECT_FALSE(page->items[3].excluded_by_taint);

  // Without a filter taints are not read at all.
  Result<ListPage<NodeInfo>> unfiltered = DecodeNodeList(kTaintedNodes);
  ASSERT_TRUE(unfiltered.ok());
  for (const NodeInfo& node : unfiltered->items) {
    EXPECT_FALSE(node.excluded_by_taint) << node.name;
    EXPECT_TRUE(node.schedulable()) << node.name;
  }
}

TEST(DecodeTest, WatchEventNodeTaints) {
  Result<TaintFilter> filter =
      TaintFilter::Parse("node.kubernetes.io/out-of-service:NoExecute");
  ASSERT_TRUE(filter.ok());
  const std::string tainted =
      R"({"type":"MODIFIED","object":{"metadata":{"name":"n"},"spec":{"taints":[{"key":"node.kubernetes.io/out-of-service","effect":"NoExecute"}]}}})";
  Result<WatchEvent<NodeInfo>> event = DecodeNodeWatchEvent(tainted, *filter);
  ASSERT_TRUE(event.ok()) << event.status().message();
  EXPECT_TRUE(event->object->excluded_by_taint);
  EXPECT_FALSE(DecodeNodeWatchEvent(tainted)->object->excluded_by_taint);

  Result<WatchEvent<NodeInfo>> other_effect = DecodeNodeWatchEvent(
      R"({"type":"MODIFIED","object":{"metadata":{"name":"n"},"spec":{"taints":[{"key":"node.kubernetes.io/out-of-service","effect":"NoSchedule"}]}}})",
      *filter);
  ASSERT_TRUE(other_effect.ok());
  EXPECT_FALSE(other_effect->object->excluded_by_taint);
}

TEST(DecodeTest, ConfigMapRoundTrip) {
  ConfigMap config_map;
  config_map.name = "dns-autoscaler";
  config_map.namespace_ = "kube-system";
  config_map.resource_version = "5";
  config_map.data = {{"linear", R"({"coresPerReplica":256})"}};
  config_map.annotations = {{"propscaler.io/default-params-hash", "abc"}};
  Result<ConfigMap> decoded = DecodeConfigMap(EncodeConfigMap(config_map));
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(decoded->name, config_map.name);
  EXPECT_EQ(decoded->namespace_, config_map.namespace_);
  EXPECT_EQ(decoded->resource_version, "5");
  EXPECT_EQ(decoded->data, config_map.data);
  EXPECT_EQ(decoded->annotations, config_map.annotations);
}

TEST(DecodeTest, ScaleAndStatus) {
  Result<Scale> scale = DecodeScale(
      R"({"kind":"Scale","metadata":{"resourceVersion":"3"},"spec":{"replicas":4},"status":{"replicas":2}})");
  ASSERT_TRUE(scale.ok());
  EXPECT_EQ(scale->spec_replicas, 4);
  EXPECT_EQ(scale->status_replicas, 2);
  EXPECT_EQ(EncodeReplicasPatch(5), R"({"spec":{"replicas":5}})");
  EXPECT_EQ(DecodeStatusMessage(R"({"kind":"Status","message":"nope"})"),
            "nope");
  EXPECT_EQ(DecodeStatusMessage("plain"), "plain");
}

}  // namespace
}  // namespace propscaler::kube
