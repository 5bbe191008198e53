// --default-params: creates, recreates, updates what propscaler wrote, and
// leaves a person's edits alone.
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::seconds;

constexpr char kDefaultsA[] = R"({"linear":{"nodesPerReplica":2}})";
constexpr char kDefaultsB[] = R"({"linear":{"nodesPerReplica":1,"min":1}})";

class DefaultParamsTest : public ReplicaClusterTest {
 protected:
  void SetUp() override { StartServer(); }

  std::optional<std::string> LinearData() const {
    auto data = server_.ConfigMapData(kNamespace, kConfigMap);
    if (!data.has_value() || !data->count("linear")) return std::nullopt;
    return data->at("linear");
  }
};

TEST_F(DefaultParamsTest, CreatesAndRecreatesTheConfigMap) {
  auto propscaler = Start(
      {"--healthz-port=0", std::string("--default-params=") + kDefaultsA});
  ASSERT_TRUE(WaitForReplicas(2)) << propscaler->Report();
  EXPECT_EQ(LinearData(), R"({"nodesPerReplica":2})");

  auto deleted = ApiDelete(std::string("/api/v1/namespaces/") + kNamespace +
                           "/configmaps/" + kConfigMap);
  ASSERT_TRUE(deleted && deleted->status == 200);
  ASSERT_TRUE(WaitUntil([&] { return LinearData().has_value(); }, seconds(3)))
      << propscaler->Report();
  EXPECT_EQ(LinearData(), R"({"nodesPerReplica":2})");
}

TEST_F(DefaultParamsTest, UpdatesUneditedConfigMapWhenTheFlagChanges) {
  ASSERT_EQ(RunOnce({std::string("--default-params=") + kDefaultsA}), 0);
  EXPECT_EQ(Replicas(), 2);
  std::string output;
  ASSERT_EQ(RunOnce({std::string("--default_params=") + kDefaultsB}, &output),
            0);
  EXPECT_EQ(LinearData(), R"({"min":1,"nodesPerReplica":1})") << output;
  EXPECT_EQ(Replicas(), 4);
}

TEST_F(DefaultParamsTest, LeavesAnEditedConfigMapAlone) {
  ASSERT_EQ(RunOnce({std::string("--default-params=") + kDefaultsA}), 0);
  ASSERT_TRUE(server_
                  .PutConfigMap(kNamespace, kConfigMap,
                                {{"linear", R"({"nodesPerReplica":4})"}})
                  .ok());
  std::string output;
  ASSERT_EQ(RunOnce({std::string("--default-params=") + kDefaultsB}, &output),
            0);
  EXPECT_EQ(LinearData(), R"({"nodesPerReplica":4})");
  EXPECT_EQ(Replicas(), 1);
  EXPECT_NE(output.find("differs from --default-params"), std::string::npos)
      << output;
}

TEST_F(DefaultParamsTest, DryRunWritesNothing) {
  std::string output;
  ASSERT_EQ(
      RunOnce({std::string("--default-params=") + kDefaultsA, "--dry-run"},
              &output),
      0);
  EXPECT_FALSE(LinearData().has_value());
  EXPECT_EQ(Replicas(), 1);
  EXPECT_NE(output.find("would scale deployment/coredns from 1 to 2"),
            std::string::npos)
      << output;
}

}  // namespace
}  // namespace propscaler::e2e
