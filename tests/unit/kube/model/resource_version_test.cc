#include "kube/model/resource_version.h"

#include <gtest/gtest.h>

namespace propscaler::kube {
namespace {

TEST(ResourceVersionTest, OrdersEtcdRevisionsOnly) {
  EXPECT_EQ(CompareResourceVersions("10", "9"), VersionOrder::kNewer);
  EXPECT_EQ(CompareResourceVersions("9", "10"), VersionOrder::kOlder);
  EXPECT_EQ(CompareResourceVersions("123", "124"), VersionOrder::kOlder);
  EXPECT_EQ(CompareResourceVersions("42", "42"), VersionOrder::kSame);
  EXPECT_EQ(CompareResourceVersions("18446744073709551616", "9"),
            VersionOrder::kNewer);  // beyond 64 bits still ordered
  // Not decimal revisions: never guessed.
  EXPECT_EQ(CompareResourceVersions("", "5"), VersionOrder::kUnknown);
  EXPECT_EQ(CompareResourceVersions("", ""), VersionOrder::kUnknown);
  EXPECT_EQ(CompareResourceVersions("abc", "abd"), VersionOrder::kUnknown);
  EXPECT_EQ(CompareResourceVersions("07", "8"), VersionOrder::kUnknown);
  EXPECT_EQ(CompareResourceVersions("1e3", "5"), VersionOrder::kUnknown);
  EXPECT_EQ(CompareResourceVersions("abc", "abc"), VersionOrder::kSame);
}

}  // namespace
}  // namespace propscaler::kube
