// Whether this build's heap is glibc's malloc: AddressSanitizer replaces
// it with its own, where malloc_trim, mallopt and mallinfo2 tell nothing
// about the blocks the program allocates.
#ifndef PROPSCALER_TESTS_UNIT_GLIBC_HEAP_H_
#define PROPSCALER_TESTS_UNIT_GLIBC_HEAP_H_

namespace propscaler {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kGlibcHeap = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kGlibcHeap = false;
#else
inline constexpr bool kGlibcHeap = true;
#endif
#else
inline constexpr bool kGlibcHeap = true;
#endif

}  // namespace propscaler

#endif  // PROPSCALER_TESTS_UNIT_GLIBC_HEAP_H_
