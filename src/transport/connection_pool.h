// Connections, TLS sessions and DNS answers reused by the requests of one
// HttpClient. libcurl's share interface shares the TLS sessions and DNS
// answers between threads (a lock per kind of data), but its shared
// connection cache is not safe between threads running transfers at once
// (libcurl's known bug "A shared connection cache is not thread safe";
// Debian bookworm's libcurl 7.88 has it: node-scale mode's parallel node
// creations crashed in curl_easy_cleanup). So connections are kept by easy
// handles instead: a request leases an idle handle (its live connections
// survive curl_easy_reset) and gives it back when done; one thread uses a
// handle at a time, as libcurl requires. A request after another, from any
// thread, reuses the kept-alive connection; requests at once use one handle
// (and connection) each, and a handle that must connect resumes a TLS
// session.
#ifndef PROPSCALER_TRANSPORT_CONNECTION_POOL_H_
#define PROPSCALER_TRANSPORT_CONNECTION_POOL_H_

#include <curl/curl.h>

#include <array>
#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

#include "common/mutex.h"

namespace propscaler::kube {

class ConnectionPool {
 public:
  // At most this many idle handles (and their connections) are kept; more
  // are closed when given back.
  static constexpr size_t kIdleHandles = 16;

  // One easy handle, reset to libcurl's defaults but attached to the share,
  // for one transfer on one thread; given back when it goes.
  class Lease {
   public:
    Lease(const ConnectionPool* pool, CURL* curl) : pool_(pool), curl_(curl) {}
    Lease(Lease&& other) noexcept
        : pool_(other.pool_), curl_(std::exchange(other.curl_, nullptr)) {}
    ~Lease();
    Lease& operator=(Lease&&) = delete;
    CURL* get() const { return curl_; }

   private:
    const ConnectionPool* pool_;
    CURL* curl_;
  };

  ConnectionPool();
  ~ConnectionPool();
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  // An idle handle (the last given back) or a new one; get() is null when
  // libcurl cannot make one.
  Lease Take() const EXCLUDES(idle_mutex_);

 private:
  void GiveBack(CURL* curl) const EXCLUDES(idle_mutex_);
  static void Lock(CURL*, curl_lock_data data, curl_lock_access, void* self);
  static void Unlock(CURL*, curl_lock_data data, void* self);

  CURLSH* share_;
  mutable std::array<std::mutex, CURL_LOCK_DATA_LAST> mutexes_;
  mutable Mutex idle_mutex_;
  mutable std::vector<CURL*> idle_ GUARDED_BY(idle_mutex_);
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_TRANSPORT_CONNECTION_POOL_H_
