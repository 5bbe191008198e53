// Params that are wrong in every way a ConfigMap can be wrong: each gives a
// one-line error naming the field and the bad value, and nothing crashes.
// (That the last valid params keep applying is the loop's part, tested end
// to end in replica_scaling_test.)
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "replicas/arithmetic.h"
#include "replicas/params.h"

namespace propscaler {
namespace {

// The error for `json` as data.linear (or data.ladder).
std::string LinearError(const std::string& json) {
  Result<Params> params = ParseParams({{"linear", json}});
  EXPECT_FALSE(params.ok()) << json;
  return params.status().message();
}
std::string LadderError(const std::string& json) {
  Result<Params> params = ParseParams({{"ladder", json}});
  EXPECT_FALSE(params.ok()) << json;
  return params.status().message();
}

// One line, short, printable: fit for a log.
void ExpectLoggable(const std::string& message) {
  EXPECT_FALSE(message.empty());
  EXPECT_LT(message.size(), 600u) << message;
  for (unsigned char c : message) {
    ASSERT_TRUE(c >= 0x20 && c < 0x7f)
        << "byte " << int(c) << " in " << message;
  }
}

void ExpectMentions(const std::string& message,
                    std::initializer_list<const char*> parts) {
  ExpectLoggable(message);
  for (const char* part : parts) {
    EXPECT_NE(message.find(part), std::string::npos)
        << "\"" << part << "\" not in: " << message;
  }
}

TEST(ParamsBadInputTest, WrongTypesNameTheFieldAndValue) {
  ExpectMentions(LinearError(R"({"coresPerReplica":"256"})"),
                 {"linear.coresPerReplica", "a number", "\"256\""});
  ExpectMentions(LinearError(R"({"nodesPerReplica":true})"),
                 {"linear.nodesPerReplica", "true"});
  ExpectMentions(LinearError(R"({"nodesPerReplica":1,"min":"2"})"),
                 {"linear.min", "an integer", "\"2\""});
  ExpectMentions(LinearError(R"({"nodesPerReplica":1,"max":1.5})"),
                 {"linear.max", "1.5"});
  ExpectMentions(
      LinearError(R"({"nodesPerReplica":1,"preventSinglePointFailure":"yes"})"),
      {"linear.preventSinglePointFailure", "\"yes\""});
  ExpectMentions(LadderError(R"({"coresToReplicas":{"1":1}})"),
                 {"ladder.coresToReplicas", "{\"1\":1}"});
  ExpectMentions(LadderError(R"({"nodesToReplicas":[[1,"2"]]})"),
                 {"ladder.nodesToReplicas[0]", "[1,\"2\"]"});
  ExpectMentions(LadderError(R"({"nodesToReplicas":[[1]]})"),
                 {"ladder.nodesToReplicas[0]", "[1]"});
  ExpectMentions(LinearError("[1,2]"), {"linear", "a JSON object", "[1,2]"});
  ExpectMentions(LinearError("null"), {"linear", "a JSON object"});
  ExpectMentions(LinearError(""), {"linear", "invalid JSON"});
}

TEST(ParamsBadInputTest, NegativesAreRejected) {
  ExpectMentions(LinearError(R"({"coresPerReplica":-1})"),
                 {"linear.coresPerReplica", "-1"});
  ExpectMentions(LinearError(R"({"nodesPerReplica":-0.5})"),
                 {"linear.nodesPerReplica", "-0.5"});
  ExpectMentions(LinearError(R"({"nodesPerReplica":1,"min":-3})"),
                 {"linear.min", "-3"});
  ExpectMentions(LadderError(R"({"coresToReplicas":[[-1,1]]})"),
                 {"ladder.coresToReplicas[0]", "[-1,1]"});
  ExpectMentions(LadderError(R"({"coresToReplicas":[[1,-1]]})"),
                 {"ladder.coresToReplicas[0]", "[1,-1]"});
}

TEST(ParamsBadInputTest, NanAndInfinityAreNotJson) {
  for (const char* value : {"NaN", "Infinity", "-Infinity", "nan", "inf"}) {
    ExpectMentions(
        LinearError(std::string(R"({"coresPerReplica":)") + value + "}"),
        {"linear", "invalid JSON"});
  }
}

TEST(ParamsBadInputTest, HugeNumbers) {
  ExpectMentions(LinearError(R"({"coresPerReplica":1e400})"),
                 {"linear", "invalid JSON", "Number too big"});
  ExpectMentions(LinearError(R"({"nodesPerReplica":1,"min":1e20})"),
                 {"linear.min", "an integer"});
  ExpectMentions(
      LinearError(R"({"nodesPerReplica":1,"max":99999999999999999999})"),
      {"linear.max", "an integer"});
  ExpectMentions(
      LadderError(R"({"coresToReplicas":[[1,18446744073709551615]]})"),
      {"ladder.coresToReplicas[0]"});
  // Valid but extreme values compute a saturated count, without overflow.
  const ClusterCounts counts{1000, 1000, 64000, 64000};
  for (
      const char* json :
      {R"({"coresPerReplica":1e308,"nodesPerReplica":1e-320})",
       R"({"nodesPerReplica":1e-300,"max":9223372036854775807})",
       R"({"coresPerReplica":1.7976931348623157e308,"min":9223372036854775807})"}) {
    Result<Params> params = ParseParams({{"linear", json}});
    ASSERT_TRUE(params.ok()) << json << ": " << params.status().message();
    EXPECT_GE(DesiredReplicas(*params, counts), 1) << json;
  }
}

TEST(ParamsBadInputTest, ScaleDownNamesTheFieldAndValue) {
  auto linear = [](const std::string& scale_down) {
    return LinearError(R"({"nodesPerReplica":1,"scaleDown":)" + scale_down +
                       "}");
  };
  ExpectMentions(linear("600"), {"linear.scaleDown", "a JSON object", "600"});
  ExpectMentions(linear("[]"), {"linear.scaleDown", "a JSON object", "[]"});
  ExpectMentions(
      linear(R"({"stabilizationSeconds":"600"})"),
      {"linear.scaleDown.stabilizationSeconds", "an integer", "\"600\""});
  ExpectMentions(linear(R"({"periodSeconds":1.5})"),
                 {"linear.scaleDown.periodSeconds", "an integer", "1.5"});
  ExpectMentions(linear(R"({"maxStepPercent":true})"),
                 {"linear.scaleDown.maxStepPercent", "an integer", "true"});
  ExpectMentions(linear(R"({"periodSeconds":1e20})"),
                 {"linear.scaleDown.periodSeconds", "an integer"});
  ExpectMentions(
      linear(R"({"stabilizationSeconds":-1})"),
      {"linear.scaleDown.stabilizationSeconds", "from 0 to 86400", "got -1"});
  ExpectMentions(linear(R"({"periodSeconds":-60})"),
                 {"linear.scaleDown.periodSeconds", "got -60"});
  ExpectMentions(linear(R"({"stabilizationSeconds":86401})"),
                 {"linear.scaleDown.stabilizationSeconds", "got 86401"});
  ExpectMentions(linear(R"({"maxStepPercent":0})"),
                 {"linear.scaleDown.maxStepPercent", "from 1 to 100", "got 0"});
  ExpectMentions(linear(R"({"maxStepPercent":101})"),
                 {"linear.scaleDown.maxStepPercent", "got 101"});
  ExpectMentions(linear(R"({"maxStepPercent":-5})"),
                 {"linear.scaleDown.maxStepPercent", "got -5"});
  ExpectMentions(linear(R"({"maxStepPercent":NaN})"),
                 {"linear", "invalid JSON"});
  ExpectMentions(
      linear(R"({"periodSecs":60})"),
      {"linear.scaleDown", "unknown field", "\"periodSecs\"", "periodSeconds"});
  ExpectMentions(
      LadderError(R"({"nodesToReplicas":[[1,1]],"scaleDown":{"x\u0001":1}})"),
      {"ladder.scaleDown", "unknown field", "\"x\\x01\""});
  ExpectMentions(
      LadderError(
          R"({"nodesToReplicas":[[1,1]],"scaleDown":{"maxStepPercent":200}})"),
      {"ladder.scaleDown.maxStepPercent", "got 200"});
}

TEST(ParamsBadInputTest, MebibyteOfGarbage) {
  std::mt19937 random(7);
  std::string garbage(1 << 20, '\0');
  for (char& c : garbage) c = static_cast<char>(random());
  // Random bytes fail the depth check or the parse, either way at an offset.
  ExpectMentions(LinearError(garbage), {"linear", "at offset"});
  ExpectMentions(LinearError(std::string(1 << 20, '{')), {"linear"});
  ExpectMentions(
      LinearError(R"({"nodesPerReplica":1,"x":")" + std::string(1 << 20, 'a') +
                  "\",\"min\":\"" + std::string(1 << 20, 'b') + "\"}"),
      {"linear.min", "..."});
}

TEST(ParamsBadInputTest, DeepNestingIsAnErrorNotAStackOverflow) {
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  ExpectMentions(LinearError(deep), {"linear", "nested deeper than"});
  ExpectMentions(LinearError(R"({"coresPerReplica":)" + deep + "}"),
                 {"linear", "nested deeper than"});
  const std::string objects =
      R"({"nodesPerReplica":1,"x":)" + std::string(100000, '{') + "}";
  ExpectMentions(LinearError(objects), {"linear", "nested deeper than"});
  // Brackets inside strings do not count.
  EXPECT_TRUE(ParseParams({{"linear", R"({"nodesPerReplica":1,"x":")" +
                                          std::string(1000, '[') + "\"}"}})
                  .ok());
  Result<std::map<std::string, std::string>> flag =
      DefaultParamsToData(R"({"linear":)" + deep + "}");
  ASSERT_FALSE(flag.ok());
  ExpectMentions(flag.status().message(), {"--default-params", "nested"});
}

