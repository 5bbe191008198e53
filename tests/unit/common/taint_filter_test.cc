#include "common/taint_filter.h"

#include <gtest/gtest.h>

#include <string>

namespace propscaler {
namespace {

TEST(TaintFilterTest, EmptyFlagMatchesNothing) {
  for (const char* text : {"", "  "}) {
    Result<TaintFilter> filter = TaintFilter::Parse(text);
    ASSERT_TRUE(filter.ok()) << filter.status().message();
    EXPECT_TRUE(filter->empty());
    EXPECT_FALSE(
        filter->Matches("node.kubernetes.io/unreachable", "NoExecute"));
    EXPECT_EQ(filter->ToString(), "");
  }
}

TEST(TaintFilterTest, KeyMatchesAnyEffectKeyEffectOnlyThatOne) {
  Result<TaintFilter> filter = TaintFilter::Parse(
      " node.kubernetes.io/unreachable , "
      "virtual-kubelet.io/provider:NoSchedule");
  ASSERT_TRUE(filter.ok()) << filter.status().message();
  EXPECT_FALSE(filter->empty());
  EXPECT_TRUE(filter->Matches("node.kubernetes.io/unreachable", "NoExecute"));
  EXPECT_TRUE(filter->Matches("node.kubernetes.io/unreachable", "NoSchedule"));
  EXPECT_TRUE(filter->Matches("virtual-kubelet.io/provider", "NoSchedule"));
  EXPECT_FALSE(filter->Matches("virtual-kubelet.io/provider", "NoExecute"));
  EXPECT_FALSE(
      filter->Matches("node.kubernetes.io/out-of-service", "NoExecute"));
  EXPECT_EQ(filter->ToString(),
            "node.kubernetes.io/unreachable,"
            "virtual-kubelet.io/provider:NoSchedule");
}

TEST(TaintFilterTest, EveryEffectKubernetesDefines) {
  for (const char* effect : {"NoSchedule", "PreferNoSchedule", "NoExecute"}) {
    Result<TaintFilter> filter = TaintFilter::Parse(std::string("k:") + effect);
    ASSERT_TRUE(filter.ok()) << effect << ": " << filter.status().message();
    EXPECT_TRUE(filter->Matches("k", effect));
  }
}

TEST(TaintFilterTest, BadEntriesAreNamed) {
  struct Case {
    const char* text;
    const char* message;
  };
  const std::string long_key(64, 'k');
  const Case cases[] = {
      {":NoSchedule", "\":NoSchedule\": empty taint key"},
      {"a,,b", "\"\": empty taint key"},
      {"a,", "\"\": empty taint key"},
      {"a:noschedule",
       "\"a:noschedule\": unknown effect \"noschedule\"; want NoSchedule, "
       "PreferNoSchedule or NoExecute"},
      {"a:", "\"a:\": unknown effect \"\""},
      {"a:NoSchedule:x", "\"a:NoSchedule:x\": unknown effect \"NoSchedule:x\""},
      {"bad key", "\"bad key\": invalid taint key: the name part must be"},
      {"-a", "\"-a\": invalid taint key"},
      {"Example.com/a", "\"Example.com/a\": invalid taint key: the prefix"},
      {"a/b/c", "\"a/b/c\": invalid taint key: a label key has at most one"},
      {long_key.c_str(), "longer than 63 characters"},
  };
  for (const Case& c : cases) {
    Result<TaintFilter> filter = TaintFilter::Parse(c.text);
    ASSERT_FALSE(filter.ok()) << c.text;
    EXPECT_NE(filter.status().message().find(c.message), std::string::npos)
        << c.text << ": " << filter.status().message();
  }
}

}  // namespace
}  // namespace propscaler
