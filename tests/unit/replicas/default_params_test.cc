#include "replicas/default_params.h"

#include <gtest/gtest.h>

namespace propscaler {
namespace {

const ConfigMapData kOld = {{"linear", R"({"coresPerReplica":256})"}};
const ConfigMapData kNew = {{"linear", R"({"coresPerReplica":128})"}};

TEST(DefaultParamsTest, CreatesWhenAbsent) {
  EXPECT_EQ(DecideDefaultParams(std::nullopt, kNew),
            DefaultParamsAction::kCreate);
}

TEST(DefaultParamsTest, NothingWhenItHoldsTheDefaults) {
  EXPECT_EQ(DecideDefaultParams(ConfigMapContent{kNew, std::nullopt}, kNew),
            DefaultParamsAction::kNone);
}

TEST(DefaultParamsTest, UpdatesWhatPropscalerWroteWhenTheFlagChanges) {
  ConfigMapContent written{kOld, HashConfigMapData(kOld)};
  EXPECT_EQ(DecideDefaultParams(written, kNew), DefaultParamsAction::kUpdate);
}

TEST(DefaultParamsTest, LeavesEditedOrForeignConfigMapsAlone) {
  ConfigMapData edited = {{"linear", R"({"coresPerReplica":64})"}};
  EXPECT_EQ(DecideDefaultParams(
                ConfigMapContent{edited, HashConfigMapData(kOld)}, kNew),
            DefaultParamsAction::kKeepEdited);
  EXPECT_EQ(DecideDefaultParams(ConfigMapContent{kOld, std::nullopt}, kNew),
            DefaultParamsAction::kKeepEdited);
}

TEST(DefaultParamsTest, HashIsStableAndSeparatesKeysFromValues) {
  EXPECT_EQ(HashConfigMapData(kOld), HashConfigMapData(kOld));
  EXPECT_NE(HashConfigMapData(kOld), HashConfigMapData(kNew));
  EXPECT_NE(HashConfigMapData({{"ab", "c"}}), HashConfigMapData({{"a", "bc"}}));
  EXPECT_EQ(HashConfigMapData(kOld).size(), 16u);
}

}  // namespace
}  // namespace propscaler
