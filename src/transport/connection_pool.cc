#include "transport/connection_pool.h"

namespace propscaler::kube {

ConnectionPool::ConnectionPool() : share_(curl_share_init()) {
  if (share_ == nullptr) return;  // then every request connects anew
  curl_share_setopt(share_, CURLSHOPT_LOCKFUNC, &ConnectionPool::Lock);
  curl_share_setopt(share_, CURLSHOPT_UNLOCKFUNC, &ConnectionPool::Unlock);
  curl_share_setopt(share_, CURLSHOPT_USERDATA, this);
  curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
  curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
}

ConnectionPool::~ConnectionPool() {
  if (share_ != nullptr) curl_share_cleanup(share_);
}

void ConnectionPool::Attach(CURL* curl) const {
  if (share_ != nullptr) curl_easy_setopt(curl, CURLOPT_SHARE, share_);
}

void ConnectionPool::Lock(CURL*, curl_lock_data data, curl_lock_access,
                          void* self) {
  static_cast<ConnectionPool*>(self)->mutexes_[data].lock();
}

void ConnectionPool::Unlock(CURL*, curl_lock_data data, void* self) {
  static_cast<ConnectionPool*>(self)->mutexes_[data].unlock();
}

}  // namespace propscaler::kube
