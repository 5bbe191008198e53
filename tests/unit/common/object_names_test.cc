#include "common/object_names.h"

#include <gtest/gtest.h>

namespace propscaler {
namespace {

TEST(ObjectNamesTest, Dns1123Labels) {
  for (const char* good : {"kube-system", "a", "a1", "1a", "x-y-z"}) {
    EXPECT_TRUE(CheckDns1123Label("namespace", good).ok()) << good;
  }
  const std::string long_label(64, 'a');
  for (const std::string bad : {"", "Kube-System", "-a", "a-", "a.b", "a_b",
                                "a b", long_label.c_str()}) {
    Status status = CheckDns1123Label("namespace", bad);
    ASSERT_FALSE(status.ok()) << bad;
    EXPECT_NE(status.message().find("--namespace=" + bad), std::string::npos)
        << status.message();
  }
}

TEST(ObjectNamesTest, Dns1123Subdomains) {
  for (const char* good : {"coredns", "dns-autoscaler", "a.b.c", "x1.y-2"}) {
    EXPECT_TRUE(CheckDns1123Subdomain("configmap", good).ok()) << good;
  }
  const std::string long_name(254, 'a');
  for (const std::string bad : {"", "CoreDNS", "a..b", ".a", "a.", "-a", "a_b",
                                "a/b", long_name.c_str()}) {
    Status status = CheckDns1123Subdomain("configmap", bad);
    ASSERT_FALSE(status.ok()) << bad;
    EXPECT_NE(status.message().find("--configmap=" + bad), std::string::npos)
        << status.message();
  }
}

}  // namespace
}  // namespace propscaler