TEST(ParamsBadInputTest, DuplicateKeysTakeTheLastAsCpaDoes) {
  // Go's encoding/json keeps the last of duplicate (also differently cased)
  // keys; a drop-in replacement must accept what CPA accepts.
  Result<Params> params =
      ParseParams({{"linear", R"({"nodesPerReplica":1,"min":1,"MIN":3})"}});
  ASSERT_TRUE(params.ok()) << params.status().message();
  EXPECT_EQ(std::get<LinearParams>(*params).min, 3);
  // An invalid value is an error even when a later duplicate is valid.
  ExpectMentions(LinearError(R"({"nodesPerReplica":1,"min":"x","min":2})"),
                 {"linear.min", "\"x\""});
}

TEST(ParamsBadInputTest, NonUtf8IsRejectedAndShownEscaped) {
  const std::string key = "{\"nodesPerReplica\":1,\"\xff\xfe\":1}";
  ExpectMentions(LinearError(key), {"linear", "invalid JSON", "\\xff"});
  const std::string value = "{\"coresPerReplica\":\"\xc3\x28\"}";
  ExpectMentions(LinearError(value), {"linear", "invalid JSON"});
  Result<Params> mode =
      ParseParams({{"lin\xff"
                    "ear",
                    "{}"}});
  ASSERT_FALSE(mode.ok());
  ExpectMentions(mode.status().message(), {"unknown control mode", "\\xff"});
  const std::string nul("{\"nodesPerReplica\":1}\0garbage", 29);
  ExpectMentions(LinearError(nul), {"linear", "invalid JSON", "\\x00"});
}

}  // namespace
}  // namespace propscaler
