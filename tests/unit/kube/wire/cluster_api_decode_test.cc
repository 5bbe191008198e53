#include <gtest/gtest.h>

#include "kube/model/cluster_api.h"
#include "kube/wire/cluster_api_json.h"

namespace propscaler::kube {
namespace {

// A list body's items, as the watch's list decodes them.
Result<std::vector<ClusterApiObject>> DecodeClusterApiList(
    std::string_view body) {
  Result<ListPage<ClusterApiObject>> page = ClusterApiCodec().decode_list(body);
  if (!page.ok()) return page.status();
  return std::move(page->items);
}

TEST(ClusterApiDecodeTest, ListKeepsWhatTheProviderReads) {
  Result<std::vector<ClusterApiObject>> objects = DecodeClusterApiList(R"({
    "kind": "MachineSetList",
    "items": [
      {"metadata": {"namespace": "capi", "name": "ms-1",
                    "resourceVersion": "42",
                    "labels": {"cluster.x-k8s.io/deployment-name": "md"},
                    "annotations": {"a": "1", "n": 2},
                    "ownerReferences": [{"kind": "MachineDeployment",
                                         "name": "md"}]},
       "spec": {"replicas": 3, "providerID": "aws:///z/i-1"}},
      {"spec": {"replicas": 9}},
      {"metadata": {"name": "bare",
                    "deletionTimestamp": "2026-11-29T03:00:00Z"}}
    ]})");
  ASSERT_TRUE(objects.ok()) << objects.status().message();
  ASSERT_EQ(objects->size(), 2u);
  const ClusterApiObject& first = (*objects)[0];
  EXPECT_EQ(first.namespace_, "capi");
  EXPECT_EQ(first.name, "ms-1");
  EXPECT_EQ(first.labels.at("cluster.x-k8s.io/deployment-name"), "md");
  EXPECT_EQ(first.annotations, (Labels{{"a", "1"}}));  // non-strings dropped
  ASSERT_EQ(first.owners.size(), 1u);
  EXPECT_EQ(first.owners[0], (ClusterApiOwner{"MachineDeployment", "md"}));
  EXPECT_EQ(first.replicas, 3);
  EXPECT_EQ(first.provider_id, "aws:///z/i-1");
  EXPECT_EQ(first.resource_version, "42");
  EXPECT_FALSE(first.deleting);
  EXPECT_EQ((*objects)[1].name, "bare");
  EXPECT_TRUE((*objects)[1].deleting);
  EXPECT_FALSE((*objects)[1].replicas.has_value());
}

TEST(ClusterApiDecodeTest, NotAJsonObjectIsAnError) {
  EXPECT_FALSE(DecodeClusterApiList("[]").ok());
  EXPECT_FALSE(DecodeClusterApiList("[").ok());
  Result<std::vector<ClusterApiObject>> none =
      DecodeClusterApiList(R"({"items": null})");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(ClusterApiDecodeTest, WatchEventCarriesTheObject) {
  Result<WatchEvent<ClusterApiObject>> event = ClusterApiCodec().decode_event(
      R"({"type":"MODIFIED","object":{"metadata":{"namespace":"capi",)"
      R"("name":"md","resourceVersion":"7"},"spec":{"replicas":4}}})");
  ASSERT_TRUE(event.ok()) << event.status().message();
  EXPECT_EQ(event->type, WatchEventType::kModified);
  ASSERT_TRUE(event->object.has_value());
  EXPECT_EQ(event->object->name, "md");
  EXPECT_EQ(event->object->resource_version, "7");
  EXPECT_EQ(event->object->replicas, 4);
}

TEST(ClusterApiDecodeTest, AnnotationPatchSetsOrRemovesOneKey) {
  EXPECT_EQ(EncodeAnnotationPatch("cluster.x-k8s.io/delete-machine",
                                  std::string("2024-05-01T10:00:00.000000Z")),
            R"({"metadata":{"annotations":{"cluster.x-k8s.io/delete-machine":)"
            R"("2024-05-01T10:00:00.000000Z"}}})");
  EXPECT_EQ(EncodeAnnotationPatch("k\"ey", std::nullopt),
            R"({"metadata":{"annotations":{"k\"ey":null}}})");
}

}  // namespace
}  // namespace propscaler::kube
