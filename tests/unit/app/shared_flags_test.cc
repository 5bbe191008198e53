#include "app/shared_flags.h"

#include <gtest/gtest.h>

namespace propscaler {
namespace {

TEST(ResolveNamespaceTest, FlagThenPodEnvThenClientConfigThenFallback) {
  EXPECT_EQ(*ResolveNamespace({"a", "b", "c"}, "d"), "a");
  EXPECT_EQ(*ResolveNamespace({"", "b", "c"}, "d"), "b");
  EXPECT_EQ(*ResolveNamespace({"", "", "c"}, "d"), "c");
  EXPECT_EQ(*ResolveNamespace({"", "", ""}, "kube-system"), "kube-system");
}

TEST(ResolveNamespaceTest, NoneAndNoFallbackIsAnError) {
  Result<std::string> ns = ResolveNamespace({"", "", ""}, "");
  ASSERT_FALSE(ns.ok());
  EXPECT_EQ(ns.status().message(),
            "no namespace: pass --namespace or set MY_POD_NAMESPACE");
}

TEST(ResolveNamespaceTest, BadValueNamesWhereItCameFrom) {
  Result<std::string> from_env = ResolveNamespace({"", "Bad_NS", "c"}, "");
  ASSERT_FALSE(from_env.ok());
  EXPECT_NE(
      from_env.status().message().find("namespace (from MY_POD_NAMESPACE)"),
      std::string::npos)
      << from_env.status().message();
  EXPECT_NE(from_env.status().message().find("Bad_NS"), std::string::npos);

  Result<std::string> from_config = ResolveNamespace({"", "", "x.y"}, "z");
  ASSERT_FALSE(from_config.ok());
  EXPECT_NE(
      from_config.status().message().find("namespace (from the kubeconfig)"),
      std::string::npos)
      << from_config.status().message();
}

}  // namespace
}  // namespace propscaler
