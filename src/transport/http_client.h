// One HTTP(S) request to the API server, over libcurl: TLS as configured,
// the bearer token (re-read from its file at least every minute, as projected
// tokens rotate, and at once when the server answers 401), timeouts, and
// line-by-line streaming for watches.
//
// Responses come gzip'd where the server compresses them (the API server
// does for bodies over 128 KiB) and are inflated as they arrive.
// Connections are kept alive and shared by all requests of one client
// (transport/connection_pool.h).
//
// Every request has a total timeout and may have an idle timeout: a
// connection on which nothing arrives for that long (a hung server, a watch
// whose bookmarks stopped) is abandoned as an error. Tokens, certificates and
// keys never appear in errors or logs.
//
// Thread-safe: every call uses its own curl handle; the pool is locked.
#ifndef PROPSCALER_TRANSPORT_HTTP_CLIENT_H_
#define PROPSCALER_TRANSPORT_HTTP_CLIENT_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

#include "common/clock.h"
#include "common/status.h"
#include "transport/client_config.h"
#include "transport/connection_pool.h"

namespace propscaler::kube {

struct HttpRequest {
  std::string method = "GET";
  std::string path;  // path and query, starting with '/'
  std::string body;
  std::string content_type;
  std::string accept = "application/json";
  int timeout_seconds = 30;
  // Abandon the request when no byte arrives for this long; 0: no limit.
  int idle_timeout_seconds = 0;
  // A watch: the idle timeout holds only until the server accepts the
  // stream (its 200). A quiet watch is then silent until the server's own
  // timeoutSeconds (kube-apiserver v1.20 sends it no bookmark before), and
  // TCP keep-alive probes find a peer that went away.
  bool idle_only_until_accepted = false;
};

struct HttpResponse {
  long status = 0;
  std::string body;
  int retry_after_seconds = -1;  // from a Retry-After header, if any
};

class HttpClient {
 public:
  static constexpr std::chrono::seconds kTokenRereadInterval{60};

  // `token_reread_interval`: how long a token read from a file is used, as
  // `clock` measures it; the typed API over this client times Retry-After
  // on the same clock.
  HttpClient(ClientConfig config, const Clock* clock,
             std::chrono::seconds token_reread_interval = kTokenRereadInterval);

  const Clock* clock() const { return clock_; }

  // Sends the request and returns whatever status the server answered; only
  // transport failures (refused, reset, timed out, TLS) are errors.
  Result<HttpResponse> Do(const HttpRequest& request) const;

  // Sends the request and, on a 200, calls `on_open` (may be empty) once the
  // headers are in, then passes each line of the body to `on_line` as it
  // arrives, until the stream ends, `on_line` returns false, or `*cancel`
  // becomes true. On other statuses the body is returned whole.
  Result<HttpResponse> Stream(
      const HttpRequest& request,
      const std::function<bool(std::string_view line)>& on_line,
      const std::atomic<bool>* cancel,
      const std::function<void()>& on_open = {}) const;

  // As Stream, but passes the body's bytes on as they arrive (inflated),
  // in chunks of any size.
  Result<HttpResponse> StreamChunks(
      const HttpRequest& request,
      const std::function<bool(std::string_view chunk)>& on_chunk,
      const std::atomic<bool>* cancel,
      const std::function<void()>& on_open = {}) const;

  const ClientConfig& config() const { return config_; }

 private:
  struct Transfer;
  // Performs the request; on a 401 with a token file, re-reads the file and,
  // if the token changed, sends the request once more.
  Result<HttpResponse> PerformWithFreshToken(
      const HttpRequest& request,
      const std::function<bool(std::string_view)>* on_line, bool chunks,
      const std::atomic<bool>* cancel,
      const std::function<void()>* on_open) const;
  Result<HttpResponse> Perform(const HttpRequest& request,
                               Transfer* transfer) const;
  std::string BearerToken() const;
  // Reads the token file now; true when the token changed.
  bool RereadToken() const;

  ClientConfig config_;
  ConnectionPool pool_;
  const std::chrono::seconds token_reread_interval_;
  mutable std::mutex token_mutex_;
  mutable std::string cached_token_;
  const Clock* const clock_;
  mutable TimePoint token_read_at_{};
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_TRANSPORT_HTTP_CLIENT_H_
