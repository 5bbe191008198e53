#include "transport/http_client.h"

#include <curl/curl.h>
#include <glog/logging.h>

#include <charconv>
#include <memory>

#include "common/files.h"
#include "common/metrics.h"

namespace propscaler::kube {
namespace {

// Retry-After in seconds (the HTTP-date form is not used by the API
// server); -1 when absent or not a whole number.
int ParseRetryAfterSeconds(std::string_view value) {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) {
    value.remove_prefix(1);
  }
  int seconds = -1;
  const auto [end, error] =
      std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (error != std::errc() || end == value.data() || seconds < 0) return -1;
  return seconds;
}

// `labels`, and the connection's cluster where it has one.
MetricLabels OfCluster(MetricLabels labels, const std::string& cluster) {
  if (!cluster.empty()) labels.emplace_back("cluster", cluster);
  return labels;
}

// propscaler_api_requests_total{verb,code}; code "error" when no HTTP
// response arrived (refused, timed out, cut). --v=2 logs each request as it
// ends (a watch when its stream does).
void CountRequest(const HttpRequest& request,
                  const Result<HttpResponse>& response,
                  const std::string& cluster) {
  const std::string code =
      response.ok() ? std::to_string(response->status) : "error";
  GlobalMetrics().Add(
      "propscaler_api_requests_total",
      OfCluster({{"verb", request.method}, {"code", code}}, cluster));
  VLOG(2) << "API request " << request.method << " " << request.path << ": "
          << code;
}

// "HTTP/2" or "HTTP/1.1", as the transfer's response came; "" when none did.
const char* ProtocolOf(long version) {
  switch (version) {
    case CURL_HTTP_VERSION_1_0:
      return "HTTP/1.0";
    case CURL_HTTP_VERSION_1_1:
      return "HTTP/1.1";
    case CURL_HTTP_VERSION_2_0:
      return "HTTP/2";
    default:
      return "";
  }
}

// What a transfer cost on the wire: the bytes received as sent (compressed
// where the server compressed them), the connections it had to open (each
// a TCP and, over https, a TLS handshake) and the protocol it spoke (HTTP/2
// where the server offers it over TLS, by ALPN).
void CountWire(CURL* curl, const std::string& cluster) {
  curl_off_t received = 0;
  long connects = 0;
  long version = 0;
  curl_easy_getinfo(curl, CURLINFO_SIZE_DOWNLOAD_T, &received);
  curl_easy_getinfo(curl, CURLINFO_NUM_CONNECTS, &connects);
  curl_easy_getinfo(curl, CURLINFO_HTTP_VERSION, &version);
  if (const std::string protocol = ProtocolOf(version); !protocol.empty()) {
    GlobalMetrics().Add("propscaler_api_responses_total",
                        OfCluster({{"protocol", protocol}}, cluster));
  }
  if (received > 0) {
    GlobalMetrics().Add("propscaler_api_received_bytes_total",
                        OfCluster({}, cluster), static_cast<double>(received));
  }
  if (connects > 0) {
    GlobalMetrics().Add("propscaler_api_connections_total",
                        OfCluster({}, cluster), static_cast<double>(connects));
  }
}

const std::string kUserAgent = std::string("propscaler/") + PROPSCALER_VERSION;

void InitCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

std::string TrimWhitespace(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.pop_back();
  size_t start = 0;
  while (start < text.size() &&
         std::isspace(static_cast<unsigned char>(text[start])))
    ++start;
  return text.substr(start);
}

void SetBlob(CURL* curl, CURLoption option, const std::string& pem) {
  curl_blob blob{const_cast<char*>(pem.data()), pem.size(), CURL_BLOB_COPY};
  curl_easy_setopt(curl, option, &blob);
}

void ConfigureTls(CURL* curl, const ClientConfig& config) {
  if (config.insecure_skip_tls_verify) {
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if (!config.ca_pem.empty()) SetBlob(curl, CURLOPT_CAINFO_BLOB, config.ca_pem);
  if (!config.ca_file.empty())
    curl_easy_setopt(curl, CURLOPT_CAINFO, config.ca_file.c_str());
  if (!config.client_cert_pem.empty())
    SetBlob(curl, CURLOPT_SSLCERT_BLOB, config.client_cert_pem);
  if (!config.client_cert_file.empty())
    curl_easy_setopt(curl, CURLOPT_SSLCERT, config.client_cert_file.c_str());
  if (!config.client_key_pem.empty())
    SetBlob(curl, CURLOPT_SSLKEY_BLOB, config.client_key_pem);
  if (!config.client_key_file.empty())
    curl_easy_setopt(curl, CURLOPT_SSLKEY, config.client_key_file.c_str());
}

}  // namespace

// The state of one transfer, shared with curl's callbacks.
struct HttpClient::Transfer {
  using Clock = std::chrono::steady_clock;

