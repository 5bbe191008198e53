#include "apiserver/list_options.h"

#include <charconv>
#include <string_view>

namespace propscaler::sim {
namespace {

std::string Param(const std::multimap<std::string, std::string>& params,
                  const std::string& key) {
  auto it = params.find(key);
  return it == params.end() ? "" : it->second;
}

bool ParseFlag(const std::string& value) {
  return value == "1" || value == "true" || value == "True";
}

bool ParseNonNegative(const std::string& text, int64_t* value) {
  if (text.empty()) return false;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), *value);
  return ec == std::errc() && end == text.data() + text.size() && *value >= 0;
}

std::string Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

ApiResult<FieldRequirement> ParseFieldRequirement(std::string_view part) {
  FieldRequirement req;
  size_t op = part.find("!=");
  size_t skip = 2;
  if (op != std::string_view::npos) {
    req.equals = false;
  } else if ((op = part.find("==")) == std::string_view::npos) {
    op = part.find('=');
    skip = 1;
  }
  if (op == std::string_view::npos) {
    return ApiError::BadRequest("invalid field selector: \"" +
                                std::string(part) + "\": missing operator");
  }
  req.field = Trim(part.substr(0, op));
  req.value = Trim(part.substr(op + skip));
  if (req.field != "metadata.name" && req.field != "metadata.namespace" &&
      req.field != "spec.nodeName" && req.field != "status.phase") {
    return ApiError::BadRequest("field label not supported: " + req.field);
  }
  return req;
}

ApiResult<std::vector<FieldRequirement>> ParseFieldSelector(
    std::string_view text) {
  std::vector<FieldRequirement> reqs;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view part = text.substr(0, comma);
    text = comma == std::string_view::npos ? "" : text.substr(comma + 1);
    if (Trim(part).empty()) continue;
    ApiResult<FieldRequirement> req = ParseFieldRequirement(part);
    if (!req.ok()) return req.error();
    reqs.push_back(*req);
  }
  return reqs;
}

std::string HexEncode(std::string_view raw) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : raw) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

bool HexDecode(std::string_view hex, std::string* raw) {
  if (hex.size() % 2 != 0) return false;
  for (size_t i = 0; i < hex.size(); i += 2) {
    int value = 0;
    auto [end, ec] =
        std::from_chars(hex.data() + i, hex.data() + i + 2, value, 16);
    if (ec != std::errc() || end != hex.data() + i + 2) return false;
    raw->push_back(static_cast<char>(value));
  }
  return true;
}

ApiError BadContinue() {
  return ApiError::BadRequest("continue key is not valid");
}

std::string FieldValue(const std::string& field, const ObjectKey& key,
                       const StoredObject& object) {
  if (field == "metadata.name") return key.name;
  if (field == "metadata.namespace") return key.ns;
  auto it = object.fields.find(field);
  return it == object.fields.end() ? "" : it->second;
}

}  // namespace

bool ListOptions::Matches(const ObjectKey& key,
                          const StoredObject& object) const {
  for (const FieldRequirement& req : field_selector) {
    if ((FieldValue(req.field, key, object) == req.value) != req.equals) {
      return false;
    }
  }
  return label_selector.Matches(object.labels);
}

namespace {

// The real server's 422 for ListOptions: `field`: Forbidden: `message`.
ApiError ForbiddenOption(const std::string& field, const std::string& message) {
  return ApiError::Invalid("ListOptions.meta.k8s.io \"\" is invalid: " + field +
                           ": Forbidden: " + message);
}

// The watch rules of resourceVersionMatch and sendInitialEvents.
std::optional<ApiError> CheckWatchListOptions(const ListOptions& options,
                                              WatchListSupport support) {
  const std::string& match = options.resource_version_match;
  if (support == WatchListSupport::kBefore) {
    if (options.watch && !match.empty()) {
      return ForbiddenOption("resourceVersionMatch",
                             "resourceVersionMatch is forbidden for watch");
    }
    return std::nullopt;
  }
  if (!options.watch) {
    if (options.send_initial_events.has_value()) {
      return ForbiddenOption("sendInitialEvents",
                             "sendInitialEvents is forbidden for list");
    }
    return std::nullopt;
  }
  if (options.send_initial_events.has_value() && match != "NotOlderThan") {
    return ForbiddenOption("resourceVersionMatch",
                           "sendInitialEvents requires setting "
                           "resourceVersionMatch to NotOlderThan");
  }
  if (!match.empty() && !options.send_initial_events.has_value()) {
    return ForbiddenOption("resourceVersionMatch",
                           "resourceVersionMatch is forbidden for watch "
                           "unless sendInitialEvents is provided");
  }
  if (!match.empty() && !options.continue_token.empty()) {
    return ForbiddenOption("resourceVersionMatch",
                           "resourceVersionMatch is forbidden when continue "
                           "is provided");
  }
  return std::nullopt;
}

}  // namespace

