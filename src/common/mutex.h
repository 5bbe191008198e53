// std::mutex with the annotations clang's thread-safety analysis reads
// (libstdc++'s carries none), and its scoped lock. Use these for state
// shared between threads so that the analysis checks every access.
#ifndef PROPSCALER_COMMON_MUTEX_H_
#define PROPSCALER_COMMON_MUTEX_H_

#include <mutex>

#include "common/thread_annotations.h"

namespace propscaler {

class CAPABILITY("mutex") Mutex {
 public:
  void Lock() ACQUIRE() { mutex_.lock(); }
  void Unlock() RELEASE() { mutex_.unlock(); }

 private:
  std::mutex mutex_;
};

class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex* mutex) ACQUIRE(mutex) : mutex_(mutex) {
    mutex_->Lock();
  }
  ~MutexLock() RELEASE() { mutex_->Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex* const mutex_;
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_MUTEX_H_
