// Decoding CapacityBuffers and their chunk sources, and the status patch.
#include "kube/model/capacity_buffer.h"

#include <gtest/gtest.h>

#include "kube/wire/capacity_buffer_json.h"

namespace propscaler::kube {
namespace {

Result<CapacityBuffer> DecodeOne(const std::string& object) {
  Result<ListPage<CapacityBuffer>> page = CapacityBufferCodec().decode_list(
      R"({"kind":"CapacityBufferList","metadata":{"resourceVersion":"9"},)"
      R"("items":[)" +
      object + "]}");
  if (!page.ok()) return page.status();
  if (page->items.size() != 1) return Status::Invalid("no item");
  return page->items[0];
}

TEST(CapacityBufferTest, DecodesSpecAndStatus) {
  Result<CapacityBuffer> b = DecodeOne(
      R"({"metadata":{"name":"web","namespace":"shop","uid":"u1",)"
      R"("resourceVersion":"7","generation":3},)"
      R"("spec":{"scalableRef":{"apiGroup":"apps","kind":"Deployment",)"
      R"("name":"web"},"percentage":20,"replicas":2,"limits":{"cpu":"16"}},)"
      R"("status":{"replicas":4,"conditions":[{"type":"Provisioning",)"
      R"("status":"True","reason":"FakePodsInjected","message":"m",)"
      R"("lastTransitionTime":"2026-11-26T00:00:00Z"}]}})");
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b->Key(), "shop/web");
  EXPECT_EQ(b->generation, 3);
  ASSERT_TRUE(b->scalable.has_value());
  EXPECT_EQ(b->scalable->kind, "Deployment");
  EXPECT_EQ(b->percentage, 20);
  EXPECT_EQ(b->replicas, 2);
  ASSERT_TRUE(b->limits.has_value());
  EXPECT_EQ(b->limits->cpu_millis, 16000);
  EXPECT_EQ(b->status_replicas, 4);
  ASSERT_EQ(b->conditions.size(), 1u);
  EXPECT_EQ(b->conditions[0].reason, "FakePodsInjected");
}

// One bad buffer is skipped (the reflector logs why), not the whole list.
TEST(CapacityBufferTest, ABadBufferIsSkippedNamingItAndTheField) {
  Result<ListPage<CapacityBuffer>> page = CapacityBufferCodec().decode_list(
      R"({"metadata":{"resourceVersion":"9"},"items":[)"
      R"({"metadata":{"name":"web","namespace":"shop"},)"
      R"("spec":{"podTemplateRef":{"name":"t"},"replicas":"two"}},)"
      R"({"metadata":{"name":"ok","namespace":"shop"},)"
      R"("spec":{"podTemplateRef":{"name":"t"},"replicas":2}}]})");
  ASSERT_TRUE(page.ok()) << page.status().message();
  ASSERT_EQ(page->items.size(), 1u);
  EXPECT_EQ(page->items[0].name, "ok");
  ASSERT_EQ(page->item_errors.size(), 1u);
  EXPECT_NE(page->item_errors[0].find("shop/web"), std::string::npos)
      << page->item_errors[0];
  EXPECT_NE(page->item_errors[0].find("spec.replicas"), std::string::npos)
      << page->item_errors[0];
}

TEST(CapacityBufferTest, ChunkSources) {
  CapacityBuffer b;
  b.namespace_ = "shop";
  b.name = "web";
  b.pod_template = "chunk";
  EXPECT_EQ(ChunkSourceOf(b)->path,
            "/api/v1/namespaces/shop/podtemplates/chunk");
  b.pod_template.clear();
  b.scalable = ScalableRef{"apps", "StatefulSet", "db"};
  EXPECT_EQ(ChunkSourceOf(b)->path,
            "/apis/apps/v1/namespaces/shop/statefulsets/db");
  b.scalable = ScalableRef{"", "ReplicationController", "old"};
  Result<BufferChunkSource> refused = ChunkSourceOf(b);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("ReplicationController"),
            std::string::npos);
}

TEST(CapacityBufferTest, WorkloadChunkDefaultsReplicasToOne) {
  Result<BufferChunk> chunk = DecodeWorkloadChunk(
      R"({"spec":{"template":{"spec":{"containers":[{"name":"c",)"
      R"("resources":{"requests":{"cpu":"500m"}}}]}}}})");
  ASSERT_TRUE(chunk.ok()) << chunk.status().message();
  EXPECT_EQ(chunk->workload_replicas, 1);
  EXPECT_EQ(chunk->pod.requests.cpu_millis, 500);
}

// Found by fuzz_capacity_buffer: a metadata that is not an object aborted.
TEST(CapacityBufferTest, TemplateMetadataThatIsNotAnObjectIsRefusedByName) {
  Result<BufferChunk> chunk =
      DecodePodTemplateChunk(R"({"template":{"metadata":"app"}})");
  ASSERT_FALSE(chunk.ok());
  EXPECT_NE(chunk.status().message().find("PodTemplate.template.metadata"),
            std::string::npos)
      << chunk.status().message();
}

TEST(CapacityBufferTest, StatusPatchKeepsTransitionTimesAndOthersConditions) {
  CapacityBuffer b;
  b.resource_version = "7";
  b.status_replicas = 2;
  b.conditions = {{"ReadyForProvisioning", "True", "AttributesSetSuccessfully",
                   "", "2026-01-01T00:00:00Z"},
                  {"LimitedByQuotas", "True", "ResourceQuotasAllocated", "q",
                   "2026-01-02T00:00:00Z"}};
  BufferStatus want{
      2,
      "",
      {{"ReadyForProvisioning", "True", "AttributesSetSuccessfully", "", ""},
       {"Provisioning", "True", "FakePodsInjected", "2", ""}}};
  EXPECT_FALSE(StatusIsCurrent(b, want));  // Provisioning is new
  const std::string patch = EncodeBufferStatusPatch(
      b, want, std::chrono::system_clock::from_time_t(1764115200));
  EXPECT_NE(patch.find(R"("resourceVersion":"7")"), std::string::npos);
  EXPECT_NE(patch.find(R"("lastTransitionTime":"2026-01-01T00:00:00Z")"),
            std::string::npos)
      << patch;
  EXPECT_NE(patch.find(R"("reason":"ResourceQuotasAllocated")"),
            std::string::npos)
      << patch;
  EXPECT_NE(patch.find(R"("reason":"FakePodsInjected","message":"2",)"
                       R"("lastTransitionTime":"2025-11-26T00:00:00Z")"),
            std::string::npos)
      << patch;

  b.conditions.push_back(
      {"Provisioning", "True", "FakePodsInjected", "2", "x"});
  EXPECT_TRUE(StatusIsCurrent(b, want));
}

}  // namespace
}  // namespace propscaler::kube
