// Decoding PodTemplates as the ProvisioningRequests' watch lists them.
#include <gtest/gtest.h>

#include "kube/model/request_pod_template.h"
#include "kube/wire/provisioning_request_json.h"

namespace propscaler::kube {
namespace {

TEST(PodTemplateListTest, KeepsEachTemplatesPodInItsNamespace) {
  Result<ListPage<PodTemplate>> page = RequestPodTemplateCodec().decode_list(
      R"({"kind":"PodTemplateList","metadata":{"resourceVersion":"9"},)"
      R"("items":[{"metadata":{"name":"worker","namespace":"batch",)"
      R"("resourceVersion":"7"},"template":{"metadata":{"labels":)"
      R"({"app":"w"}},"spec":{"containers":[{"name":"c","resources":)"
      R"({"requests":{"cpu":"1500m","memory":"2Gi"}}}]}}}]})");
  ASSERT_TRUE(page.ok()) << page.status().message();
  ASSERT_EQ(page->items.size(), 1u);
  const PodTemplate& t = page->items[0];
  EXPECT_EQ(t.Key(), "batch/worker");
  EXPECT_EQ(t.resource_version, "7");
  EXPECT_TRUE(t.error.empty()) << t.error;
  EXPECT_EQ(t.pod.namespace_, "batch");
  EXPECT_EQ(t.pod.requests.cpu_millis, 1500);
  EXPECT_EQ(t.pod.requests.memory_bytes, int64_t{2} << 30);
}

// A template whose pod cannot be read stays listed with why, so the
// requests that name it fail with that reason and not "not in the cluster".
TEST(PodTemplateListTest, ATemplateThatCannotBeReadKeepsItsError) {
  Result<ListPage<PodTemplate>> page = RequestPodTemplateCodec().decode_list(
      R"({"metadata":{"resourceVersion":"9"},"items":[)"
      R"({"metadata":{"name":"bad","namespace":"batch"},)"
      R"("template":{"spec":{"containers":"none"}}}]})");
  ASSERT_TRUE(page.ok()) << page.status().message();
  ASSERT_EQ(page->items.size(), 1u);
  EXPECT_EQ(page->items[0].Key(), "batch/bad");
  EXPECT_NE(page->items[0].error.find("PodTemplate batch/bad"),
            std::string::npos)
      << page->items[0].error;
  EXPECT_NE(page->items[0].error.find("containers"), std::string::npos)
      << page->items[0].error;
}

}  // namespace
}  // namespace propscaler::kube
