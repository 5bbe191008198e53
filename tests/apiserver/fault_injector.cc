#include "apiserver/fault_injector.h"

#include <rapidjson/document.h>

#include "apiserver/json_util.h"

namespace propscaler::sim {
namespace {

bool MethodMatches(const std::string& rule, const std::string& method,
                   bool watch) {
  if (rule.empty()) return true;
  if (rule == "WATCH") return watch;
  return rule == method;
}

int IntMember(const rapidjson::Value& object, const char* key, int fallback) {
  auto it = object.FindMember(key);
  if (it == object.MemberEnd() || !it->value.IsInt()) return fallback;
  return it->value.GetInt();
}

}  // namespace

ApiResult<FaultRule> FaultRule::FromJson(const std::string& json) {
  rapidjson::Document doc;
  std::string error;
  if (!ParseJsonObject(json, &doc, &error)) {
    return ApiError::BadRequest("fault rule: " + error);
  }
  FaultRule rule;
  rule.method = GetString(doc, "method");
  rule.path_prefix = GetString(doc, "pathPrefix");
  rule.code = IntMember(doc, "code", rule.code);
  rule.count = IntMember(doc, "count", rule.count);
  rule.delay = std::chrono::milliseconds(IntMember(doc, "delayMs", 0));
  rule.skip = IntMember(doc, "skip", 0);
  int retry_after = IntMember(doc, "retryAfterSeconds", -1);
  if (retry_after >= 0) rule.retry_after_seconds = retry_after;
  int cut_after = IntMember(doc, "cutAfterBytes", -1);
  if (cut_after >= 0) rule.cut_after_bytes = cut_after;
  rule.answer_delay =
      std::chrono::milliseconds(IntMember(doc, "answerDelayMs", 0));
  if (rule.code != 0 && (rule.code < 400 || rule.code > 599)) {
    return ApiError::BadRequest("fault rule: code must be 0 or 400..599");
  }
  return rule;
}

std::string FaultRule::ToJson() const {
  std::string json = "{\"method\":" + QuoteJson(method) +
                     ",\"pathPrefix\":" + QuoteJson(path_prefix) +
                     ",\"code\":" + std::to_string(code) +
                     ",\"count\":" + std::to_string(count) +
                     ",\"delayMs\":" + std::to_string(delay.count()) +
                     ",\"skip\":" + std::to_string(skip);
  if (retry_after_seconds) {
    json += ",\"retryAfterSeconds\":" + std::to_string(*retry_after_seconds);
  }
  if (cut_after_bytes) {
    json += ",\"cutAfterBytes\":" + std::to_string(*cut_after_bytes);
  }
  if (answer_delay.count() > 0) {
    json += ",\"answerDelayMs\":" + std::to_string(answer_delay.count());
  }
  return json + "}";
}

void FaultInjector::Add(FaultRule rule) {
  if (rule.count == 0) return;
  std::lock_guard<std::mutex> lock(mu_);
  rules_.push_back(std::move(rule));
}

void FaultInjector::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  rules_.clear();
}

std::vector<FaultRule> FaultInjector::Rules() const {
  std::lock_guard<std::mutex> lock(mu_);
  return rules_;
}

std::optional<Fault> FaultInjector::Take(const std::string& method,
                                         const std::string& path, bool watch) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = rules_.begin(); it != rules_.end(); ++it) {
    if (!MethodMatches(it->method, method, watch)) continue;
    if (path.rfind(it->path_prefix, 0) != 0) continue;
    if (it->skip > 0) {
      --it->skip;
      return std::nullopt;
    }
    Fault fault;
    fault.delay = it->delay;
    fault.retry_after_seconds = it->retry_after_seconds;
    fault.cut_after_bytes = it->cut_after_bytes;
    fault.answer_delay = it->answer_delay;
    if (it->code != 0) {
      fault.error = ApiError::ForCode(
          it->code, "injected fault for " + method + " " + path);
    }
    if (it->count > 0 && --it->count == 0) rules_.erase(it);
    return fault;
  }
  return std::nullopt;
}

}  // namespace propscaler::sim
