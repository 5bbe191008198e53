// Cluster Autoscaler's expander tests (cluster-autoscaler/expander/), their
// inputs and expected choices transcribed as facts. Carried over:
// - waste/waste_test.go (TestLeastWaste): 4 of 4 cases.
// - mostpods/mostpods_test.go (TestMostPods): 3 of 3.
// - priority/priority_test.go: 7 of 7 choices (the config update is a new
//   expander from the new config here: propscaler rebuilds its priorities
//   from the ConfigMap every loop; CA's Events for unmatched groups are not
//   propscaler's, which logs them).
// - random/random_test.go (TestRandomExpander): 3 of 3.
// - factory/chain_test.go (TestChainStrategy_BestOption): 5 of 5. CA's chain
//   ends in a strategy that picks one option; propscaler's ends in the
//   random expander, so CA's test strategy (the first option containing a
//   substring) is a substring filter followed by a "first option" filter.
// Not carried: price/price_test.go and price/preferred_test.go. CA's price
// expander prices a node from the cloud provider's pricing model and weighs
// it against a "preferred" node size for the cluster's size; propscaler's
// ranks options by the cost per scheduled pod of a per-node price declared
// in the node groups file, on purpose (no cloud pricing API), so CA's
// figures do not apply. fewestnodes, leastnodes and nodecountbalance are
// expanders propscaler does not have.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "nodescale/expander/chain.h"
#include "nodescale/expander/least_waste.h"
#include "nodescale/expander/most_pods.h"
#include "nodescale/expander/priority.h"
#include "nodescale/expander/random.h"

namespace propscaler::nodescale {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

std::vector<std::string> Groups(const std::vector<const ExpansionOption*>& v) {
  std::vector<std::string> out;
  for (const ExpansionOption* option : v) out.push_back(option->group);
  return out;
}

// waste_test.go: pods of 500m and 1000 MiB; one new node per option.
ExpansionOption WasteOption(const std::string& group, int64_t node_cpu_millis,
                            int64_t node_memory_mib, int pods) {
  ExpansionOption option;
  option.group = group;
  option.node_count = 1;
  option.pod_count = pods;
  option.requested.cpu_millis = 500 * pods;
  option.requested.memory_bytes = 1000 * kMiB * pods;
  option.allocatable_per_node.cpu_millis = node_cpu_millis;
  option.allocatable_per_node.memory_bytes = node_memory_mib * kMiB;
  option.allocatable_per_node.pods = 100;
  return option;
}

TEST(CaExpanderTableTest, LeastWaste) {
  LeastWasteExpander expander;
  ExpansionOption empty = WasteOption("balanced", 16 * 500, 16 * 1000, 0);
  EXPECT_EQ(Groups(expander.BestOptions({&empty})),
            std::vector<std::string>{"balanced"});

  ExpansionOption balanced = WasteOption("balanced", 16 * 500, 16 * 1000, 1);
  EXPECT_EQ(Groups(expander.BestOptions({&balanced})),
            std::vector<std::string>{"balanced"});

  ExpansionOption highmem = WasteOption("highmem", 16 * 500, 32 * 1000, 1);
  EXPECT_EQ(Groups(expander.BestOptions({&balanced, &highmem})),
            std::vector<std::string>{"balanced"});

  ExpansionOption lowcpu = WasteOption("lowcpu", 8 * 500, 16 * 1000, 1);
  EXPECT_EQ(Groups(expander.BestOptions({&balanced, &highmem, &lowcpu})),
            std::vector<std::string>{"lowcpu"});
}

ExpansionOption Named(const std::string& group, int64_t pods = 0) {
  ExpansionOption option;
  option.group = group;
  option.node_count = 1;
  option.pod_count = pods;
  return option;
}

TEST(CaExpanderTableTest, MostPods) {
  MostPodsExpander expander;
  ExpansionOption eo0 = Named("EO0", 0);
  ExpansionOption eo1 = Named("EO1", 1);
  ExpansionOption eo1b = Named("EO1b", 1);
  EXPECT_EQ(Groups(expander.BestOptions({&eo0})),
            std::vector<std::string>{"EO0"});
  EXPECT_EQ(Groups(expander.BestOptions({&eo0, &eo1})),
            std::vector<std::string>{"EO1"});
  EXPECT_EQ(Groups(expander.BestOptions({&eo0, &eo1, &eo1b})),
            (std::vector<std::string>{"EO1", "EO1b"}));
}

// priority_test.go's configs, as the ConfigMap's YAML maps them.
const std::map<int, std::vector<std::string>> kConfig = {
    {5, {".*t2\\.micro.*"}},
    {10, {".*t2\\.large.*", ".*t3\\.large.*"}},
    {50, {".*m4\\.4xlarge.*"}}};
const std::map<int, std::vector<std::string>> kOneEntryConfig = {
    {10, {".*t2\\.large.*"}}};
// Not anchored: ".t2" matches "-asg.t2" inside the group's name, as Go's
// regexp.MatchString does.
const std::map<int, std::vector<std::string>> kWildcardMatchConfig = {
    {5, {".*"}}, {10, {".t2\\.large.*"}}};

class CaPriorityTableTest : public ::testing::Test {
 protected:
  std::vector<std::string> Best(
      const std::map<int, std::vector<std::string>>& config,
      const std::vector<const ExpansionOption*>& options) {
    Result<PriorityConfig> compiled = CompilePriorities(config);
    EXPECT_TRUE(compiled.ok()) << compiled.status().message();
    PriorityExpander expander(*compiled);
    return Groups(expander.BestOptions(options));
  }

