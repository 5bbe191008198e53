#include "kube/json_list_watch.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include "kube/decode.h"

namespace propscaler::kube {
namespace {

// OK, or why `what` is not a JSON object.
Status ObjectParseStatus(const char* what, rapidjson::ParseResult parsed,
                         bool is_object) {
  if (parsed.IsError()) {
    return Status::Internal(std::string(what) + ": invalid JSON at offset " +
                            std::to_string(parsed.Offset()) + ": " +
                            rapidjson::GetParseError_En(parsed.Code()));
  }
  if (!is_object) {
    return Status::Internal(std::string(what) + ": not a JSON object");
  }
  return Status::Ok();
}

}  // namespace

Result<rapidjson::Document> ParseJsonObject(std::string_view text,
                                            const char* what) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  Status status = ObjectParseStatus(
      what, rapidjson::ParseResult(doc.GetParseError(), doc.GetErrorOffset()),
      !doc.HasParseError() && doc.IsObject());
  if (!status.ok()) return status;
  return doc;
}

std::string JsonString(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return "";
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return "";
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

Result<WatchEnvelope> ParseWatchEnvelope(const rapidjson::Document& doc) {
  Result<WatchEventType> type = ParseWatchEventType(JsonString(doc, "type"));
  if (!type.ok()) return type.status();
  WatchEnvelope envelope;
  envelope.type = *type;
  auto object = doc.FindMember("object");
  if (object == doc.MemberEnd() || !object->value.IsObject()) {
    return Status::Internal("watch event without object");
  }
  const rapidjson::Value& value = object->value;
  if (envelope.type == WatchEventType::kError) {
    auto code = value.FindMember("code");
    envelope.error_code = code != value.MemberEnd() && code->value.IsInt()
                              ? code->value.GetInt()
                              : 0;
    envelope.error_message = JsonString(value, "message");
    return envelope;
  }
  if (value.HasMember("metadata")) {
    const rapidjson::Value& metadata = value["metadata"];
    envelope.resource_version = JsonString(metadata, "resourceVersion");
    if (envelope.type == WatchEventType::kBookmark &&
        metadata.HasMember("annotations")) {
      envelope.initial_events_end =
          JsonString(metadata["annotations"], "k8s.io/initial-events-end") ==
          "true";
    }
  }
  envelope.object = &value;
  return envelope;
}

namespace {

// Follows a list's top level as RapidJSON reads it: the metadata's two
// strings, and where each element of "items" starts and ends in the text.
class ListScanner
    : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, ListScanner> {
 public:
  ListScanner(const rapidjson::MemoryStream* stream, JsonListScan* out,
              const JsonItemVisitor* visit)
      : stream_(stream), out_(out), visit_(visit) {}

  bool Default() { return Scalar(); }
  bool String(const char* text, rapidjson::SizeType length, bool) {
    if (depth_ == 2 && in_metadata_) {
      if (key_ == "resourceVersion")
        out_->resource_version.assign(text, length);
      if (key_ == "continue") out_->continue_token.assign(text, length);
    }
    return Scalar();
  }
  bool Key(const char* text, rapidjson::SizeType length, bool) {
    if (depth_ <= 2) key_.assign(text, length);
    return true;
  }
  bool StartObject() { return Start(); }
  bool StartArray() { return Start(); }
  bool EndObject(rapidjson::SizeType) { return End(); }
  bool EndArray(rapidjson::SizeType) { return End(); }

  bool root_is_object() const { return root_is_object_; }

 private:
  // The position just past the character RapidJSON last took.
  size_t Position() const { return stream_->Tell(); }
  char Last() const { return stream_->src_[-1]; }

  bool Start() {
    if (depth_ == 0) root_is_object_ = Last() == '{';
    if (depth_ == 1) {
      in_metadata_ = key_ == "metadata";
      in_items_ = key_ == "items" && Last() == '[';
    }
    if (depth_ == 2 && in_items_) item_start_ = Position() - 1;
    ++depth_;
    return true;
  }
  bool End() {
    --depth_;
    if (depth_ == 2 && in_items_) {
      (*visit_)(std::string_view(stream_->begin_ + item_start_,
                                 Position() - item_start_),
                items_++);
    }
    if (depth_ == 1) in_metadata_ = in_items_ = false;
    return true;
  }
  // A number, string, bool or null: as an element of "items", not an
  // object (reported as an empty text).
  bool Scalar() {
    if (depth_ == 2 && in_items_) (*visit_)(std::string_view(), items_++);
    return true;
  }

  const rapidjson::MemoryStream* stream_;
  JsonListScan* out_;
  const JsonItemVisitor* visit_;
  int depth_ = 0;
  std::string key_;
  bool in_metadata_ = false;
  bool in_items_ = false;
  bool root_is_object_ = false;
  size_t item_start_ = 0;
  size_t items_ = 0;
};

}  // namespace

Status ScanJsonList(std::string_view body, const char* what, JsonListScan* out,
                    const JsonItemVisitor& visit) {
  rapidjson::MemoryStream stream(body.data(), body.size());
  ListScanner scanner(&stream, out, &visit);
  rapidjson::Reader reader;
  const rapidjson::ParseResult parsed = reader.Parse(stream, scanner);
  return ObjectParseStatus(what, parsed, scanner.root_is_object());
}

}  // namespace propscaler::kube
