#include "server/process_metrics.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "unit/glibc_heap.h"

namespace propscaler {
namespace {

// Fields 3-24 of proc(5) after the command: utime 250 and stime 150 ticks,
// starttime 12,000 ticks after boot, vsize 104,857,600 bytes, rss 2,560
// pages.
constexpr char kAfterCommand[] =
    " S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 150 0 0 20 0 9 0 12000 "
    "104857600 2560 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 "
    "0 0 0 0\n";
constexpr double kBoot = 1764100000.25;

TEST(ProcessMetricsTest, ReadsTheFieldsAfterTheLastParenthesis) {
  // A command may hold spaces and parentheses of its own.
  const std::string stat =
      std::string("4242 (prop (scaler) x)") + kAfterCommand;
  Result<ProcessSample> sample = ParseProcessSample(stat, kBoot, 100, 4096);
  ASSERT_TRUE(sample.ok()) << sample.status().message();
  EXPECT_DOUBLE_EQ(sample->cpu_seconds, 4.0);
  EXPECT_DOUBLE_EQ(sample->resident_bytes, 2560.0 * 4096);
  EXPECT_DOUBLE_EQ(sample->virtual_bytes, 104857600.0);
  EXPECT_DOUBLE_EQ(sample->start_time_seconds, 1764100000.25 + 120);
}

TEST(ProcessMetricsTest, BadTextIsAnErrorNamingWhatIsWrong) {
  const std::string good = std::string("1 (p)") + kAfterCommand;
  Result<ProcessSample> no_paren =
      ParseProcessSample("1 p S 1", kBoot, 100, 4096);
  EXPECT_NE(no_paren.status().message().find("\")\""), std::string::npos);
  Result<ProcessSample> short_line =
      ParseProcessSample("1 (p) S 1 2 3", kBoot, 100, 4096);
  EXPECT_NE(short_line.status().message().find("6 fields, want at least 24"),
            std::string::npos)
      << short_line.status().message();
  std::string bad_rss = good;
  bad_rss.replace(bad_rss.find(" 2560 "), 6, " 25x0 ");
  Result<ProcessSample> not_number =
      ParseProcessSample(bad_rss, kBoot, 100, 4096);
  EXPECT_NE(not_number.status().message().find("field 24 \"25x0\""),
            std::string::npos)
      << not_number.status().message();
}

TEST(ProcessMetricsTest, DeclaresBuildInfoAndReadsThisProcess) {
  Metrics metrics;
  DeclareProcessMetrics(&metrics);
  UpdateProcessMetrics(&metrics);
  EXPECT_EQ(metrics.Families().at("propscaler_build_info").series.size(), 1u);
  EXPECT_GT(metrics.Value("process_resident_memory_bytes"), 1 << 20);
  EXPECT_GT(metrics.Value("process_virtual_memory_bytes"),
            metrics.Value("process_resident_memory_bytes"));
  EXPECT_GE(metrics.Value("process_open_fds"), 3);
  EXPECT_GE(metrics.Value("process_max_fds"),
            metrics.Value("process_open_fds"));
  EXPECT_GT(metrics.Value("process_start_time_seconds"), 1.7e9);
}

TEST(ProcessMetricsTest, HeapInUseFollowsLiveBlocks) {
  if (!kGlibcHeap) {
    GTEST_SKIP() << "AddressSanitizer's allocator holds the heap, not glibc's";
  }
  Metrics metrics;
  DeclareProcessMetrics(&metrics);
  UpdateProcessMetrics(&metrics);
  const double before = metrics.Value("propscaler_heap_in_use_bytes");
  EXPECT_GT(before, 0);
  constexpr size_t kBlock = 8 << 20;
  auto block = std::make_unique<char[]>(kBlock);
  std::memset(block.get(), 1, kBlock);
  UpdateProcessMetrics(&metrics);
  EXPECT_GE(metrics.Value("propscaler_heap_in_use_bytes"), before + kBlock);
  block.reset();
  UpdateProcessMetrics(&metrics);
  EXPECT_LT(metrics.Value("propscaler_heap_in_use_bytes"), before + kBlock);
  EXPECT_GE(metrics.Value("propscaler_heap_free_bytes"), 0);
}

}  // namespace
}  // namespace propscaler
