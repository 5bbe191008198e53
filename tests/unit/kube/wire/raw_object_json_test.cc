// Objects kept as served: their identity read, their JSON whole.
#include "kube/wire/raw_object_json.h"

#include <gtest/gtest.h>

namespace propscaler::kube {
namespace {

TEST(RawObjectJsonTest, AListKeepsEachItemWholeAndNamesTheBadOne) {
  const ListWatchCodec<RawObject> codec = RawObjectCodec();
  Result<ListPage<RawObject>> page = codec.decode_list(
      R"({"kind":"NodePoolList","metadata":{"resourceVersion":"42"},"items":[)"
      R"({"kind":"NodePool","metadata":{"name":"general",)"
      R"("resourceVersion":"40"},"spec":{"weight":10}},)"
      R"({"kind":"NodePool","metadata":{}}]})");
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_EQ(page->resource_version, "42");
  ASSERT_EQ(page->items.size(), 1u);
  const RawObject& pool = page->items.front();
  EXPECT_EQ(pool.Key(), "general");
  EXPECT_EQ(pool.resource_version, "40");
  EXPECT_EQ(pool.json, R"({"kind":"NodePool","metadata":{"name":"general",)"
                       R"("resourceVersion":"40"},"spec":{"weight":10}})");
  ASSERT_EQ(page->item_errors.size(), 1u);
  EXPECT_EQ(page->item_errors.front(), "items[1]: metadata.name: missing");
}

TEST(RawObjectJsonTest, AWatchEventCarriesTheObject) {
  Result<WatchEvent<RawObject>> event = RawObjectCodec().decode_event(
      R"({"type":"DELETED","object":{"metadata":{"name":"p",)"
      R"("namespace":"ns","resourceVersion":"7"}}})");
  ASSERT_TRUE(event.ok()) << event.status().message();
  EXPECT_EQ(event->type, WatchEventType::kDeleted);
  ASSERT_TRUE(event->object.has_value());
  EXPECT_EQ(event->object->Key(), "ns/p");
  EXPECT_EQ(event->resource_version, "7");
}

}  // namespace
}  // namespace propscaler::kube
