#include "harness/audit_log.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>

namespace propscaler::bench {
namespace {

using SteadyClock = std::chrono::steady_clock;
using WallClock = std::chrono::system_clock;

const std::map<std::string, std::string>& HttpVerbs() {
  static const auto* verbs = new std::map<std::string, std::string>{
      {"get", "GET"},       {"list", "GET"},
      {"watch", "WATCH"},   {"create", "POST"},
      {"update", "PUT"},    {"patch", "PATCH"},
      {"delete", "DELETE"}, {"deletecollection", "DELETE"}};
  return *verbs;
}

// "2026-11-24T12:00:00.123456Z" (MicroTime) on the wall clock.
Result<WallClock::time_point> ParseMicroTime(const std::string& text) {
  std::tm tm{};
  const char* rest = strptime(text.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (rest == nullptr) {
    return Status::Invalid("bad audit timestamp \"" + text + "\"");
  }
  WallClock::time_point at = WallClock::from_time_t(timegm(&tm));
  if (*rest == '.') {
    int64_t micros = 0;
    int digits = 0;
    for (++rest; *rest >= '0' && *rest <= '9'; ++rest, ++digits) {
      if (digits < 6) micros = micros * 10 + (*rest - '0');
    }
    for (; digits < 6; ++digits) micros *= 10;
    at += std::chrono::microseconds(micros);
  }
  return at;
}

SteadyClock::time_point ToSteady(WallClock::time_point wall) {
  return SteadyClock::now() - std::chrono::duration_cast<SteadyClock::duration>(
                                  WallClock::now() - wall);
}

std::string StringMember(const rapidjson::Value& event, const char* name) {
  const auto member = event.FindMember(name);
  if (member == event.MemberEnd() || !member->value.IsString()) return "";
  return member->value.GetString();
}

}  // namespace

std::string AuditPolicyYaml(const std::vector<std::string>& users) {
  std::string yaml =
      "apiVersion: audit.k8s.io/v1\n"
      "kind: Policy\n"
      "omitStages: [\"ResponseStarted\", \"ResponseComplete\", \"Panic\"]\n"
      "rules:\n"
      "  - level: Metadata\n"
      "    users:\n";
  for (const std::string& user : users) yaml += "      - \"" + user + "\"\n";
  return yaml + "  - level: None\n";
}

Result<sim::LoggedRequest> ParseAuditEvent(std::string_view line) {
  rapidjson::Document event;
  event.Parse(line.data(), line.size());
  if (event.HasParseError() || !event.IsObject()) {
    return Status::Invalid("audit log line is not a JSON object: " +
                           std::string(line.substr(0, 200)));
  }
  if (StringMember(event, "stage") != "RequestReceived") {
    return Status::NotFound("not a request's arrival");
  }
  const std::string verb = StringMember(event, "verb");
  const auto http = HttpVerbs().find(verb);
  if (http == HttpVerbs().end()) {
    return Status::Invalid("audit event with unknown verb \"" + verb + "\"");
  }
  std::string path = StringMember(event, "requestURI");
  path = path.substr(0, path.find('?'));
  Result<WallClock::time_point> at =
      ParseMicroTime(StringMember(event, "requestReceivedTimestamp"));
  if (!at.ok()) return at.status();
  return sim::LoggedRequest{ToSteady(*at), http->second + " " + path};
}

Status AuditLog::ReadNewLines() {
  FILE* file = std::fopen(path_.c_str(), "r");
  if (file == nullptr) return Status::Ok();  // nothing logged yet
  std::fseek(file, offset_, SEEK_SET);
  std::string line;
  for (int c; (c = std::fgetc(file)) != EOF;) {
    if (c != '\n') {
      line.push_back(static_cast<char>(c));
      continue;
    }
    offset_ += static_cast<long>(line.size()) + 1;
    Result<sim::LoggedRequest> request = ParseAuditEvent(line);
    line.clear();
    if (request.ok()) {
      requests_.push_back(*std::move(request));
    } else if (request.status().code() != StatusCode::kNotFound) {
      std::fclose(file);
      return request.status().WithContext(path_);
    }
  }
  std::fclose(file);  // a partial last line is read again next time
  return Status::Ok();
}

Result<std::vector<sim::LoggedRequest>> AuditLog::Since(
    SteadyClock::time_point since) {
  if (Status status = ReadNewLines(); !status.ok()) return status;
  // The server logs in arrival order, give or take a few microseconds.
  std::vector<sim::LoggedRequest> requests;
  for (const sim::LoggedRequest& request : requests_) {
    if (request.at >= since) requests.push_back(request);
  }
  std::sort(requests.begin(), requests.end(),
            [](const auto& a, const auto& b) { return a.at < b.at; });
  return requests;
}

}  // namespace propscaler::bench
