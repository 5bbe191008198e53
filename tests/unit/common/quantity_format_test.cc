#include "common/quantity_format.h"

#include <gtest/gtest.h>

#include "common/quantity.h"

namespace propscaler {
namespace {

// Expected strings are what Kubernetes' Quantity.String() prints for
// NewQuantity(0, format) after SetMilli(millis).
TEST(QuantityFormatTest, WritesTheCanonicalForm) {
  struct Case {
    int64_t millis;
    QuantityFormat format;
    const char* text;
  };
  constexpr auto kDec = QuantityFormat::kDecimalSI;
  constexpr auto kBin = QuantityFormat::kBinarySI;
  for (const Case& c : {
           Case{0, kBin, "0"},
           Case{17, kBin, "17m"},
           Case{1500, kBin, "1500m"},
           Case{2000, kBin, "2"},
           Case{100000, kBin, "100"},
           Case{1023000, kBin, "1023"},
           Case{1024000, kBin, "1Ki"},
           Case{2048000, kBin, "2Ki"},
           Case{1500000, kBin, "1500"},
           Case{1024500, kBin, "1024500m"},
           Case{1000, kDec, "1"},
           Case{10, kDec, "10m"},
           Case{1000000, kDec, "1k"},
           Case{1500000, kDec, "1500"},
           Case{8LL * 1048576 * 1000, kDec, "8388608"},
           Case{100LL * 1000 * 1000 * 1000, kDec, "100M"},
           Case{15LL * 1048576 * 1000, kBin, "15Mi"},
           Case{3LL << 40, kBin, "3298534883328m"},
           Case{(3LL << 30) * 1000, kBin, "3Gi"},
           Case{-2000, kDec, "-2"},
       }) {
    EXPECT_EQ(FormatMilliQuantity(c.millis, c.format), c.text) << c.millis;
  }
}

TEST(QuantityFormatTest, ReadsBackAsTheSameValue) {
  for (int64_t millis : {int64_t{1}, int64_t{999}, int64_t{123456789},
                         int64_t{1024} * 1024 * 1000, INT64_MAX / 7}) {
    for (QuantityFormat format :
         {QuantityFormat::kDecimalSI, QuantityFormat::kBinarySI}) {
      Result<int64_t> back =
          ParseMilliQuantity(FormatMilliQuantity(millis, format));
      ASSERT_TRUE(back.ok()) << FormatMilliQuantity(millis, format);
      EXPECT_EQ(*back, millis);
    }
  }
}

TEST(QuantityFormatTest, CpvaFormatsMemoryAndStorageInDecimal) {
  EXPECT_EQ(CpvaFormatOf("memory"), QuantityFormat::kDecimalSI);
  EXPECT_EQ(CpvaFormatOf("storage"), QuantityFormat::kDecimalSI);
  EXPECT_EQ(CpvaFormatOf("cpu"), QuantityFormat::kBinarySI);
  EXPECT_EQ(CpvaFormatOf("ephemeral-storage"), QuantityFormat::kBinarySI);
}

TEST(FormatCoresTest, WholeAndFractional) {
  EXPECT_EQ(FormatCores(4000), "4");
  EXPECT_EQ(FormatCores(3500), "3.5");
  EXPECT_EQ(FormatCores(250), "0.25");
  EXPECT_EQ(FormatCores(1001), "1.001");
}

}  // namespace
}  // namespace propscaler