  ExpansionOption t2_micro_ = Named("my-asg.t2.micro");
  ExpansionOption t2_large_ = Named("my-asg.t2.large");
  ExpansionOption t3_large_ = Named("my-asg.t3.large");
  ExpansionOption m4_4xlarge_ = Named("my-asg.m4.4xlarge");
};

TEST_F(CaPriorityTableTest, SingleMatchingOptionOutOfOne) {
  EXPECT_EQ(Best(kConfig, {&t2_large_}),
            std::vector<std::string>{"my-asg.t2.large"});
}

TEST_F(CaPriorityTableTest, SingleMatchingOptionOutOfMany) {
  EXPECT_EQ(Best(kConfig, {&t2_large_, &m4_4xlarge_}),
            std::vector<std::string>{"my-asg.m4.4xlarge"});
}

TEST_F(CaPriorityTableTest, FiltersToHigherPriorityMatch) {
  EXPECT_EQ(Best(kWildcardMatchConfig, {&t2_large_, &t2_micro_}),
            std::vector<std::string>{"my-asg.t2.large"});
}

TEST_F(CaPriorityTableTest, TwoMatchingOptionsOutOfMany) {
  EXPECT_EQ(Best(kConfig, {&t2_large_, &t3_large_, &t2_micro_}),
            (std::vector<std::string>{"my-asg.t2.large", "my-asg.t3.large"}));
}

TEST_F(CaPriorityTableTest, EqualPrioritiesKeepBoth) {
  EXPECT_EQ(Best(kConfig, {&t2_large_, &t3_large_}),
            (std::vector<std::string>{"my-asg.t2.large", "my-asg.t3.large"}));
}

TEST_F(CaPriorityTableTest, ConfigUpdateIsFollowed) {
  // Groups the config does not name are never used.
  EXPECT_EQ(Best(kOneEntryConfig, {&t2_large_, &t3_large_, &m4_4xlarge_}),
            std::vector<std::string>{"my-asg.t2.large"});
  EXPECT_EQ(Best(kConfig, {&t2_large_, &t3_large_, &m4_4xlarge_}),
            std::vector<std::string>{"my-asg.m4.4xlarge"});
}

TEST_F(CaPriorityTableTest, EmptyConfigLetsEveryOptionThrough) {
  EXPECT_EQ(Best({}, {&t2_large_, &t3_large_, &m4_4xlarge_}),
            (std::vector<std::string>{"my-asg.t2.large", "my-asg.t3.large",
                                      "my-asg.m4.4xlarge"}));
}

TEST(CaExpanderTableTest, Random) {
  std::mt19937_64 rng(1);
  RandomExpander expander(&rng);
  ExpansionOption eo1a = Named("EO1a");
  ExpansionOption eo1b = Named("EO1b");
  EXPECT_EQ(Groups(expander.BestOptions({&eo1a})),
            std::vector<std::string>{"EO1a"});
  for (int i = 0; i < 20; ++i) {
    std::vector<std::string> one = Groups(expander.BestOptions({&eo1a, &eo1b}));
    ASSERT_EQ(one.size(), 1u);
    EXPECT_TRUE(one[0] == "EO1a" || one[0] == "EO1b") << one[0];
  }
  // CA's random strategy returns nil for no options; propscaler's chain
  // does (expanders themselves are never given an empty set).
  ExpanderChain chain({}, &rng);
  EXPECT_EQ(chain.Choose({}), nullptr);
}

// chain_test.go's test strategy: the options whose name contains a
// substring.
class SubstringFilter : public Expander {
 public:
  explicit SubstringFilter(std::string substring)
      : substring_(std::move(substring)) {}
  std::vector<const ExpansionOption*> BestOptions(
      const std::vector<const ExpansionOption*>& options) override {
    std::vector<const ExpansionOption*> out;
    for (const ExpansionOption* option : options) {
      if (option->group.find(substring_) != std::string::npos) {
        out.push_back(option);
      }
    }
    return out;
  }

