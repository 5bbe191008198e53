#include <gtest/gtest.h>

#include <set>

#include "nodescale/expander/chain.h"
#include "nodescale/expander/least_waste.h"
#include "nodescale/expander/most_pods.h"
#include "nodescale/expander/price.h"
#include "nodescale/expander/priority.h"
#include "nodescale/expander/random.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

ExpansionOption Option(const std::string& group, int64_t nodes, int64_t pods,
                       int64_t requested_cpu, int64_t node_cpu,
                       std::optional<double> price = std::nullopt) {
  ExpansionOption o;
  o.group = group;
  o.node_count = nodes;
  o.pod_count = pods;
  o.requested = Res(requested_cpu, nodes * kGi, pods);
  o.allocatable_per_node = Res(node_cpu, kGi);
  o.price_per_node = price;
  return o;
}

std::vector<std::string> Groups(const std::vector<const ExpansionOption*>& v) {
  std::vector<std::string> out;
  for (const ExpansionOption* o : v) out.push_back(o->group);
  return out;
}

PriorityConfig Priorities(std::map<int, std::vector<std::string>> patterns) {
  Result<PriorityConfig> config = CompilePriorities(patterns);
  EXPECT_TRUE(config.ok()) << config.status().message();
  return *config;
}

TEST(NodescaleExpanderTest, MostPodsKeepsTies) {
  ExpansionOption a = Option("a", 1, 5, 100, 1000);
  ExpansionOption b = Option("b", 2, 9, 100, 1000);
  ExpansionOption c = Option("c", 3, 9, 100, 1000);
  MostPodsExpander expander;
  EXPECT_EQ(Groups(expander.BestOptions({&a, &b, &c})),
            (std::vector<std::string>{"b", "c"}));
}

TEST(NodescaleExpanderTest, LeastWastePrefersFullerNodes) {
  // 3 cpu requested: one 4-cpu node wastes 25% cpu, one 16-cpu node 81%.
  ExpansionOption small = Option("small", 1, 3, 3000, 4000);
  ExpansionOption big = Option("big", 1, 3, 3000, 16000);
  LeastWasteExpander expander;
  EXPECT_EQ(Groups(expander.BestOptions({&big, &small})),
            (std::vector<std::string>{"small"}));
  EXPECT_DOUBLE_EQ(WasteScore(small), 0.25 + 0.0);
}

TEST(NodescaleExpanderTest, PriceIsPerPodAndIgnoresUnpriced) {
  ExpansionOption cheap_nodes = Option("cheap", 4, 4, 100, 1000, 0.1);  // .1
  ExpansionOption dense = Option("dense", 1, 8, 100, 1000, 0.4);        // .05
  ExpansionOption unpriced = Option("free", 1, 8, 100, 1000);
  PriceExpander expander;
  EXPECT_EQ(Groups(expander.BestOptions({&cheap_nodes, &dense, &unpriced})),
            (std::vector<std::string>{"dense"}));
  EXPECT_EQ(Groups(expander.BestOptions({&unpriced})),
            (std::vector<std::string>{"free"}));
}

TEST(NodescaleExpanderTest, PriorityHighestMatchWinsUnmatchedNeverChosen) {
  PriorityExpander expander(
      Priorities({{10, {".*small.*"}}, {50, {"^big-", "^huge-"}}}));
  ExpansionOption small = Option("pool-small-1", 1, 1, 1, 1);
  ExpansionOption big = Option("big-1", 1, 1, 1, 1);
  ExpansionOption huge = Option("huge-1", 1, 1, 1, 1);
  ExpansionOption other = Option("other", 1, 1, 1, 1);
  EXPECT_EQ(Groups(expander.BestOptions({&small, &big, &other, &huge})),
            (std::vector<std::string>{"big-1", "huge-1"}));
  EXPECT_EQ(Groups(expander.BestOptions({&small, &other})),
            (std::vector<std::string>{"pool-small-1"}));  // unanchored
  EXPECT_TRUE(expander.BestOptions({&other}).empty());
}

TEST(NodescaleExpanderTest, BadPriorityRegexIsNamed) {
  Result<PriorityConfig> config = CompilePriorities({{7, {"([a-z"}}});
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("priority 7: regex \"([a-z\""),
            std::string::npos)
      << config.status().message();
}

TEST(NodescaleExpanderTest, RandomIsDeterministicPerSeedAndCoversAll) {
  ExpansionOption a = Option("a", 1, 1, 1, 1);
  ExpansionOption b = Option("b", 1, 1, 1, 1);
  ExpansionOption c = Option("c", 1, 1, 1, 1);
  std::set<std::string> seen;
  for (uint64_t seed = 0; seed < 30; ++seed) {
    std::mt19937_64 rng1(seed);
    std::mt19937_64 rng2(seed);
    RandomExpander first(&rng1);
    RandomExpander second(&rng2);
    auto x = first.BestOptions({&a, &b, &c});
    ASSERT_EQ(x.size(), 1u);
    EXPECT_EQ(x, second.BestOptions({&a, &b, &c}));
    seen.insert(x[0]->group);
  }
  EXPECT_EQ(seen.size(), 3u);
}

TEST(NodescaleExpanderTest, ChainNarrowsInOrder) {
  std::mt19937_64 rng(1);
  Result<std::unique_ptr<ExpanderChain>> chain =
      MakeExpanderChain("priority,least-waste",
                        Priorities({{50, {"^fast-"}}, {10, {"^slow-"}}}), &rng);
  ASSERT_TRUE(chain.ok()) << chain.status().message();
  ExpansionOption fast_wasteful = Option("fast-big", 1, 3, 3000, 16000);
  ExpansionOption fast_tight = Option("fast-small", 1, 3, 3000, 4000);
  ExpansionOption slow_tight = Option("slow-exact", 1, 3, 3000, 3000);
  EXPECT_EQ((*chain)->Choose({&slow_tight, &fast_wasteful, &fast_tight}),
            &fast_tight);
  EXPECT_EQ((*chain)->Choose({&slow_tight}), &slow_tight);
  ExpansionOption unlisted = Option("other", 1, 3, 3000, 3000);
  EXPECT_EQ((*chain)->Choose({&unlisted}), nullptr);
}

TEST(NodescaleExpanderTest, ChainSettlesTiesAtRandom) {
  std::mt19937_64 rng(3);
  auto chain = MakeExpanderChain("most-pods", {}, &rng);
  ASSERT_TRUE(chain.ok());
  ExpansionOption a = Option("a", 1, 4, 1, 1);
  ExpansionOption b = Option("b", 1, 4, 1, 1);
  ExpansionOption c = Option("c", 1, 1, 1, 1);
  const ExpansionOption* chosen = (*chain)->Choose({&a, &b, &c});
  EXPECT_TRUE(chosen == &a || chosen == &b);
}

TEST(NodescaleExpanderTest, UnknownExpanderIsAnError) {
  std::mt19937_64 rng(0);
  auto chain = MakeExpanderChain("priority,cheapest", {}, &rng);
  ASSERT_FALSE(chain.ok());
  EXPECT_NE(chain.status().message().find("\"cheapest\" is unknown"),
            std::string::npos)
      << chain.status().message();
}

TEST(NodescaleExpanderTest, ThePriorityExpanderIsNamedInTheChain) {
  EXPECT_TRUE(UsesPriorityExpander("priority"));
  EXPECT_TRUE(UsesPriorityExpander("least-waste,priority,random"));
  EXPECT_FALSE(UsesPriorityExpander("least-waste"));
  EXPECT_FALSE(UsesPriorityExpander(""));
}

}  // namespace
}  // namespace propscaler::nodescale
