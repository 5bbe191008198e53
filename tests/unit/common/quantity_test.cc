#include "common/quantity.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace propscaler {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

struct QuantityCase {
  std::string text;
  int64_t millis;
  int64_t units;
};

class QuantityValueTest : public testing::TestWithParam<QuantityCase> {};

TEST_P(QuantityValueTest, ParsesExactlyAndRoundsUp) {
  const QuantityCase& c = GetParam();
  Result<int64_t> millis = ParseMilliQuantity(c.text);
  ASSERT_TRUE(millis.ok()) << c.text << ": " << millis.status().message();
  EXPECT_EQ(*millis, c.millis) << c.text;
  Result<int64_t> units = ParseQuantity(c.text);
  ASSERT_TRUE(units.ok()) << c.text << ": " << units.status().message();
  EXPECT_EQ(*units, c.units) << c.text;
}

INSTANTIATE_TEST_SUITE_P(
    Forms, QuantityValueTest,
    testing::Values(
        // Plain numbers and fractions.
        QuantityCase{"0", 0, 0}, QuantityCase{"4", 4000, 4},
        QuantityCase{"+4", 4000, 4}, QuantityCase{"007", 7000, 7},
        QuantityCase{"1.5", 1500, 2}, QuantityCase{".5", 500, 1},
        QuantityCase{"1.", 1000, 1}, QuantityCase{"0.0001", 1, 1},
        QuantityCase{"2.000", 2000, 2}, QuantityCase{"0.000", 0, 0},
        // Decimal SI suffixes.
        QuantityCase{"3500m", 3500, 4}, QuantityCase{"1000m", 1000, 1},
        QuantityCase{"1m", 1, 1}, QuantityCase{"1.5m", 2, 1},
        QuantityCase{"1n", 1, 1}, QuantityCase{"1000000n", 1, 1},
        QuantityCase{"1000001n", 2, 1}, QuantityCase{"1u", 1, 1},
        QuantityCase{"2000u", 2, 1}, QuantityCase{"2k", 2000000, 2000},
        QuantityCase{"1.5k", 1500000, 1500},
        QuantityCase{"1M", 1000000000, 1000000},
        QuantityCase{"1G", 1000000000000, 1000000000},
        QuantityCase{"1T", 1000000000000000, 1000000000000},
        QuantityCase{"1P", 1000000000000000000, 1000000000000000},
        // Binary SI suffixes.
        QuantityCase{"1Ki", 1024000, 1024},
        QuantityCase{"1Mi", 1048576000, 1048576},
        QuantityCase{"16Gi", 17179869184000, 17179869184},
        QuantityCase{"1Ti", 1099511627776000, 1099511627776},
        QuantityCase{"1Pi", 1125899906842624000, 1125899906842624},
        QuantityCase{"0.5Ki", 512000, 512},
        QuantityCase{"1.5Mi", 1572864000, 1572864},
        QuantityCase{"0.001Ki", 1024, 2},
        // Decimal exponents.
        QuantityCase{"1e3", 1000000, 1000}, QuantityCase{"1E3", 1000000, 1000},
        QuantityCase{"1e+3", 1000000, 1000}, QuantityCase{"1e-3", 1, 1},
        QuantityCase{"1E-3", 1, 1}, QuantityCase{"1.5e1", 15000, 15},
        QuantityCase{"25e-1", 2500, 3}, QuantityCase{"1e-9", 1, 1},
        QuantityCase{"1e-100", 1, 1}, QuantityCase{"0e99", 0, 0},
        QuantityCase{"1e0", 1000, 1},
        // Negative values round toward +infinity.
        QuantityCase{"-1", -1000, -1}, QuantityCase{"-1500m", -1500, -1},
        QuantityCase{"-1.5n", 0, 0}, QuantityCase{"-2Ki", -2048000, -2048}));

TEST(QuantityTest, ExaFitsOnlyInUnits) {
  EXPECT_EQ(*ParseQuantity("1E"), 1000000000000000000);
  EXPECT_EQ(*ParseQuantity("9E"), 9000000000000000000);
  EXPECT_FALSE(ParseMilliQuantity("9E").ok());
}

TEST(QuantityTest, Int64Limits) {
  EXPECT_EQ(*ParseQuantity("9223372036854775807"), kMax);
  EXPECT_EQ(*ParseQuantity("-9223372036854775808"), kMin);
  EXPECT_EQ(*ParseMilliQuantity("9223372036854775807m"), kMax);
  EXPECT_EQ(*ParseMilliQuantity("9223372036854775.807"), kMax);
  // Rounding up across the limit overflows.
  EXPECT_FALSE(ParseMilliQuantity("9223372036854775.8071").ok());
  EXPECT_FALSE(ParseQuantity("9223372036854775808").ok());
  EXPECT_FALSE(ParseQuantity("-9223372036854775809").ok());
}

