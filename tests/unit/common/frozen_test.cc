#include "common/frozen.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace propscaler {
namespace {

using Values = std::vector<std::string>;

TEST(FrozenTest, CopiesShareOneValueUntilTheLastGoes) {
  Frozen<Values> a = Frozen<Values>::Of({"x", "y"});
  EXPECT_EQ(a.use_count(), 1);
  {
    Frozen<Values> b = a;
    EXPECT_EQ(b.identity(), a.identity());
    EXPECT_EQ(a.use_count(), 2);
    Frozen<Values> c = std::move(b);
    EXPECT_EQ(b.identity(), nullptr);  // NOLINT: moved from on purpose
    EXPECT_EQ(c.identity(), a.identity());
    EXPECT_EQ(a.use_count(), 2);
  }
  EXPECT_EQ(a.use_count(), 1);
  EXPECT_EQ(a.get(), (Values{"x", "y"}));
}

TEST(FrozenTest, EmptyValuesHoldNothingAndReadAsEmpty) {
  Frozen<Values> none;
  EXPECT_EQ(none.identity(), nullptr);
  EXPECT_EQ(none.use_count(), 0);
  EXPECT_TRUE(none.get().empty());
  Frozen<Values> made_empty = Frozen<Values>::Of({});
  EXPECT_EQ(made_empty.identity(), nullptr);
  EXPECT_TRUE(made_empty == none);
}

TEST(FrozenTest, AssigningReplacesTheValueAndComparesByValue) {
  Frozen<std::string> a;
  a = std::string("ReplicaSet");
  Frozen<std::string> b = Frozen<std::string>::Of("ReplicaSet");
  EXPECT_NE(a.identity(), b.identity());
  EXPECT_TRUE(a == b);
  EXPECT_TRUE(a == std::string("ReplicaSet"));
  Frozen<std::string> shared = a;
  a = std::string("DaemonSet");
  EXPECT_EQ(shared.get(), "ReplicaSet");  // the old value lives on in others
  EXPECT_EQ(shared.use_count(), 1);
  a.clear();
  EXPECT_TRUE(a.empty());
  a = shared;  // copy assignment over an empty handle
  EXPECT_EQ(shared.use_count(), 2);
  const Frozen<std::string>& same = a;
  a = same;  // assigning a handle to itself keeps the value
  EXPECT_EQ(a.get(), "ReplicaSet");
  EXPECT_EQ(shared.use_count(), 2);
}

}  // namespace
}  // namespace propscaler
