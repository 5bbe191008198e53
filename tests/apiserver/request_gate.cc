#include "apiserver/request_gate.h"

#include <algorithm>
#include <memory>
#include <thread>

#include "apiserver/api_routes.h"
#include "apiserver/responses.h"

namespace propscaler::sim {
namespace {

using HandlerResponse = httplib::Server::HandlerResponse;

// Carry a cut or a late answer from the pre-routing to the post-routing
// handler; never sent.
constexpr char kCutHeader[] = "X-Sim-Cut-After-Bytes";
constexpr char kAnswerDelayHeader[] = "X-Sim-Answer-Delay-Ms";

bool StartsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

bool IsPublic(const std::string& path) {
  return path == "/healthz" || path == "/readyz" || path == "/livez" ||
         path == "/version";
}

bool Authorized(const httplib::Request& req, const std::string& token) {
  if (token.empty() || IsPublic(req.path)) return true;
  return req.get_header_value("Authorization") == "Bearer " + token;
}

HandlerResponse ApplyFault(const Fault& fault, httplib::Response& res) {
  if (fault.delay.count() > 0) std::this_thread::sleep_for(fault.delay);
  if (fault.cut_after_bytes && !fault.error) {
    res.set_header(kCutHeader, std::to_string(*fault.cut_after_bytes));
  }
  if (fault.answer_delay.count() > 0 && !fault.error) {
    res.set_header(kAnswerDelayHeader,
                   std::to_string(fault.answer_delay.count()));
  }
  if (!fault.error) return HandlerResponse::Unhandled;
  WriteError(res, *fault.error);
  if (fault.retry_after_seconds) {
    res.set_header("Retry-After", std::to_string(*fault.retry_after_seconds));
  }
  return HandlerResponse::Handled;
}

// A provider that passes on the first `*left` bytes, then fails, which makes
// httplib close the connection.
httplib::ContentProvider CutProvider(httplib::ContentProvider inner,
                                     std::shared_ptr<size_t> left) {
  return [inner = std::move(inner), left](size_t offset, size_t length,
                                          httplib::DataSink& sink) {
    bool cut = false;
    httplib::DataSink limited;
    limited.done = sink.done;
    limited.is_writable = sink.is_writable;
    limited.write = [&](const char* data, size_t size) {
      const size_t passed = std::min(size, *left);
      if (passed > 0 && !sink.write(data, passed)) return false;
      *left -= passed;
      cut = cut || passed < size || *left == 0;
      return !cut;
    };
    return inner(offset, length, limited) && !cut;
  };
}

// Makes a response whose rule said so end after N body bytes.
void CutResponse(httplib::Response& res) {
  if (!res.has_header(kCutHeader)) return;
  auto left =
      std::make_shared<size_t>(std::stoul(res.get_header_value(kCutHeader)));
  res.headers.erase(kCutHeader);
  if (!res.content_provider_) {
    // A plain body: serve it through a provider so it can be cut.
    auto body = std::make_shared<std::string>(std::move(res.body));
    res.body.clear();
    res.content_length_ = body->size();
    res.content_provider_ = [body](size_t offset, size_t length,
                                   httplib::DataSink& sink) {
      return sink.write(body->data() + offset, length);
    };
  }
  res.content_provider_ = CutProvider(std::move(res.content_provider_), left);
}

// Holds back the answer of a request already carried out, as its rule said.
void DelayAnswer(httplib::Response& res) {
  if (!res.has_header(kAnswerDelayHeader)) return;
  const auto delay = std::chrono::milliseconds(
      std::stol(res.get_header_value(kAnswerDelayHeader)));
  res.headers.erase(kAnswerDelayHeader);
  std::this_thread::sleep_for(delay);
}

}  // namespace

void InstallRequestGate(httplib::Server& server,
                        const RequestGateContext& context) {
  server.set_pre_routing_handler(
      [context](const httplib::Request& req, httplib::Response& res) {
        if (StartsWith(req.path, "/sim/")) return HandlerResponse::Unhandled;
        bool watch = IsWatchRequest(req);
        context.counter->Record(req.method, req.path, watch);
        if (!Authorized(req, context.bearer_token)) {
          WriteError(res, ApiError::Unauthorized());
          return HandlerResponse::Handled;
        }
        std::optional<Fault> fault =
            context.faults->Take(req.method, req.path, watch);
        if (!fault) return HandlerResponse::Unhandled;
        return ApplyFault(*fault, res);
      });
  server.set_post_routing_handler(
      [](const httplib::Request&, httplib::Response& res) {
        DelayAnswer(res);
        CutResponse(res);
      });
}

}  // namespace propscaler::sim