  // Streamed bodies go to on_line: whole lines, or with `chunks` the bytes
  // as they arrive.
  const std::function<bool(std::string_view)>* on_line = nullptr;
  bool chunks = false;
  const std::function<void()>* on_open = nullptr;  // once, on a 200
  const std::atomic<bool>* cancel = nullptr;
  HttpResponse response;
  std::string pending;  // a streamed line not yet complete
  bool stopped_by_reader = false;
  CURL* curl = nullptr;
  Clock::duration idle_timeout{0};  // zero: no limit
  bool idle_only_until_accepted = false;
  Clock::time_point last_data = Clock::now();
  bool idle_timed_out = false;

  bool Streaming() {
    if (on_line == nullptr) return false;
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    return code == 200;
  }

  // Passes complete lines (with `chunks`, the bytes as they came) on;
  // false stops the transfer.
  bool Feed(const char* data, size_t size) {
    if (chunks) {
      stopped_by_reader = !(*on_line)(std::string_view(data, size));
      return !stopped_by_reader;
    }
    pending.append(data, size);
    size_t start = 0;
    for (size_t end; (end = pending.find('\n', start)) != std::string::npos;
         start = end + 1) {
      std::string_view line(pending.data() + start, end - start);
      if (!line.empty() && !(*on_line)(line)) {
        stopped_by_reader = true;
        return false;
      }
    }
    pending.erase(0, start);
    return true;
  }

  static size_t OnBody(char* data, size_t size, size_t count, void* self) {
    auto* transfer = static_cast<Transfer*>(self);
    const size_t bytes = size * count;
    transfer->last_data = Clock::now();
    if (!transfer->Streaming()) {
      transfer->response.body.append(data, bytes);
      return bytes;
    }
    return transfer->Feed(data, bytes) ? bytes : 0;
  }

  static size_t OnHeader(char* data, size_t size, size_t count, void* self) {
    auto* transfer = static_cast<Transfer*>(self);
    transfer->last_data = Clock::now();
    std::string_view line(data, size * count);
    // The blank line ends a response's headers (an interim 1xx's too, but
    // then the code is not 200).
    const bool accepted =
        (line == "\r\n" || line == "\n") && transfer->Streaming();
    if (accepted && transfer->idle_only_until_accepted) {
      transfer->idle_timeout = Clock::duration::zero();
    }
    if (accepted && transfer->on_open != nullptr && *transfer->on_open) {
      (*transfer->on_open)();
      transfer->on_open = nullptr;
    }
    constexpr std::string_view kRetryAfter = "retry-after:";
    if (line.size() > kRetryAfter.size()) {
      std::string name(line.substr(0, kRetryAfter.size()));
      for (char& c : name) c = static_cast<char>(std::tolower(c));
      if (name == kRetryAfter) {
        transfer->response.retry_after_seconds =
            ParseRetryAfterSeconds(line.substr(kRetryAfter.size()));
      }
    }
    return size * count;
  }

