#include "app/mode_choice.h"

#include <gtest/gtest.h>

namespace propscaler {
namespace {

TEST(ModeChoiceTest, CpvaCommandLinesRunVerticalModeUnchanged) {
  // As CPVA's example manifests run it: /cpvpa with its flags.
  EXPECT_EQ(ChooseMode({.program = "/cpvpa"}), "vertical");
  EXPECT_EQ(ChooseMode({.program = "/usr/local/bin/propscaler",
                        .vertical_config_given = true}),
            "vertical");
  EXPECT_EQ(ChooseMode({.program = "propscaler"}), "replicas");
  EXPECT_EQ(ChooseMode({.program = "/cluster-proportional-autoscaler"}),
            "replicas");
  // --mode always decides.
  EXPECT_EQ(
      ChooseMode({.program = "/cpvpa", .mode_given = true, .mode = "replicas"}),
      "replicas");
  EXPECT_EQ(ChooseMode({.program = "propscaler",
                        .mode_given = true,
                        .mode = "node-scale",
                        .vertical_config_given = true}),
            "node-scale");
}

}  // namespace
}  // namespace propscaler