TEST(QuantityTest, OverflowIsAnErrorNamingTheText) {
  for (const char* text :
       {"10E", "8Ei", "1e19", "1e999999", "99999999999999999999",
        "100000000000000000000000000000000000000000"}) {
    Result<int64_t> r = ParseQuantity(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(std::string("\"") + text + "\""),
              std::string::npos)
        << r.status().message();
    EXPECT_NE(r.status().message().find("64-bit"), std::string::npos)
        << r.status().message();
  }
  EXPECT_FALSE(ParseMilliQuantity("9223372036854776").ok());
  EXPECT_FALSE(ParseMilliQuantity("9Pi").ok());
  EXPECT_EQ(*ParseMilliQuantity("8Pi"), int64_t{8000} << 50);
  EXPECT_EQ(*ParseQuantity("7Ei"), int64_t{7} << 60);
}

TEST(QuantityTest, ManyDigitsStayExact) {
  EXPECT_EQ(*ParseMilliQuantity("0.000000000000000000000000000001"), 1);
  EXPECT_EQ(*ParseQuantity("1.000000000000000000000000000001"), 2);
  EXPECT_EQ(*ParseQuantity("1.000000000000000000000000000000"), 1);
  EXPECT_EQ(*ParseQuantity("100000000000000000000000000000e-29"), 1);
  EXPECT_EQ(*ParseMilliQuantity("0.000000000000000001Ei"), 1153);
}

struct BadQuantity {
  std::string text;
  std::string message_part;
};

class QuantityErrorTest : public testing::TestWithParam<BadQuantity> {};

TEST_P(QuantityErrorTest, IsInvalidAndNamesTheText) {
  const BadQuantity& c = GetParam();
  for (Result<int64_t> r :
       {ParseQuantity(c.text), ParseMilliQuantity(c.text)}) {
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    const std::string& m = r.status().message();
    EXPECT_NE(m.find("quantity \"" + c.text + "\""), std::string::npos) << m;
    EXPECT_NE(m.find(c.message_part), std::string::npos) << m;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Garbage, QuantityErrorTest,
    testing::Values(BadQuantity{"", "empty"},
                    BadQuantity{"-", "expected a number"},
                    BadQuantity{".", "expected a number"},
                    BadQuantity{"Gi", "expected a number"},
                    BadQuantity{"abc", "expected a number"},
                    BadQuantity{" 1", "expected a number"},
                    BadQuantity{"1 ", "unknown suffix \" \""},
                    BadQuantity{"1K", "unknown suffix \"K\""},
                    BadQuantity{"1Kii", "unknown suffix \"Kii\""},
                    BadQuantity{"1mi", "unknown suffix \"mi\""},
                    BadQuantity{"1.5.5", "unknown suffix \".5\""},
                    BadQuantity{"1e", "unknown suffix \"e\""},
                    BadQuantity{"1e+", "no digits"},
                    BadQuantity{"1e3i", "unknown suffix \"e3i\""},
                    BadQuantity{"1ee3", "unknown suffix \"ee3\""},
                    BadQuantity{"1e99999999999", "too large"},
                    BadQuantity{"--1", "expected a number"},
                    BadQuantity{"1,5", "unknown suffix"}));

TEST(MilliToUnitsRoundUpTest, SumsOfExactQuantities) {
  // CPA adds allocatable CPU exactly, then takes Value(): 3 x 1500m is 5.
  int64_t sum = 0;
  for (int i = 0; i < 3; ++i) sum += *ParseMilliQuantity("1500m");
  EXPECT_EQ(MilliToUnitsRoundUp(sum), 5);
  sum = 0;
  for (int i = 0; i < 3; ++i) sum += *ParseMilliQuantity("3500m");
  EXPECT_EQ(MilliToUnitsRoundUp(sum), 11);
  sum = *ParseMilliQuantity("1.5") + *ParseMilliQuantity("2") +
        *ParseMilliQuantity("500m");
  EXPECT_EQ(MilliToUnitsRoundUp(sum), 4);
}

TEST(MilliToUnitsRoundUpTest, RoundsTowardPositiveInfinity) {
  EXPECT_EQ(MilliToUnitsRoundUp(0), 0);
  EXPECT_EQ(MilliToUnitsRoundUp(1), 1);
  EXPECT_EQ(MilliToUnitsRoundUp(999), 1);
  EXPECT_EQ(MilliToUnitsRoundUp(1000), 1);
  EXPECT_EQ(MilliToUnitsRoundUp(1001), 2);
  EXPECT_EQ(MilliToUnitsRoundUp(-1), 0);
  EXPECT_EQ(MilliToUnitsRoundUp(-1500), -1);
  EXPECT_EQ(MilliToUnitsRoundUp(kMax), kMax / 1000 + 1);
  EXPECT_EQ(MilliToUnitsRoundUp(kMin), kMin / 1000);
}

}  // namespace
}  // namespace propscaler
