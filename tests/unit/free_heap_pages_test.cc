// The pages of freed heap memory go back to the system: the process's
// anonymous RSS falls after ReturnFreeHeapPages, where glibc alone keeps
// memory freed below live blocks resident.
#include "common/free_heap_pages.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace propscaler {
namespace {

int64_t RssAnonKib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("RssAnon:", 0) == 0) return std::stoll(line.substr(8));
  }
  return -1;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROPSCALER_OWN_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PROPSCALER_OWN_ALLOCATOR 1
#endif

TEST(FreeHeapPagesTest, FreedMemoryBelowLiveBlocksLeavesTheRss) {
#ifdef PROPSCALER_OWN_ALLOCATOR
  GTEST_SKIP() << "AddressSanitizer's allocator holds the heap, not glibc's";
#endif
  // 64 MiB in 1 KiB blocks, all touched; every 256th kept so that nothing
  // freed is at the top of the heap, where glibc would trim it itself.
  constexpr size_t kBlocks = 64 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks(kBlocks);
  for (auto& block : blocks) {
    block.reset(new char[1024]);
    std::memset(block.get(), 1, 1024);
  }
  for (size_t i = 0; i < kBlocks; ++i) {
    if (i % 256 != 255) blocks[i].reset();
  }
  const int64_t before = RssAnonKib();
  ReturnFreeHeapPages();
  const int64_t after = RssAnonKib();
  ASSERT_GT(before, 0);
  EXPECT_LT(after, before - 32 * 1024)
      << "RssAnon " << before << " KiB before, " << after << " KiB after";
}

}  // namespace
}  // namespace propscaler
