// Connections, TLS sessions and DNS answers shared by every request of one
// HttpClient, through libcurl's share interface with a lock per kind of
// data: a request from any thread reuses a kept-alive connection (no new
// TCP and TLS handshake), or resumes a TLS session when it must connect.
#ifndef PROPSCALER_TRANSPORT_CONNECTION_POOL_H_
#define PROPSCALER_TRANSPORT_CONNECTION_POOL_H_

#include <curl/curl.h>

#include <array>
#include <mutex>

namespace propscaler::kube {

class ConnectionPool {
 public:
  ConnectionPool();
  ~ConnectionPool();
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  // Makes `curl` take its connections from the pool; before the transfer.
  void Attach(CURL* curl) const;

 private:
  static void Lock(CURL*, curl_lock_data data, curl_lock_access, void* self);
  static void Unlock(CURL*, curl_lock_data data, void* self);

  CURLSH* share_;
  mutable std::array<std::mutex, CURL_LOCK_DATA_LAST> mutexes_;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_TRANSPORT_CONNECTION_POOL_H_
