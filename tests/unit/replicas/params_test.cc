#include "replicas/params.h"

#include <gtest/gtest.h>

#include <map>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

namespace propscaler {
namespace {

using Data = std::map<std::string, std::string>;

LinearParams MustParseLinear(const std::string& json) {
  Result<Params> p = ParseParams({{"linear", json}});
  EXPECT_TRUE(p.ok()) << json << ": " << p.status().message();
  if (!p.ok() || !std::holds_alternative<LinearParams>(*p)) return {};
  return std::get<LinearParams>(*p);
}

LadderParams MustParseLadder(const std::string& json) {
  Result<Params> p = ParseParams({{"ladder", json}});
  EXPECT_TRUE(p.ok()) << json << ": " << p.status().message();
  if (!p.ok() || !std::holds_alternative<LadderParams>(*p)) return {};
  return std::get<LadderParams>(*p);
}

TEST(ParseLinearTest, AllFields) {
  LinearParams p = MustParseLinear(
      R"({"coresPerReplica":2.5,"nodesPerReplica":16,"min":2,"max":100,)"
      R"("preventSinglePointFailure":true,"includeUnschedulableNodes":true})");
  EXPECT_EQ(p.cores_per_replica, 2.5);
  EXPECT_EQ(p.nodes_per_replica, 16);
  EXPECT_EQ(p.min, 2);
  EXPECT_EQ(p.max, 100);
  EXPECT_TRUE(p.prevent_single_point_failure);
  EXPECT_TRUE(p.include_unschedulable_nodes);
}

TEST(ParseLinearTest, DefaultsWhenAbsent) {
  LinearParams p = MustParseLinear(R"({"coresPerReplica":256})");
  EXPECT_EQ(p, (LinearParams{.cores_per_replica = 256}));
  // min stays as given: the arithmetic treats 0 as 1.
  EXPECT_EQ(p.min, 0);
  EXPECT_EQ(p.max, 0);
}

TEST(ParseLinearTest, CoreDnsDefaults) {
  LinearParams p =
      MustParseLinear(R"({"coresPerReplica":256,"nodesPerReplica":16,)"
                      R"("preventSinglePointFailure":true})");
  EXPECT_EQ(p, (LinearParams{.cores_per_replica = 256,
                             .nodes_per_replica = 16,
                             .prevent_single_point_failure = true}));
}

TEST(ParseLinearTest, KeysMatchIgnoringCaseLikeGo) {
  LinearParams p = MustParseLinear(
      R"({"CoresPerReplica":4,"NODESPERREPLICA":2,"Min":3,"mAx":9,)"
      R"("PreventSinglePointFailure":true,"includeunschedulablenodes":true})");
  EXPECT_EQ(p, (LinearParams{.cores_per_replica = 4,
                             .nodes_per_replica = 2,
                             .min = 3,
                             .max = 9,
                             .prevent_single_point_failure = true,
                             .include_unschedulable_nodes = true}));
}

TEST(ParseLinearTest, UnknownKeysIgnoredNullKeepsDefaultLastDuplicateWins) {
  LinearParams p = MustParseLinear(
      R"({"nodesPerReplica":1,"foo":"bar","max":null,"min":1,"min":4,)"
      R"("min":null, "extra":{"x":[1]}})");
  EXPECT_EQ(p.nodes_per_replica, 1);
  EXPECT_EQ(p.max, 0);
  EXPECT_EQ(p.min, 4);
}

TEST(ParseLinearTest, WhitespaceAroundJson) {
  EXPECT_EQ(
      MustParseLinear(" \n{ \"nodesPerReplica\" : 3 }\n ").nodes_per_replica,
      3);
}

struct BadParams {
  std::string name;
  Data data;
  std::vector<std::string> message_parts;
};

void PrintTo(const BadParams& c, std::ostream* os) { *os << c.name; }

class InvalidParamsTest : public testing::TestWithParam<BadParams> {};

TEST_P(InvalidParamsTest, IsInvalidWithClearMessage) {
  const BadParams& c = GetParam();
  Result<Params> p = ParseParams(c.data);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kInvalidArgument);
  for (const std::string& part : c.message_parts) {
    EXPECT_NE(p.status().message().find(part), std::string::npos)
        << "missing [" << part << "] in: " << p.status().message();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, InvalidParamsTest,
    testing::Values(
        // Shape of the data.
        BadParams{"NoKeys", {}, {"exactly one", "got 0 keys"}},
        BadParams{"TwoKeys",
                  {{"linear", R"({"nodesPerReplica":1})"},
                   {"ladder", R"({"nodesToReplicas":[[1,1]]})"}},
                  {"got 2 keys: \"ladder\", \"linear\""}},
        BadParams{"UnknownMode",
                  {{"Linear", R"({"nodesPerReplica":1})"}},
                  {"unknown control mode \"Linear\""}},
        BadParams{"OtherMode", {{"params", "{}"}}, {"\"params\""}},
        // Not a JSON object.
        BadParams{"NotJson",
                  {{"linear", "{coresPerReplica: 2}"}},
                  {"linear: invalid JSON at offset 1", "Missing a name"}},
        BadParams{"Empty", {{"linear", ""}}, {"linear: invalid JSON", "empty"}},
        BadParams{"TrailingGarbage",
                  {{"linear", R"({"nodesPerReplica":1} x)"}},
                  {"invalid JSON at offset 22"}},
        BadParams{"Array",
                  {{"linear", "[1]"}},
                  {"linear: expected a JSON object, got [1]"}},
        BadParams{"Null",
                  {{"ladder", "null"}},
                  {"ladder: expected a JSON object, got null"}},
        BadParams{"String", {{"ladder", R"("x")"}}, {"got \"x\""}},
        // Wrong types.
        BadParams{"MinString",
                  {{"linear", R"({"nodesPerReplica":1,"min":"two"})"}},
                  {"linear.min: expected an integer, got \"two\""}},
        BadParams{"MinFraction",
                  {{"linear", R"({"nodesPerReplica":1,"min":1.5})"}},
                  {"linear.min: expected an integer, got 1.5"}},
        BadParams{"MaxFloatLiteral",
                  {{"linear", R"({"nodesPerReplica":1,"max":2.0})"}},
                  {"linear.max: expected an integer, got 2.0"}},
        BadParams{"MaxExponent",
                  {{"linear", R"({"nodesPerReplica":1,"max":1e2})"}},
                  {"linear.max: expected an integer"}},
        BadParams{
            "MaxTooBig",
            {{"linear", R"({"nodesPerReplica":1,"max":9223372036854775808})"}},
            {"linear.max: expected an integer that fits 64 bits"}},
        BadParams{"CoresString",
                  {{"linear", R"({"coresPerReplica":"256"})"}},
                  {"linear.coresPerReplica: expected a number, got \"256\""}},
        BadParams{"NodesBool",
                  {{"linear", R"({"nodesPerReplica":true})"}},
                  {"linear.nodesPerReplica: expected a number, got true"}},
        BadParams{
            "BoolAsString",
            {{"linear",
              R"({"nodesPerReplica":1,"preventSinglePointFailure":"true"})"}},
            {"linear.preventSinglePointFailure: expected true or false, "
             "got \"true\""}},
        BadParams{"BoolAsNumber",
                  {{"linear",
                    R"({"nodesPerReplica":1,"IncludeUnschedulableNodes":1})"}},
                  {"linear.includeUnschedulableNodes: expected true or false, "
                   "got 1"}},
        // Validation.
        BadParams{"NegativeMin",
                  {{"linear", R"({"nodesPerReplica":1,"min":-1})"}},
                  {"linear.min", "got -1"}},
        BadParams{"MaxBelowMin",
                  {{"linear", R"({"nodesPerReplica":1,"min":5,"max":3})"}},
                  {"linear.max", "min 5", "got 3"}},
        BadParams{"NegativeMaxBelowDefaultMin",
                  {{"linear", R"({"nodesPerReplica":1,"max":-1})"}},
                  {"linear.max", "got -1"}},
        BadParams{"BothPerReplicaAbsent",
                  {{"linear", R"({"min":1})"}},
                  {"coresPerReplica, nodesPerReplica and podsPerReplica"}},
        BadParams{"BothPerReplicaZero",
                  {{"linear", R"({"coresPerReplica":0,"nodesPerReplica":0})"}},
                  {"coresPerReplica, nodesPerReplica and podsPerReplica"}},
        BadParams{"EmptyObject",
                  {{"linear", "{}"}},
                  {"coresPerReplica, nodesPerReplica and podsPerReplica"}},
        BadParams{
            "NegativeCores",
            {{"linear", R"({"coresPerReplica":-1.5,"nodesPerReplica":1})"}},
            {"linear.coresPerReplica", "negative", "got -1.5"}},
        BadParams{"NegativeNodes",
                  {{"linear", R"({"coresPerReplica":1,"nodesPerReplica":-2})"}},
                  {"linear.nodesPerReplica", "negative", "got -2"}},
        // Ladder entries.
        BadParams{"LadderNotArray",
                  {{"ladder", R"({"coresToReplicas":5})"}},
                  {"ladder.coresToReplicas: expected an array", "got 5"}},
        BadParams{"LadderPairTooShort",
                  {{"ladder", R"({"coresToReplicas":[[1,1],[64]]})"}},
                  {"ladder.coresToReplicas[1]", "got [64]"}},
        BadParams{"LadderPairTooLong",
                  {{"ladder", R"({"nodesToReplicas":[[1,1,1]]})"}},
                  {"ladder.nodesToReplicas[0]", "got [1,1,1]"}},
        BadParams{"LadderNegativeThreshold",
                  {{"ladder", R"({"nodesToReplicas":[[1,1],[-2,2]]})"}},
                  {"ladder.nodesToReplicas[1]", "non-negative", "got [-2,2]"}},
        BadParams{"LadderNegativeReplicas",
                  {{"ladder", R"({"coresToReplicas":[[1,-1]]})"}},
                  {"ladder.coresToReplicas[0]", "got [1,-1]"}},
        BadParams{"LadderFraction",
                  {{"ladder", R"({"coresToReplicas":[[1.5,1]]})"}},
                  {"ladder.coresToReplicas[0]", "got [1.5,1]"}},
        BadParams{"LadderEntryNotArray",
                  {{"ladder", R"({"coresToReplicas":[1,2]})"}},
                  {"ladder.coresToReplicas[0]", "got 1"}},
        BadParams{"LadderString",
                  {{"ladder", R"({"coresToReplicas":[["1","2"]]})"}},
                  {"ladder.coresToReplicas[0]", "got [\"1\",\"2\"]"}},
        BadParams{"LadderBool",
                  {{"ladder", R"({"includeUnschedulableNodes":"yes"})"}},
                  {"ladder.includeUnschedulableNodes", "got \"yes\""}}),
    [](const testing::TestParamInfo<BadParams>& info) {
      return info.param.name;
    });

TEST(ParseLadderTest, ParsesAndSortsByThreshold) {
  LadderParams p = MustParseLadder(
      R"({"coresToReplicas":[[64,3],[1,1],[512,5]],)"
      R"("nodesToReplicas":[[2,2],[1,1]],"includeUnschedulableNodes":true})");
  EXPECT_EQ(p.cores_to_replicas,
            (std::vector<LadderStep>{{1, 1}, {64, 3}, {512, 5}}));
  EXPECT_EQ(p.nodes_to_replicas, (std::vector<LadderStep>{{1, 1}, {2, 2}}));
  EXPECT_TRUE(p.include_unschedulable_nodes);
}

TEST(ParseLadderTest, EmptyAndAbsentListsAndZeroReplicas) {
  LadderParams p =
      MustParseLadder(R"({"coresToReplicas":[],"nodesToReplicas":null})");
  EXPECT_TRUE(p.cores_to_replicas.empty());
  EXPECT_TRUE(p.nodes_to_replicas.empty());
  EXPECT_FALSE(p.include_unschedulable_nodes);
  p = MustParseLadder(R"({"NodesToReplicas":[[0,0],[5,1]],"unknown":1})");
  EXPECT_EQ(p.nodes_to_replicas, (std::vector<LadderStep>{{0, 0}, {5, 1}}));
  EXPECT_EQ(MustParseLadder("{}"), LadderParams{});
}

TEST(ParseLadderTest, EqualThresholdsKeepTheirOrder) {
  LadderParams p =
      MustParseLadder(R"({"nodesToReplicas":[[5,2],[1,1],[5,3]]})");
  EXPECT_EQ(p.nodes_to_replicas,
            (std::vector<LadderStep>{{1, 1}, {5, 2}, {5, 3}}));
}

TEST(ParseScaleDownTest, AbsentOrNullMeansNoPolicy) {
  EXPECT_FALSE(MustParseLinear(R"({"nodesPerReplica":1})").scale_down);
  EXPECT_FALSE(
      MustParseLinear(R"({"nodesPerReplica":1,"scaleDown":null})").scale_down);
  EXPECT_FALSE(MustParseLadder(R"({"nodesToReplicas":[[1,1]]})").scale_down);
}

TEST(ParseScaleDownTest, AllFieldsInLinearAndLadder) {
  const ScaleDownPolicy want{.stabilization_seconds = 600,
                             .max_step_percent = 33,
                             .period_seconds = 180};
  EXPECT_EQ(MustParseLinear(
                R"({"nodesPerReplica":1,"scaleDown":{"stabilizationSeconds":)"
                R"(600,"maxStepPercent":33,"periodSeconds":180}})")
                .scale_down,
            want);
  EXPECT_EQ(MustParseLadder(R"({"nodesToReplicas":[[1,1]],"scaleDown":{)"
                            R"("stabilizationSeconds":600,"maxStepPercent":33,)"
                            R"("periodSeconds":180}})")
                .scale_down,
            want);
}

TEST(ParseScaleDownTest, AbsentFieldsTakeTheDefaults) {
  EXPECT_EQ(
      MustParseLinear(R"({"nodesPerReplica":1,"scaleDown":{}})").scale_down,
      (ScaleDownPolicy{.stabilization_seconds = 300,
                       .max_step_percent = 100,
                       .period_seconds = 60}));
  EXPECT_EQ(MustParseLinear(R"({"nodesPerReplica":1,"scaleDown":)"
                            R"({"periodSeconds":5,"maxStepPercent":null}})")
                .scale_down,
            (ScaleDownPolicy{.period_seconds = 5}));
}

TEST(ParseScaleDownTest, BoundsAreAcceptedAndKeysMatchIgnoringCase) {
  EXPECT_EQ(MustParseLinear(R"({"nodesPerReplica":1,"ScaleDown":{)"
                            R"("STABILIZATIONSECONDS":0,"maxsteppercent":1,)"
                            R"("PeriodSeconds":86400}})")
                .scale_down,
            (ScaleDownPolicy{.stabilization_seconds = 0,
                             .max_step_percent = 1,
                             .period_seconds = 86400}));
}

TEST(ParseScaleDownTest, PartOfEquality) {
  LinearParams with = MustParseLinear(
      R"({"nodesPerReplica":1,"scaleDown":{"maxStepPercent":50}})");
  LinearParams without = MustParseLinear(R"({"nodesPerReplica":1})");
  EXPECT_NE(with, without);
  without.scale_down = ScaleDownPolicy{.max_step_percent = 50};
  EXPECT_EQ(with, without);
}

TEST(ParseScaleDownTest, ScaleDownOfEitherPattern) {
  const ScaleDownPolicy policy{.period_seconds = 1};
  EXPECT_EQ(ScaleDownOf(Params(LinearParams{.scale_down = policy})), policy);
  EXPECT_EQ(ScaleDownOf(Params(LadderParams{.scale_down = policy})), policy);
  EXPECT_FALSE(ScaleDownOf(Params(LadderParams{})));
}

TEST(ParseScaleDownTest, DefaultParamsFlagKeepsTheObject) {
  Result<std::map<std::string, std::string>> data = DefaultParamsToData(
      R"({"linear":{"scaleDown":{"periodSeconds":9},"nodesPerReplica":1}})");
  ASSERT_TRUE(data.ok()) << data.status().message();
  EXPECT_EQ(data->at("linear"),
            R"({"nodesPerReplica":1,"scaleDown":{"periodSeconds":9}})");
}

TEST(ParamsModeTest, NamesTheMode) {
  EXPECT_EQ(ParamsMode(Params(LinearParams{})), "linear");
  EXPECT_EQ(ParamsMode(Params(LadderParams{})), "ladder");
}

TEST(DefaultParamsToDataTest, SerializesEachTopLevelValueCompactly) {
  Result<Data> data = DefaultParamsToData(
      R"({ "linear" : { "coresPerReplica" : 256 , "nodesPerReplica": 16,
           "preventSinglePointFailure": true } })");
  ASSERT_TRUE(data.ok()) << data.status().message();
  EXPECT_EQ(*data,
            (Data{{"linear", R"({"coresPerReplica":256,"nodesPerReplica":16,)"
                             R"("preventSinglePointFailure":true})"}}));
  Result<Params> params = ParseParams(*data);
  ASSERT_TRUE(params.ok());
  EXPECT_EQ(ParamsMode(*params), "linear");
}

