#include "kube/wire/event_json.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdio>

#include "common/utc_time.h"

namespace propscaler::kube {
namespace {

std::string Rfc3339(std::chrono::system_clock::time_point now) {
  return FormatUtc(now, "%Y-%m-%dT%H:%M:%SZ");
}

// Unique enough per object: the object's name and the time in hex, as
// client-go names Events.
std::string EventName(const std::string& object_name,
                      std::chrono::system_clock::time_point now) {
  char suffix[24];
  std::snprintf(suffix, sizeof(suffix), ".%llx",
                static_cast<unsigned long long>(
                    std::chrono::duration_cast<std::chrono::nanoseconds>(
                        now.time_since_epoch())
                        .count()));
  return object_name + suffix;
}

}  // namespace

std::string EncodeEventJson(const EventInfo& event, const std::string& ns,
                            const std::string& component,
                            std::chrono::system_clock::time_point now) {
  using rapidjson::Value;
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  auto str = [&alloc](const std::string& text) { return Value(text, alloc); };
  doc.AddMember("apiVersion", "v1", alloc);
  doc.AddMember("kind", "Event", alloc);
  Value metadata(rapidjson::kObjectType);
  metadata.AddMember("name", str(EventName(event.object.name, now)), alloc);
  metadata.AddMember("namespace", str(ns), alloc);
  doc.AddMember("metadata", metadata, alloc);
  Value involved(rapidjson::kObjectType);
  involved.AddMember("apiVersion", str(event.object.api_version), alloc);
  involved.AddMember("kind", str(event.object.kind), alloc);
  if (!event.object.namespace_.empty()) {
    involved.AddMember("namespace", str(event.object.namespace_), alloc);
  }
  involved.AddMember("name", str(event.object.name), alloc);
  if (!event.object.uid.empty()) {
    involved.AddMember("uid", str(event.object.uid), alloc);
  }
  doc.AddMember("involvedObject", involved, alloc);
  doc.AddMember("reason", str(event.reason), alloc);
  doc.AddMember("message", str(event.message), alloc);
  doc.AddMember("type", str(event.warning ? "Warning" : "Normal"), alloc);
  Value source(rapidjson::kObjectType);
  source.AddMember("component", str(component), alloc);
  doc.AddMember("source", source, alloc);
  doc.AddMember("reportingComponent", str(component), alloc);
  doc.AddMember("firstTimestamp", str(Rfc3339(now)), alloc);
  doc.AddMember("lastTimestamp", str(Rfc3339(now)), alloc);
  doc.AddMember("count", 1, alloc);
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  doc.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string EventNamespace(const ObjectRef& object) {
  return object.namespace_.empty() ? "default" : object.namespace_;
}

}  // namespace propscaler::kube
