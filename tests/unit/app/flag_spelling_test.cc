#include "app/flag_spelling.h"

#include <gtest/gtest.h>

namespace propscaler {
namespace {

TEST(FlagSpellingTest, DashesInNamesBecomeUnderscores) {
  EXPECT_EQ(NormalizeFlagSpelling({"propscaler", "--poll-period-seconds=5",
                                   "--default-params={\"a-b\":1}",
                                   "-max-sync-failures", "3"}),
            (std::vector<std::string>{"propscaler", "--poll_period_seconds=5",
                                      "--default_params={\"a-b\":1}",
                                      "-max_sync_failures", "3"}));
}

TEST(FlagSpellingTest, UnderscoresAndValuesAreKept) {
  EXPECT_EQ(
      NormalizeFlagSpelling({"p", "--poll_period_seconds=5", "--nodelabels",
                             "a-b=c-d", "--", "--x-y"}),
      (std::vector<std::string>{"p", "--poll_period_seconds=5", "--nodelabels",
                                "a-b=c-d", "--", "--x-y"}));
}

TEST(FlagSpellingTest, ExcludeNodeTaintsValueKeepsItsDashes) {
  EXPECT_EQ(NormalizeFlagSpelling(
                {"p", "--exclude-node-taints=node.kubernetes.io/out-of-service",
                 "--exclude_node_taints=virtual-kubelet.io/provider"}),
            (std::vector<std::string>{
                "p", "--exclude_node_taints=node.kubernetes.io/out-of-service",
                "--exclude_node_taints=virtual-kubelet.io/provider"}));
}

}  // namespace
}  // namespace propscaler
