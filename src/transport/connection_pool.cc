#include "transport/connection_pool.h"

namespace propscaler::kube {

ConnectionPool::Lease::~Lease() {
  if (curl_ != nullptr) pool_->GiveBack(curl_);
}

ConnectionPool::ConnectionPool() : share_(curl_share_init()) {
  if (share_ == nullptr) return;  // then every new handle resolves anew
  curl_share_setopt(share_, CURLSHOPT_LOCKFUNC, &ConnectionPool::Lock);
  curl_share_setopt(share_, CURLSHOPT_UNLOCKFUNC, &ConnectionPool::Unlock);
  curl_share_setopt(share_, CURLSHOPT_USERDATA, this);
  curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
}

ConnectionPool::~ConnectionPool() {
  {
    MutexLock lock(&idle_mutex_);
    for (CURL* curl : idle_) curl_easy_cleanup(curl);
    idle_.clear();
  }
  // After every handle attached to it.
  if (share_ != nullptr) curl_share_cleanup(share_);
}

ConnectionPool::Lease ConnectionPool::Take() const {
  CURL* curl = nullptr;
  {
    MutexLock lock(&idle_mutex_);
    if (!idle_.empty()) {
      curl = idle_.back();
      idle_.pop_back();
    }
  }
  if (curl == nullptr) curl = curl_easy_init();
  if (curl != nullptr && share_ != nullptr) {
    curl_easy_setopt(curl, CURLOPT_SHARE, share_);
  }
  return Lease(this, curl);
}

void ConnectionPool::GiveBack(CURL* curl) const {
  // Options back to the defaults; the handle's live connections stay.
  curl_easy_reset(curl);
  {
    MutexLock lock(&idle_mutex_);
    if (idle_.size() < kIdleHandles) {
      idle_.push_back(curl);
      return;
    }
  }
  curl_easy_cleanup(curl);
}

void ConnectionPool::Lock(CURL*, curl_lock_data data, curl_lock_access,
                          void* self) {
  static_cast<ConnectionPool*>(self)->mutexes_[data].lock();
}

void ConnectionPool::Unlock(CURL*, curl_lock_data data, void* self) {
  static_cast<ConnectionPool*>(self)->mutexes_[data].unlock();
}

}  // namespace propscaler::kube
