// Gives the pages of freed heap memory back to the system.
//
// glibc keeps what is freed in the middle of its heaps (and below its trim
// threshold at the top) resident: a long-running process's RSS then follows
// the high-water mark of every burst of allocations (a list after a
// restart, a cycle's documents), not what it holds: 150,000 pods held 169
// MiB where node-scale's heap in use was about 105. The cycle driver calls
// this after every cycle. (It does not explain all of the soak's slow
// anonymous growth: see bench/README.md, "Where the RSS growth is".)
#ifndef PROPSCALER_COMMON_FREE_HEAP_PAGES_H_
#define PROPSCALER_COMMON_FREE_HEAP_PAGES_H_

namespace propscaler {

// Walks every malloc arena and releases its free pages (malloc_trim(0)):
// microseconds for a sidecar's heap, a few milliseconds at 150,000 pods.
void ReturnFreeHeapPages();

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_FREE_HEAP_PAGES_H_
