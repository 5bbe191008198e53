// The pages of freed heap memory go back to the system: the process's
// anonymous RSS falls after ReturnFreeHeapPages, where glibc alone keeps
// memory freed below live blocks resident.
#include "common/free_heap_pages.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <latch>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "unit/glibc_heap.h"

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

TEST(FreeHeapPagesTest, FreedMemoryBelowLiveBlocksLeavesTheRss) {
  if (!kGlibcHeap) {
    GTEST_SKIP() << "AddressSanitizer's allocator holds the heap, not glibc's";
  }
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

// The heaps glibc has made so far: the main one and one per arena.
int HeapCount() {
  char* text = nullptr;
  size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  malloc_info(0, out);
  std::fclose(out);
  int heaps = 0;
  for (const char* at = text; (at = std::strstr(at, "<heap nr=")); ++at) {
    ++heaps;
  }
  std::free(text);
  return heaps;
}

// Eight threads each allocate while all are alive, as the watches do when
// they reconnect together; exits 0 when that made no new heap.
void AllocateFromEightThreadsAtOnce() {
  const int before = HeapCount();
  constexpr int kThreads = 8;
  std::latch allocated(kThreads + 1), counted(1);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      auto block = std::make_unique<char[]>(4096);
      std::memset(block.get(), 1, 4096);
      allocated.count_down();
      counted.wait();
    });
  }
  allocated.arrive_and_wait();
  const int after = HeapCount();
  counted.count_down();
  for (std::thread& thread : threads) thread.join();
  std::fprintf(stderr, "heaps: %d before the threads, %d with them\n", before,
               after);
  std::exit(after == before ? 0 : 1);
}

// In a freshly started copy of this binary: heaps that earlier tests'
// threads left behind would be reused and hide new ones.
TEST(FreeHeapPagesTest, ThreadsAllocatingAtOnceMakeNoNewHeap) {
  if (!kGlibcHeap) {
    GTEST_SKIP() << "AddressSanitizer's allocator holds the heap, not glibc's";
  }
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        UseOneHeapArena();
        AllocateFromEightThreadsAtOnce();
      },
      testing::ExitedWithCode(0), "heaps: ");
}

}  // namespace
}  // namespace propscaler