ApiResult<ListOptions> ParseListOptions(
    const std::multimap<std::string, std::string>& params,
    WatchListSupport watch_list) {
  ListOptions options;
  std::string labels = Param(params, "labelSelector");
  if (!labels.empty()) {
    Result<LabelSelector> selector = LabelSelector::Parse(labels);
    if (!selector.ok()) {
      return ApiError::BadRequest("unable to parse requirement: " +
                                  selector.status().message());
    }
    options.label_selector = *selector;
  }
  auto fields = ParseFieldSelector(Param(params, "fieldSelector"));
  if (!fields.ok()) return fields.error();
  options.field_selector = *fields;
  int64_t number = 0;
  std::string limit = Param(params, "limit");
  if (!limit.empty() && !ParseNonNegative(limit, &number)) {
    return ApiError::BadRequest("invalid limit: " + limit);
  }
  options.limit = limit.empty() ? 0 : static_cast<size_t>(number);
  std::string timeout = Param(params, "timeoutSeconds");
  if (!timeout.empty() && !ParseNonNegative(timeout, &number)) {
    return ApiError::BadRequest("invalid timeoutSeconds: " + timeout);
  }
  options.timeout_seconds = timeout.empty() ? 0 : static_cast<int>(number);
  options.resource_version = Param(params, "resourceVersion");
  if (!options.resource_version.empty() &&
      !ParseNonNegative(options.resource_version, &number)) {
    return ApiError::BadRequest("invalid resourceVersion: " +
                                options.resource_version);
  }
  options.continue_token = Param(params, "continue");
  options.watch = ParseFlag(Param(params, "watch"));
  options.allow_bookmarks = ParseFlag(Param(params, "allowWatchBookmarks"));
  options.resource_version_match = Param(params, "resourceVersionMatch");
  if (!options.resource_version_match.empty() &&
      options.resource_version_match != "Exact" &&
      options.resource_version_match != "NotOlderThan") {
    return ApiError::BadRequest("invalid resourceVersionMatch: " +
                                options.resource_version_match);
  }
  if (watch_list == WatchListSupport::kSupported &&
      params.contains("sendInitialEvents")) {
    const std::string send = Param(params, "sendInitialEvents");
    if (send != "true" && send != "false") {
      return ApiError::BadRequest("invalid sendInitialEvents: " + send);
    }
    options.send_initial_events = send == "true";
  }
  if (std::optional<ApiError> error =
          CheckWatchListOptions(options, watch_list)) {
    return *error;
  }
  return options;
}

std::string EncodeContinue(const ContinueToken& token) {
  return HexEncode(std::to_string(token.resource_version) + "\n" +
                   token.last.ns + "\n" + token.last.name);
}

ApiResult<ContinueToken> DecodeContinue(const std::string& text) {
  std::string raw;
  if (!HexDecode(text, &raw)) return BadContinue();
  size_t first = raw.find('\n');
  size_t second = raw.find('\n', first == std::string::npos ? 0 : first + 1);
  if (first == std::string::npos || second == std::string::npos) {
    return BadContinue();
  }
  ContinueToken token;
  if (!ParseNonNegative(raw.substr(0, first), &token.resource_version)) {
    return BadContinue();
  }
  token.last.ns = raw.substr(first + 1, second - first - 1);
  token.last.name = raw.substr(second + 1);
  return token;
}

}  // namespace propscaler::sim
