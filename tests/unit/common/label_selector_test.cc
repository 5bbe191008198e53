#include "common/label_selector.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace propscaler {
namespace {

using Op = LabelRequirement::Op;

LabelSelector MustParse(const std::string& text) {
  Result<LabelSelector> s = LabelSelector::Parse(text);
  EXPECT_TRUE(s.ok()) << text << ": " << s.status().message();
  return s.ok() ? *s : LabelSelector();
}

TEST(LabelSelectorParseTest, EveryOperator) {
  LabelSelector s = MustParse(
      "a=b,c==d,e!=f,g in (y,x),h notin (z),i,!j,k=,example.com/name=v");
  const std::vector<LabelRequirement>& r = s.requirements();
  ASSERT_EQ(r.size(), 9u);
  EXPECT_EQ(r[0].key, "a");
  EXPECT_EQ(r[0].op, Op::kEquals);
  EXPECT_EQ(r[0].values, std::vector<std::string>{"b"});
  EXPECT_EQ(r[1].key, "c");
  EXPECT_EQ(r[1].op, Op::kEquals);
  EXPECT_EQ(r[1].values, std::vector<std::string>{"d"});
  EXPECT_EQ(r[2].op, Op::kNotEquals);
  EXPECT_EQ(r[2].values, std::vector<std::string>{"f"});
  EXPECT_EQ(r[3].op, Op::kIn);
  EXPECT_EQ(r[3].values, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(r[4].op, Op::kNotIn);
  EXPECT_EQ(r[4].values, std::vector<std::string>{"z"});
  EXPECT_EQ(r[5].key, "i");
  EXPECT_EQ(r[5].op, Op::kExists);
  EXPECT_TRUE(r[5].values.empty());
  EXPECT_EQ(r[6].key, "j");
  EXPECT_EQ(r[6].op, Op::kDoesNotExist);
  EXPECT_EQ(r[7].key, "k");
  EXPECT_EQ(r[7].values, std::vector<std::string>{""});
  EXPECT_EQ(r[8].key, "example.com/name");
  EXPECT_EQ(r[8].values, std::vector<std::string>{"v"});
}

TEST(LabelSelectorParseTest, ToStringIsReadBackAsTheSameSelector) {
  for (const std::string text :
       {"a=b,c!=d,g in (x,y),h notin (z),i,!j,k=,example.com/name=v", ""}) {
    const LabelSelector selector = MustParse(text);
    EXPECT_EQ(selector.ToString(), text);
    EXPECT_EQ(MustParse(selector.ToString()), selector);
  }
  EXPECT_EQ(MustParse("c==d").ToString(), "c=d");
}

TEST(LabelSelectorParseTest, WhitespaceTolerant) {
  LabelSelector s =
      MustParse("  a = b ,\tc!=d , e in( x , y ),f notin(z) , ! g , h  ");
  const std::vector<LabelRequirement>& r = s.requirements();
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r[0].key, "a");
  EXPECT_EQ(r[0].values, std::vector<std::string>{"b"});
  EXPECT_EQ(r[1].op, Op::kNotEquals);
  EXPECT_EQ(r[2].values, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(r[3].op, Op::kNotIn);
  EXPECT_EQ(r[4].key, "g");
  EXPECT_EQ(r[4].op, Op::kDoesNotExist);
  EXPECT_EQ(r[5].op, Op::kExists);
}

TEST(LabelSelectorParseTest, EmptyValuesInLists) {
  EXPECT_EQ(MustParse("a in ()").requirements()[0].values,
            std::vector<std::string>{""});
  EXPECT_EQ(MustParse("a in (x,)").requirements()[0].values,
            (std::vector<std::string>{"", "x"}));
  EXPECT_EQ(MustParse("a in (,x)").requirements()[0].values,
            (std::vector<std::string>{"", "x"}));
  EXPECT_EQ(MustParse("a in (x,x,y)").requirements()[0].values,
            (std::vector<std::string>{"x", "y"}));
}

TEST(LabelSelectorParseTest, KeywordsAreKeysAndValuesWherePlaced) {
  LabelSelector s = MustParse("in=notin,notin in (in)");
  ASSERT_EQ(s.requirements().size(), 2u);
  EXPECT_EQ(s.requirements()[0].key, "in");
  EXPECT_EQ(s.requirements()[0].values, std::vector<std::string>{"notin"});
  EXPECT_EQ(s.requirements()[1].key, "notin");
  EXPECT_EQ(s.requirements()[1].op, Op::kIn);
}

TEST(LabelSelectorParseTest, EmptySelectorMatchesEverything) {
  for (const char* text : {"", "   "}) {
    LabelSelector s = MustParse(text);
    EXPECT_TRUE(s.empty());
    EXPECT_TRUE(s.Matches({}));
    EXPECT_TRUE(s.Matches({{"a", "b"}}));
  }
  EXPECT_TRUE(LabelSelector().Matches({{"x", "y"}}));
}

struct MatchCase {
  std::string selector;
  Labels labels;
  bool matches;
};

class LabelSelectorMatchTest : public testing::TestWithParam<MatchCase> {};

TEST_P(LabelSelectorMatchTest, Matches) {
  const MatchCase& c = GetParam();
  EXPECT_EQ(MustParse(c.selector).Matches(c.labels), c.matches) << c.selector;
}

INSTANTIATE_TEST_SUITE_P(
    Semantics, LabelSelectorMatchTest,
    testing::Values(
        MatchCase{"a=b", {{"a", "b"}}, true},
        MatchCase{"a=b", {{"a", "c"}}, false}, MatchCase{"a=b", {}, false},
        MatchCase{"a==b", {{"a", "b"}, {"x", "y"}}, true},
        MatchCase{"a=", {{"a", ""}}, true}, MatchCase{"a=", {}, false},
        MatchCase{"a!=b", {{"a", "c"}}, true},
        MatchCase{"a!=b", {{"a", "b"}}, false},
        // != and notin match when the key is absent.
        MatchCase{"a!=b", {}, true},
        MatchCase{"a in (x,y)", {{"a", "y"}}, true},
        MatchCase{"a in (x,y)", {{"a", "z"}}, false},
        MatchCase{"a in (x,y)", {}, false},
        MatchCase{"a in (x,)", {{"a", ""}}, true},
        MatchCase{"a notin (x)", {{"a", "y"}}, true},
        MatchCase{"a notin (x)", {{"a", "x"}}, false},
        MatchCase{"a notin (x)", {}, true}, MatchCase{"a", {{"a", ""}}, true},
        MatchCase{"a", {{"b", "a"}}, false},
        MatchCase{"!a", {{"b", "a"}}, true},
        MatchCase{"!a", {{"a", "x"}}, false},
        MatchCase{"example.com/role=dns", {{"example.com/role", "dns"}}, true},
        // Requirements are ANDed.
        MatchCase{"a=b,c=d", {{"a", "b"}, {"c", "d"}}, true},
        MatchCase{"a=b,c=d", {{"a", "b"}}, false},
        MatchCase{"a=b,!c", {{"a", "b"}, {"c", "d"}}, false},
        MatchCase{"node-role.kubernetes.io/worker,pool notin (gpu)",
                  {{"node-role.kubernetes.io/worker", ""}, {"pool", "cpu"}},
                  true}));

struct ErrorCase {
  std::string selector;
  std::string message_part;
};

class LabelSelectorErrorTest : public testing::TestWithParam<ErrorCase> {};

TEST_P(LabelSelectorErrorTest, IsInvalidAndSaysWhere) {
  const ErrorCase& c = GetParam();
  Result<LabelSelector> s = LabelSelector::Parse(c.selector);
  ASSERT_FALSE(s.ok()) << c.selector;
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  const std::string& m = s.status().message();
  EXPECT_NE(m.find("label selector \"" + c.selector + "\""), std::string::npos)
      << m;
  EXPECT_NE(m.find(c.message_part), std::string::npos) << m;
}

INSTANTIATE_TEST_SUITE_P(
    Syntax, LabelSelectorErrorTest,
    testing::Values(
        ErrorCase{"a in (b", "missing ')' after values in \"a in (b\""},
        ErrorCase{"a in (b,c", "missing ')'"},
        ErrorCase{"a in b", "found 'b' in \"a in\", expected '('"},
        ErrorCase{"a notin", "found end of string"},
        ErrorCase{"a in (b c)", "found 'c'"},
        ErrorCase{"a in (b=)", "found '='"},
        ErrorCase{"in (x)", "found '(' after key \"in\""},
        ErrorCase{"a=b=c", "found '=' after requirement \"a=b\""},
        ErrorCase{"=b", "found '=', expected '!' or a label key"},
        ErrorCase{"a,,b", "empty requirement after ','"},
        ErrorCase{"a,", "empty requirement after ','"},
        ErrorCase{",a", "found ','"}, ErrorCase{"a=(b)", "found '('"},
        ErrorCase{"a b", "found 'b' after key \"a\""},
        ErrorCase{"!a=b", "found '=' after requirement \"!a\""},
        ErrorCase{"!", "found end of string, expected a label key after '!'"},
        ErrorCase{"!!a", "found '!'"},
        ErrorCase{"a>1", "operator '>' after key \"a\" is not supported"},
        ErrorCase{"a<1", "operator '<'"},
        ErrorCase{"-a=b", "invalid label key \"-a\""},
        ErrorCase{"a/b/c=d", "at most one '/'"},
        ErrorCase{"Example.com/a=b", "invalid label key \"Example.com/a\""},
        ErrorCase{"/a", "invalid label key \"/a\""},
        ErrorCase{"a/=b", "invalid label key \"a/\""},
        ErrorCase{std::string(64, 'k') + "=v", "longer than 63"},
        ErrorCase{"a=-b", "invalid value \"-b\" for key \"a\""},
        ErrorCase{"a in (x,y_)", "invalid value \"y_\""},
        ErrorCase{"a=" + std::string(64, 'v'), "at most 63"}));

TEST(LabelSelectorParseTest, LongestValidKeyAndValue) {
  // Kubernetes limits the whole prefix to 253 characters, not its labels.
  std::string key = std::string(200, 'p') + "." + std::string(52, 'q');
  LabelSelector s =
      MustParse(std::string(63, 'n') + "=" + std::string(63, 'v'));
  EXPECT_EQ(s.requirements().size(), 1u);
  EXPECT_TRUE(LabelSelector::Parse(key + "/name").ok());
  EXPECT_FALSE(LabelSelector::Parse(std::string(254, 'p') + "/name").ok());
}

}  // namespace
}  // namespace propscaler
