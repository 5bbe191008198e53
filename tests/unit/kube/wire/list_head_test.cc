#include "kube/wire/list_head.h"

#include <gtest/gtest.h>

namespace propscaler::kube {
namespace {

TEST(ListHeadTest, ReadsTheContinueTokenBeforeTheItems) {
  EXPECT_EQ(PeekContinueToken(
                R"({"kind":"NodeList","metadata":{"resourceVersion":"5",)"
                R"("continue":"abc","x":{"continue":"no"}},"items":[{"a":1)"),
            "abc");
  // The last page: metadata without continue.
  EXPECT_EQ(
      PeekContinueToken(R"({"metadata":{"resourceVersion":"5"},"items":[]})"),
      "");
  EXPECT_EQ(PeekContinueToken(R"({"metadata":{"continue":""},"items":[]})"),
            "");
}

TEST(ListHeadTest, NothingWhenItemsComeFirstOrTheTextIsNoList) {
  EXPECT_EQ(PeekContinueToken(R"({"items":[{"metadata":{"continue":"x"}}],)"
                              R"("metadata":{"continue":"abc"}})"),
            std::nullopt);
  EXPECT_EQ(PeekContinueToken(R"({"kind":"NodeList"})"), std::nullopt);
  EXPECT_EQ(PeekContinueToken("not json"), std::nullopt);
  EXPECT_EQ(PeekContinueToken(""), std::nullopt);
  EXPECT_EQ(PeekContinueToken(R"(["metadata",{"continue":"x"}])"),
            std::nullopt);
  // A nested "metadata" object is not the list's.
  EXPECT_EQ(PeekContinueToken(R"({"spec":{"metadata":{"continue":"x"}}})"),
            std::nullopt);
}

}  // namespace
}  // namespace propscaler::kube
