#include <gtest/gtest.h>

#include "nodescale/expander/priority.h"
#include "nodescale/expander/priority_config_yaml.h"

namespace propscaler::nodescale {
namespace {

TEST(PriorityConfigYamlTest, ReadsClusterAutoscalersFormat) {
  auto parsed = ParsePriorityExpanderYaml(
      "10:\n  - .*t2\\.large.*\n  - .*t3\\.large.*\n50:\n  - ^spot-.*\n"
      "\"-5\": ^last$\n");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->size(), 3u);
  EXPECT_EQ((*parsed)[10],
            (std::vector<std::string>{".*t2\\.large.*", ".*t3\\.large.*"}));
  EXPECT_EQ((*parsed)[50], (std::vector<std::string>{"^spot-.*"}));
  EXPECT_EQ((*parsed)[-5], (std::vector<std::string>{"^last$"}));
}

TEST(PriorityConfigYamlTest, BadInputIsNamed) {
  struct Case {
    const char* text;
    const char* error;
  };
  for (const Case& c : std::vector<Case>{
           {"high:\n  - x\n", "priority \"high\" is not an integer"},
           {"10:\n  a: b\n", "priority 10: want a list of regexes"},
           {"10:\n  - [a]\n", "priority 10: each regex must be a string"},
           {"- a\n- b\n", "want a mapping of priority to regexes"},
           {"10: [unclosed\n", "not YAML"},
           {"99999999999:\n  - x\n", "is not an integer"},
       }) {
    auto parsed = ParsePriorityExpanderYaml(c.text);
    ASSERT_FALSE(parsed.ok()) << c.text;
    EXPECT_NE(parsed.status().message().find(c.error), std::string::npos)
        << c.text << " -> " << parsed.status().message();
  }
}

TEST(PriorityConfigYamlTest, NoPrioritiesLetsEveryOptionPass) {
  PriorityExpander expander({});
  ExpansionOption a;
  a.group = "a";
  ExpansionOption b;
  b.group = "b";
  const std::vector<const ExpansionOption*> options = {&a, &b};
  EXPECT_EQ(expander.BestOptions(options), options);
}

}  // namespace
}  // namespace propscaler::nodescale