  static int OnProgress(void* self, curl_off_t, curl_off_t, curl_off_t,
                        curl_off_t) {
    auto* transfer = static_cast<Transfer*>(self);
    if (transfer->cancel != nullptr && transfer->cancel->load()) return 1;
    if (transfer->idle_timeout > Clock::duration::zero() &&
        Clock::now() - transfer->last_data > transfer->idle_timeout) {
      transfer->idle_timed_out = true;
      return 1;
    }
    return 0;
  }
};

HttpClient::HttpClient(ClientConfig config, const Clock* clock,
                       std::chrono::seconds token_reread_interval)
    : config_(std::move(config)),
      token_reread_interval_(token_reread_interval),
      clock_(clock) {
  InitCurlOnce();
  GlobalMetrics().DeclareCounter(
      "propscaler_api_requests_total",
      "Requests to the API server by verb and HTTP code (\"error\": none).");
  GlobalMetrics().DeclareCounter(
      "propscaler_api_received_bytes_total",
      "Bytes received from the API server as sent (gzip'd where it was).");
  GlobalMetrics().DeclareCounter(
      "propscaler_api_responses_total",
      "Responses from the API server by protocol (HTTP/2 where the server "
      "offers it over TLS).");
  GlobalMetrics().DeclareCounter(
      "propscaler_api_connections_total",
      "Connections opened to the API server (each a TCP and TLS handshake).");
  while (!config_.server.empty() && config_.server.back() == '/')
    config_.server.pop_back();
}

std::string HttpClient::BearerToken() const {
  if (config_.token_file.empty()) return config_.token;
  std::lock_guard<std::mutex> lock(token_mutex_);
  const TimePoint now = clock_->Now();
  if (cached_token_.empty() || now - token_read_at_ >= token_reread_interval_) {
    Result<std::string> token = ReadFile(config_.token_file);
    // A failed re-read keeps the last token: the kubelet may be mid-rewrite.
    if (token.ok()) cached_token_ = TrimWhitespace(*token);
    token_read_at_ = now;
  }
  return cached_token_;
}

bool HttpClient::RereadToken() const {
  Result<std::string> token = ReadFile(config_.token_file);
  std::lock_guard<std::mutex> lock(token_mutex_);
  token_read_at_ = clock_->Now();
  if (!token.ok() || TrimWhitespace(*token) == cached_token_) return false;
  cached_token_ = TrimWhitespace(*token);
  return true;
}

Result<HttpResponse> HttpClient::Do(const HttpRequest& request) const {
  return PerformWithFreshToken(request, nullptr, false, nullptr, nullptr);
}

Result<HttpResponse> HttpClient::Stream(
    const HttpRequest& request,
    const std::function<bool(std::string_view)>& on_line,
    const std::atomic<bool>* cancel,
    const std::function<void()>& on_open) const {
  return PerformWithFreshToken(request, &on_line, false, cancel, &on_open);
}

Result<HttpResponse> HttpClient::StreamChunks(
    const HttpRequest& request,
    const std::function<bool(std::string_view chunk)>& on_chunk,
    const std::atomic<bool>* cancel,
    const std::function<void()>& on_open) const {
  return PerformWithFreshToken(request, &on_chunk, true, cancel, &on_open);
}

Result<HttpResponse> HttpClient::PerformWithFreshToken(
    const HttpRequest& request,
    const std::function<bool(std::string_view)>* on_line, bool chunks,
    const std::atomic<bool>* cancel,
    const std::function<void()>* on_open) const {
  auto perform = [&] {
    Transfer transfer;
    transfer.on_line = on_line;
    transfer.chunks = chunks;
    transfer.on_open = on_open;
    transfer.cancel = cancel;
    Result<HttpResponse> response = Perform(request, &transfer);
    CountRequest(request, response, config_.metrics_cluster);
    return response;
  };
  Result<HttpResponse> response = perform();
  // The token may have been rotated since it was read: read it again at once
  // rather than failing until the next periodic re-read. A 401 body is never
  // streamed, so sending again is safe.
  if (response.ok() && response->status == 401 && !config_.token_file.empty() &&
      RereadToken()) {
    response = perform();
  }
  return response;
}

Result<HttpResponse> HttpClient::Perform(const HttpRequest& request,
                                         Transfer* transfer) const {
  const ConnectionPool::Lease curl = pool_.Take();
  if (curl.get() == nullptr) return Status::Internal("curl_easy_init failed");
  CURL* c = curl.get();
  transfer->curl = c;
  const std::string url = config_.server + request.path;
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  curl_easy_setopt(c, CURLOPT_USERAGENT, kUserAgent.c_str());
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT,
                   static_cast<long>(request.timeout_seconds));
  transfer->idle_timeout = std::chrono::seconds(request.idle_timeout_seconds);
  transfer->idle_only_until_accepted = request.idle_only_until_accepted;
  curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(c, CURLOPT_TCP_KEEPIDLE, 30L);
  curl_easy_setopt(c, CURLOPT_TCP_KEEPINTVL, 15L);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &Transfer::OnBody);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, transfer);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &Transfer::OnHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, transfer);
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, &Transfer::OnProgress);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, transfer);
  // Only gzip, which is what the API server compresses with.
  curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "gzip");
  ConfigureTls(c, config_);

  std::unique_ptr<curl_slist, SlistDeleter> headers(
      curl_slist_append(nullptr, ("Accept: " + request.accept).c_str()));
  const std::string token = BearerToken();
  if (!token.empty()) {
    headers.reset(curl_slist_append(
        headers.release(), ("Authorization: Bearer " + token).c_str()));
  }
  if (!request.content_type.empty()) {
    headers.reset(curl_slist_append(
        headers.release(), ("Content-Type: " + request.content_type).c_str()));
  }
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  if (!request.body.empty() || request.method == "POST" ||
      request.method == "PUT" || request.method == "PATCH") {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.c_str());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE,
                     static_cast<long>(request.body.size()));
  }

  const CURLcode code = curl_easy_perform(c);
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &transfer->response.status);
  CountWire(c, config_.metrics_cluster);
  const bool cancelled =
      code == CURLE_ABORTED_BY_CALLBACK ||
      (code == CURLE_WRITE_ERROR && transfer->stopped_by_reader);
  if (transfer->idle_timed_out) {
    return Status::Unavailable(request.method + " " + url +
                               ": nothing received for " +
                               std::to_string(request.idle_timeout_seconds) +
                               "s (idle timeout); abandoned the connection");
  }
  if (code != CURLE_OK && !cancelled) {
    return Status::Unavailable(request.method + " " + url + ": " +
                               curl_easy_strerror(code));
  }
  return std::move(transfer->response);
}

}  // namespace propscaler::kube
