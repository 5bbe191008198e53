#include "common/free_heap_pages.h"

#include <malloc.h>

namespace propscaler {

void ReturnFreeHeapPages() { malloc_trim(0); }

void UseOneHeapArena() { mallopt(M_ARENA_MAX, 1); }

}  // namespace propscaler
