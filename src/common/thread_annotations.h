// Clang's thread-safety analysis (-Wthread-safety), as Abseil and LevelDB
// spell it: a field GUARDED_BY(mutex_) may only be touched with mutex_ held,
// a function that REQUIRES(mutex_) only be called with it held. Other
// compilers see nothing. CI's clang build checks them (CMakeLists.txt,
// PROPSCALER_THREAD_SAFETY).
#ifndef PROPSCALER_COMMON_THREAD_ANNOTATIONS_H_
#define PROPSCALER_COMMON_THREAD_ANNOTATIONS_H_

#if defined(__clang__)
#define PROPSCALER_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define PROPSCALER_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) PROPSCALER_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY PROPSCALER_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) PROPSCALER_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) PROPSCALER_THREAD_ANNOTATION(pt_guarded_by(x))
#define REQUIRES(...) \
  PROPSCALER_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define ACQUIRE(...) \
  PROPSCALER_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) \
  PROPSCALER_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define EXCLUDES(...) PROPSCALER_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define NO_THREAD_SAFETY_ANALYSIS \
  PROPSCALER_THREAD_ANNOTATION(no_thread_safety_analysis)

#endif  // PROPSCALER_COMMON_THREAD_ANNOTATIONS_H_
