// Runs a bound cpp-httplib server's accept loop on a thread of its own.
#ifndef PROPSCALER_SERVER_BACKGROUND_LISTENER_H_
#define PROPSCALER_SERVER_BACKGROUND_LISTENER_H_

#include <httplib.h>

#include <thread>

namespace propscaler {

// Starts `server`'s listen loop (after bind_to_port) and returns once it
// runs: a stop() issued before the loop starts would be lost, and joining
// the thread would then hang.
std::thread ListenInBackground(httplib::Server* server);

}  // namespace propscaler

#endif  // PROPSCALER_SERVER_BACKGROUND_LISTENER_H_
