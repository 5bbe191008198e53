#include "harness/audit_log.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
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

// One rule for `users` (its stages left out, its level, and its verbs
// line, or none), nothing for anyone else.
std::string PolicyYaml(const std::vector<std::string>& users,
                       const char* omit_stages, const char* level,
                       const char* verbs) {
  std::string yaml = std::string(
                         "apiVersion: audit.k8s.io/v1\n"
                         "kind: Policy\n"
                         "omitStages: [") +
                     omit_stages +
                     "]\n"
                     "rules:\n"
                     "  - level: " +
                     level + "\n" + verbs + "    users:\n";
  for (const std::string& user : users) yaml += "      - \"" + user + "\"\n";
  return yaml + "  - level: None\n";
}

}  // namespace

std::string AuditPolicyYaml(const std::vector<std::string>& users) {
  return PolicyYaml(users,
                    "\"ResponseStarted\", \"ResponseComplete\", \"Panic\"",
                    "Metadata", "");
}

std::string WriteAuditPolicyYaml(const std::vector<std::string>& users) {
  return PolicyYaml(
      users, "\"RequestReceived\", \"ResponseStarted\", \"Panic\"",
      "RequestResponse",
      "    verbs: [\"create\", \"update\", \"patch\", \"delete\"]\n");
}

namespace {

// An audit event of `stage`, its verb known and its arrival time read.
struct ParsedEvent {
  rapidjson::Document event;
  std::string verb, path;
  SteadyClock::time_point at;
};

Result<ParsedEvent> ParseEvent(std::string_view line, const char* stage) {
  ParsedEvent parsed;
  parsed.event.Parse(line.data(), line.size());
  if (parsed.event.HasParseError() || !parsed.event.IsObject()) {
    return Status::Invalid("audit log line is not a JSON object: " +
                           std::string(line.substr(0, 200)));
  }
  if (StringMember(parsed.event, "stage") != stage) {
    return Status::NotFound(std::string("not a ") + stage + " event");
  }
  parsed.verb = StringMember(parsed.event, "verb");
  if (!HttpVerbs().contains(parsed.verb)) {
    return Status::Invalid("audit event with unknown verb \"" + parsed.verb +
                           "\"");
  }
  parsed.path = StringMember(parsed.event, "requestURI");
  parsed.path = parsed.path.substr(0, parsed.path.find('?'));
  Result<WallClock::time_point> at =
      ParseMicroTime(StringMember(parsed.event, "requestReceivedTimestamp"));
  if (!at.ok()) return at.status();
  parsed.at = ToSteady(*at);
  return parsed;
}

}  // namespace

Result<sim::LoggedRequest> ParseAuditEvent(std::string_view line) {
  Result<ParsedEvent> parsed = ParseEvent(line, "RequestReceived");
  if (!parsed.ok()) return parsed.status();
  return sim::LoggedRequest{parsed->at,
                            HttpVerbs().at(parsed->verb) + " " + parsed->path};
}

Result<AuditedWrite> ParseAuditedWrite(std::string_view line) {
  Result<ParsedEvent> parsed = ParseEvent(line, "ResponseComplete");
  if (!parsed.ok()) return parsed.status();
  const std::string method = HttpVerbs().at(parsed->verb);
  if (method == "GET" || method == "WATCH") {
    return Status::NotFound("a read, not a write");
  }
  AuditedWrite write{
      .at = parsed->at, .verb = parsed->verb, .path = parsed->path};
  const rapidjson::Value& event = parsed->event;
  if (const auto ref = event.FindMember("objectRef");
      ref != event.MemberEnd() && ref->value.IsObject()) {
    write.resource = StringMember(ref->value, "resource");
    write.subresource = StringMember(ref->value, "subresource");
    write.name = StringMember(ref->value, "name");
  }
  if (const auto response = event.FindMember("responseStatus");
      response != event.MemberEnd() && response->value.IsObject()) {
    const auto code = response->value.FindMember("code");
    if (code != response->value.MemberEnd() && code->value.IsInt()) {
      write.code = code->value.GetInt();
    }
  }
  if (const auto object = parsed->event.FindMember("responseObject");
      object != parsed->event.MemberEnd()) {
    write.object.CopyFrom(object->value, write.object.GetAllocator());
  }
  return write;
}

Result<std::vector<AuditedWrite>> ReadAuditedWrites(const std::string& path) {
  std::ifstream file(path);
  if (!file) return Status::NotFound("no audit log at " + path);
  std::vector<AuditedWrite> writes;
  for (std::string line; std::getline(file, line);) {
    if (file.eof()) break;  // a last line still being written
    Result<AuditedWrite> write = ParseAuditedWrite(line);
    if (write.ok()) {
      writes.push_back(*std::move(write));
    } else if (write.status().code() != StatusCode::kNotFound) {
      return write.status().WithContext(path);
    }
  }
  std::sort(writes.begin(), writes.end(),
            [](const auto& a, const auto& b) { return a.at < b.at; });
  return writes;
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
