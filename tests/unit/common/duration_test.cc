// Go-style durations on the command line: what is accepted, and that every
// bad value is an error naming the flag and the value, never an exception.
#include "common/duration.h"

#include <gtest/gtest.h>

namespace propscaler {
namespace {

using std::chrono::milliseconds;

TEST(DurationTest, ParsesGoDurations) {
  const std::vector<std::pair<std::string, milliseconds>> good = {
      {"10s", milliseconds(10000)},
      {"1h30m", milliseconds(5400000)},
      {"250ms", milliseconds(250)},
      {"0", milliseconds(0)},
      {"1.5s", milliseconds(1500)},
      {".5s", milliseconds(500)},
      {"2h45m30s", milliseconds(9930000)},
      {"1500us", milliseconds(1)},
      {"0s", milliseconds(0)},
      {"87600h", milliseconds(315360000000)},
  };
  for (const auto& [text, want] : good) {
    Result<milliseconds> parsed = ParseDuration("f", text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status().message();
    EXPECT_EQ(*parsed, want) << text;
  }
}

TEST(DurationTest, RejectsBadValuesNamingTheFlagAndTheValue) {
  const std::vector<std::string> bad = {
      "",
      "s",
      ".s",
      "10",
      "10x",
      "10sx",
      "1.2.3s",
      "-5s",
      "+5s",
      "5 s",
      "1e3s",
      "nan",
      "infs",
      "5s10",
      "..s",
      "h1",
      "87601h",
      "99999999999999999999999h",
      "1" + std::string(400, '0') + "s",
  };
  for (const std::string& text : bad) {
    Result<milliseconds> parsed = ParseDuration("scan-interval", text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_NE(parsed.status().message().find("--scan-interval=" + text),
              std::string::npos)
        << parsed.status().message();
  }
}

}  // namespace
}  // namespace propscaler
