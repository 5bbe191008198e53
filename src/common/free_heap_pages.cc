#include "common/free_heap_pages.h"

#include <malloc.h>

namespace propscaler {

void ReturnFreeHeapPages() { malloc_trim(0); }

void UseOneHeapArena() { mallopt(M_ARENA_MAX, 1); }

HeapUsage MeasureHeap() {
  const struct mallinfo2 info = mallinfo2();
  return {static_cast<double>(info.uordblks + info.hblkhd),
          static_cast<double>(info.fordblks)};
}

}  // namespace propscaler
