#include "apiserver/watch_stream.h"

#include <algorithm>

#include "apiserver/api_error.h"
#include "apiserver/json_util.h"

namespace propscaler::sim {
namespace {

void AppendLine(const char* type, const std::string& object, std::string* out) {
  *out += "{\"type\":\"";
  *out += type;
  *out += "\",\"object\":";
  *out += object;
  *out += "}\n";
}

// The object's JSON with metadata.resourceVersion replaced by `rv`.
std::string WithResourceVersion(const std::string& json, int64_t rv) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  rapidjson::Value& metadata =
      EnsureObject(doc, "metadata", doc.GetAllocator());
  SetString(metadata, "resourceVersion", std::to_string(rv),
            doc.GetAllocator());
  return ToJson(doc);
}

std::chrono::seconds Timeout(const ListOptions& options,
                             const WatchSettings& settings) {
  if (options.timeout_seconds > 0) {
    return std::chrono::seconds(options.timeout_seconds);
  }
  return settings.default_timeout;
}

}  // namespace

WatchStream::WatchStream(const ObjectStore& store, ResourcePath path,
                         ListOptions options, const WatchSettings& settings,
                         const std::atomic<bool>* cancel)
    : store_(store),
      path_(std::move(path)),
      options_(std::move(options)),
      settings_(settings),
      drop_generation_(store.drop_generation()),
      cancel_(cancel),
      deadline_(store.clock()->Now() + Timeout(options_, settings)),
      next_bookmark_(store.clock()->Now() + settings.bookmark_interval) {}

bool WatchStream::Next(std::string* out) {
  if (ended_) return false;
  if (!started_) {
    started_ = true;
    const bool from_now =
        options_.resource_version.empty() || options_.resource_version == "0";
    if (options_.send_initial_events.has_value()) {
      // A WatchList: the state now (at least as new as resourceVersion),
      // then the bookmark that ends it; or, with false, events from then.
      if (*options_.send_initial_events) {
        AppendInitialEvents(out);
        AppendBookmark(out, /*initial_events_end=*/true);
        return true;
      }
      cursor_ = from_now ? store_.resource_version()
                         : std::stoll(options_.resource_version);
    } else if (from_now) {
      AppendInitialEvents(out);
      return true;
    } else {
      cursor_ = std::stoll(options_.resource_version);
    }
  }
  const TimePoint now = store_.clock()->Now();
  if (now >= deadline_ || (cancel_ != nullptr && cancel_->load())) {
    ended_ = true;
    return false;
  }
  const TimePoint wake_at = options_.allow_bookmarks
                                ? std::min(deadline_, next_bookmark_)
                                : deadline_;
  WaitResult result =
      store_.WaitForEvents(cursor_, wake_at, drop_generation_,
                           settings_.max_events_per_write, cancel_);
  switch (result.kind) {
    case WaitResult::Kind::kEvents:
      for (const WatchEvent& event : result.events) {
        AppendEvent(event, out);
        cursor_ = event.resource_version;
      }
      return true;
    case WaitResult::Kind::kWakeUp:
      if (options_.allow_bookmarks && store_.clock()->Now() >= next_bookmark_) {
        AppendBookmark(out, false);
        next_bookmark_ = store_.clock()->Now() + settings_.bookmark_interval;
      }
      return true;
    case WaitResult::Kind::kExpired:
      AppendExpired(result.oldest_watchable, out);
      ended_ = true;
      return true;
    case WaitResult::Kind::kDropped:
    case WaitResult::Kind::kShutdown:
      ended_ = true;
      return false;
  }
  return false;
}

void WatchStream::AppendInitialEvents(std::string* out) {
  ObjectFilter filter = [this](const ObjectKey& key,
                               const StoredObject& object) {
    return options_.Matches(key, object);
  };
  ListChunk chunk = store_.List(*path_.type, path_.ns, std::nullopt, filter, 0);
  for (const auto& [key, object] : chunk.objects) {
    AppendLine("ADDED", object->json, out);
  }
  cursor_ = chunk.resource_version;
}

bool WatchStream::Wanted(const WatchEvent& event) const {
  if (event.resource != path_.type) return false;
  return path_.ns.empty() || event.key.ns == path_.ns;
}

void WatchStream::AppendEvent(const WatchEvent& event, std::string* out) const {
  if (!Wanted(event)) return;
  bool now_matches = options_.Matches(event.key, *event.object);
  if (event.type != EventType::kModified) {
    if (now_matches)
      AppendLine(EventTypeName(event.type), event.object->json, out);
    return;
  }
  bool matched = options_.Matches(event.key, *event.previous);
  if (matched && now_matches) {
    AppendLine("MODIFIED", event.object->json, out);
  } else if (now_matches) {
    AppendLine("ADDED", event.object->json, out);
  } else if (matched) {
    // As the real server does: the last state that matched, at the new
    // resourceVersion.
    AppendLine(
        "DELETED",
        WithResourceVersion(event.previous->json, event.resource_version), out);
  }
}

void WatchStream::AppendBookmark(std::string* out,
                                 bool initial_events_end) const {
  AppendLine("BOOKMARK",
             "{\"kind\":\"" + path_.type->kind + "\",\"apiVersion\":\"" +
                 path_.type->ApiVersion() +
                 "\",\"metadata\":{\"resourceVersion\":\"" +
                 std::to_string(cursor_) + "\"" +
                 (initial_events_end ? ",\"annotations\":{\"k8s.io/"
                                       "initial-events-end\":\"true\"}"
                                     : "") +
                 "}}",
             out);
}

void WatchStream::AppendExpired(int64_t oldest, std::string* out) const {
  ApiError error =
      ApiError::Expired("too old resource version: " + std::to_string(cursor_) +
                        " (" + std::to_string(oldest + 1) + ")");
  AppendLine("ERROR", error.ToStatusJson(), out);
}

}  // namespace propscaler::sim
