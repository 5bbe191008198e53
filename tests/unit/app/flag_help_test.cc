// propscaler --help's text, from the flags' descriptions (pure).
#include "app/flag_help.h"

#include <gtest/gtest.h>

namespace propscaler {
namespace {

TEST(FlagHelpTest, GroupsOwnFlagsByModeDashedAndLeavesOthersOut) {
  const std::vector<FlagDescription> flags = {
      {"max_node_provision_time", "string", "15m", "How long a node may take.",
       "/src/app/node_scale_flags.cc"},
      {"poll_period_seconds", "int32", "10", "Seconds between cycles.",
       "/src/app/replica_mode.cc"},
      {"kubeconfig", "string", "", "kubeconfig file.",
       "/src/app/shared_flags.cc"},
      {"log_dir", "string", "", "glog's.", "src/logging.cc"},
      {"apply_to", "string", "", "a replica flag sorted first",
       "/src/app/replica_mode.cc"}};
  const std::string help = FlagsHelp("usage line", flags);
  EXPECT_EQ(help.find("usage line\n"), 0u);
  const size_t every = help.find("\nEvery mode:\n  --kubeconfig (string)\n");
  const size_t replica = help.find("\nReplica mode");
  const size_t node_scale = help.find(
      "\nNode-scale mode (--mode=node-scale):\n"
      "  --max-node-provision-time (string, default 15m)\n"
      "      How long a node may take.\n");
  ASSERT_NE(every, std::string::npos) << help;
  ASSERT_NE(replica, std::string::npos) << help;
  ASSERT_NE(node_scale, std::string::npos) << help;
  EXPECT_LT(every, replica);
  EXPECT_LT(replica, node_scale);
  EXPECT_LT(help.find("--apply-to"), help.find("--poll-period-seconds"));
  EXPECT_EQ(help.find("Vertical mode"), std::string::npos) << "no flags";
  EXPECT_EQ(help.find("log-dir"), std::string::npos) << help;
}

TEST(FlagHelpTest, WrapsLongDescriptions) {
  const std::string word = "abcdefghi ";
  std::string long_text;
  for (int i = 0; i < 20; ++i) long_text += word;
  const std::string help = FlagsHelp(
      "u", {{"mode", "string", "replicas", long_text,
             "/src/app/shared_flags.cc"}});
  size_t start = help.find("      abcdefghi");
  ASSERT_NE(start, std::string::npos) << help;
  while (start < help.size()) {
    const size_t end = help.find('\n', start);
    if (end == std::string::npos) break;
    if (help.compare(start, 6, "      ") != 0) break;
    EXPECT_LE(end - start, 78u) << help.substr(start, end - start);
    start = end + 1;
  }
}

}  // namespace
}  // namespace propscaler
