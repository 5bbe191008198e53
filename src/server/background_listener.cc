#include "server/background_listener.h"

#include <chrono>

namespace propscaler {

std::thread ListenInBackground(httplib::Server* server) {
  std::thread listener([server] { server->listen_after_bind(); });
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!server->is_running() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return listener;
}

}  // namespace propscaler
