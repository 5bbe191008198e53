#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kube/wire/json_list_watch.h"

namespace propscaler::kube {
namespace {

struct Scanned {
  Status status;
  JsonListScan scan;
  std::vector<std::string> items;
};

Scanned Scan(const std::string& body) {
  Scanned out;
  out.status = ScanJsonList(body, "pod list", &out.scan,
                            [&](std::string_view item, size_t i) {
                              EXPECT_EQ(i, out.items.size());
                              out.items.emplace_back(item);
                            });
  return out;
}

TEST(JsonListScanTest, FindsTheMetadataAndEachItemsText) {
  // Keys named like the list's own inside items and metadata do not count.
  const Scanned got =
      Scan(R"({"kind":"PodList","metadata":{"resourceVersion":"42",)"
           R"("continue":"next","labels":{"continue":"no"}},"items":[)"
           R"({"metadata":{"name":"a","resourceVersion":"7"},"items":[1,{}]},)"
           R"( {"b":"}\"{"} ,null,{}]})");
  ASSERT_TRUE(got.status.ok()) << got.status.message();
  EXPECT_EQ(got.scan.resource_version, "42");
  EXPECT_EQ(got.scan.continue_token, "next");
  EXPECT_EQ(
      got.items,
      (std::vector<std::string>{
          R"({"metadata":{"name":"a","resourceVersion":"7"},"items":[1,{}]})",
          R"({"b":"}\"{"})", "", "{}"}));
}

TEST(JsonListScanTest, ItemsNullOrAbsentIsAnEmptyList) {
  EXPECT_TRUE(Scan(R"({"metadata":{},"items":null})").items.empty());
  EXPECT_TRUE(Scan(R"({"metadata":{"resourceVersion":"1"}})").items.empty());
}

TEST(JsonListScanTest, BadJsonIsAnErrorNamingWhatAndWhere) {
  const Scanned cut = Scan(R"({"items":[{"a":1},{"b":)");  // 23 chars
  EXPECT_FALSE(cut.status.ok());
  EXPECT_NE(cut.status.message().find("pod list: invalid JSON at offset 23"),
            std::string::npos)
      << cut.status.message();
  EXPECT_EQ(Scan("[1,2]").status.message(), "pod list: not a JSON object");
}

}  // namespace
}  // namespace propscaler::kube
