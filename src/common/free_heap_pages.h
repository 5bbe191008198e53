// Gives the pages of freed heap memory back to the system.
//
// glibc keeps what is freed in the middle of its heaps (and below its trim
// threshold at the top) resident: a long-running process's RSS then follows
// the high-water mark of every burst of allocations (a list after a
// restart, a cycle's documents), not what it holds: 150,000 pods held 169
// MiB where node-scale's heap in use was about 105. The cycle driver calls
// this after every cycle.
#ifndef PROPSCALER_COMMON_FREE_HEAP_PAGES_H_
#define PROPSCALER_COMMON_FREE_HEAP_PAGES_H_

namespace propscaler {

// Walks every malloc arena and releases its free pages (malloc_trim(0)):
// microseconds for a sidecar's heap, a few milliseconds at 150,000 pods.
void ReturnFreeHeapPages();

// Makes every thread allocate from the one main heap; called first thing in
// main, before any thread starts. glibc gives threads heaps of their own
// (up to 8 a core), created when threads allocate at the same moment, as
// they do when every watch reconnects after an outage: each new heap and
// each heap's grown top stayed resident, since malloc_trim does not shrink
// the top of a thread's heap. The soak's anonymous RSS grew in those steps
// (bench/HISTORY.md, "Where the RSS growth is"). A sidecar's threads
// allocate little at once, so sharing one heap costs them nothing.
void UseOneHeapArena();

// What malloc's heaps hold: in use (live blocks, the threads' caches of
// freed blocks, large blocks mapped on their own) and free inside them
// (given back to the system by the trim, or in pieces too small to be).
// Resident memory that grows while `in_use_bytes` stays flat is the heap's
// free space, not a leak.
struct HeapUsage {
  double in_use_bytes = 0;
  double free_bytes = 0;
};
HeapUsage MeasureHeap();

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_FREE_HEAP_PAGES_H_