 private:
  std::string substring_;
};

// With SubstringFilter before it, CA's test strategy's BestOption.
class FirstOption : public Expander {
 public:
  std::vector<const ExpansionOption*> BestOptions(
      const std::vector<const ExpansionOption*>& options) override {
    if (options.empty()) return {};
    return {options.front()};
  }
};

struct ChainCase {
  const char* name;
  std::vector<std::string> filters;
  std::string fallback;
  std::vector<std::string> options;
  std::string expected;
};

class CaChainTableTest : public ::testing::TestWithParam<ChainCase> {};

TEST_P(CaChainTableTest, ChoosesAsClusterAutoscaler) {
  const ChainCase& c = GetParam();
  std::vector<std::unique_ptr<Expander>> filters;
  for (const std::string& substring : c.filters) {
    filters.push_back(std::make_unique<SubstringFilter>(substring));
  }
  filters.push_back(std::make_unique<SubstringFilter>(c.fallback));
  filters.push_back(std::make_unique<FirstOption>());
  std::mt19937_64 rng(1);
  ExpanderChain chain(std::move(filters), &rng);
  std::vector<ExpansionOption> options;
  for (const std::string& name : c.options) options.push_back(Named(name));
  std::vector<const ExpansionOption*> pointers;
  for (const ExpansionOption& option : options) pointers.push_back(&option);
  const ExpansionOption* chosen = chain.Choose(pointers);
  ASSERT_NE(chosen, nullptr);
  EXPECT_EQ(chosen->group, c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CaChainTableTest,
    ::testing::Values(
        ChainCase{"SelectsWithNoFilters", {}, "a", {"b", "a"}, "a"},
        ChainCase{"FiltersWithOneFilter", {"a"}, "b", {"ab", "b"}, "ab"},
        ChainCase{"FiltersWithMultipleFilters",
                  {"a", "b"},
                  "x",
                  {"xab", "xa", "x"},
                  "xab"},
        ChainCase{"SelectsFromMultipleAfterFilters",
                  {"x"},
                  "a",
                  {"xc", "xaa", "xab"},
                  "xaa"},
        ChainCase{"ShortCircuits", {"a", "b"}, "x", {"a"}, "a"}),
    [](const ::testing::TestParamInfo<ChainCase>& info) {
      return std::string(info.param.name);
    });

}  // namespace
}  // namespace propscaler::nodescale