TEST(DefaultParamsToDataTest, SortsKeysAndWritesIntegralNumbersLikeGo) {
  // CPA stores json.Marshal of a decoded map: keys sorted, 4.0 written as 4.
  Result<Data> data = DefaultParamsToData(
      R"({"ladder":{"nodesToReplicas":[[1,1],[2,2]],"coresToReplicas":[[1,1]],)"
      R"("x":{"b":4.0,"a":0.5}}})");
  ASSERT_TRUE(data.ok()) << data.status().message();
  EXPECT_EQ(data->at("ladder"),
            R"({"coresToReplicas":[[1,1]],"nodesToReplicas":[[1,1],[2,2]],)"
            R"("x":{"a":0.5,"b":4}})");
}

TEST(DefaultParamsToDataTest, ErrorsSayItIsTheFlag) {
  struct Case {
    std::string flag;
    std::string message_part;
  };
  for (const Case& c : std::vector<Case>{
           {"", "--default-params: invalid JSON at offset 0"},
           {"{linear}", "--default-params: invalid JSON at offset 1"},
           {"[]", "--default-params: expected a JSON object, got []"},
           {"{}", "--default-params: params: expected exactly one"},
           {R"({"linear":{"min":1}})",
            "--default-params: linear: at least one of coresPerReplica"},
           {R"({"linear":{"nodesPerReplica":1},"ladder":{}})",
            "--default-params: params: expected exactly one data key"},
           {R"({"stairs":{}})",
            "--default-params: params: unknown control mode"},
           {R"({"linear":"x"})",
            "--default-params: linear: expected a JSON object"},
       }) {
    Result<Data> data = DefaultParamsToData(c.flag);
    ASSERT_FALSE(data.ok()) << c.flag;
    EXPECT_EQ(data.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(data.status().message().find(c.message_part), std::string::npos)
        << c.flag << " -> " << data.status().message();
  }
}

TEST(DefaultParamsToDataTest, LastDuplicateTopLevelKeyWins) {
  Result<Data> data = DefaultParamsToData(
      R"({"linear":{"nodesPerReplica":1},"linear":{"nodesPerReplica":2}})");
  ASSERT_TRUE(data.ok()) << data.status().message();
  EXPECT_EQ(*data, (Data{{"linear", R"({"nodesPerReplica":2})"}}));
}

}  // namespace
}  // namespace propscaler
