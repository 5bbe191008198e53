#include "kube/wire/json_list_watch.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "kube/wire/decode.h"

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

std::string JsonText(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
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

// The body in memory: an item's text is a slice of it.
class SlicingStream : public rapidjson::MemoryStream {
 public:
  explicit SlicingStream(std::string_view body)
      : MemoryStream(body.data(), body.size()) {}
  char Last() const { return src_[-1]; }
  // The item starts with the character just taken.
  void StartItem() { item_start_ = Tell() - 1; }
  std::string_view ItemText() const {
    return {begin_ + item_start_, Tell() - item_start_};
  }

 private:
  size_t item_start_ = 0;
};

// A body as it arrives: an item's text is copied while it is read, one item
// at a time, and nothing else of the body is kept.
class RecordingStream {
 public:
  typedef char Ch;
  explicit RecordingStream(JsonChunkStream* in) : in_(in) {}

  Ch Peek() { return in_->Peek(); }
  Ch Take() {
    last_ = in_->Take();
    if (recording_) text_.push_back(last_);
    return last_;
  }
  size_t Tell() const { return in_->Tell(); }
  Ch* PutBegin() { return in_->PutBegin(); }
  void Put(Ch c) { in_->Put(c); }
  void Flush() { in_->Flush(); }
  size_t PutEnd(Ch* begin) { return in_->PutEnd(begin); }

  char Last() const { return last_; }
  void StartItem() {
    text_.assign(1, last_);
    recording_ = true;
  }
  std::string_view ItemText() {
    recording_ = false;
    return text_;
  }

 private:
  JsonChunkStream* in_;
  char last_ = '\0';
  bool recording_ = false;
  std::string text_;
};

// Follows a list's top level as RapidJSON reads it: the metadata's two
// strings, and each element of "items" as text, from `Stream`.
template <typename Stream>
class ListScanner : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>,
                                                        ListScanner<Stream>> {
 public:
  ListScanner(Stream* stream, JsonListScan* out, const JsonItemVisitor* visit)
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
  bool Start() {
    if (depth_ == 0) root_is_object_ = stream_->Last() == '{';
    if (depth_ == 1) {
      in_metadata_ = key_ == "metadata";
      in_items_ = key_ == "items" && stream_->Last() == '[';
    }
    if (depth_ == 2 && in_items_) stream_->StartItem();
    ++depth_;
    return true;
  }
  bool End() {
    --depth_;
    if (depth_ == 2 && in_items_) (*visit_)(stream_->ItemText(), items_++);
    if (depth_ == 1) in_metadata_ = in_items_ = false;
    return true;
  }
  // A number, string, bool or null: as an element of "items", not an
  // object (reported as an empty text).
  bool Scalar() {
    if (depth_ == 2 && in_items_) (*visit_)(std::string_view(), items_++);
    return true;
  }

  Stream* stream_;
  JsonListScan* out_;
  const JsonItemVisitor* visit_;
  int depth_ = 0;
  std::string key_;
  bool in_metadata_ = false;
  bool in_items_ = false;
  bool root_is_object_ = false;
  size_t items_ = 0;
};

template <typename Stream>
Status Scan(Stream* stream, const char* what, JsonListScan* out,
            const JsonItemVisitor& visit) {
  ListScanner<Stream> scanner(stream, out, &visit);
  rapidjson::Reader reader;
  const rapidjson::ParseResult parsed = reader.Parse(*stream, scanner);
  return ObjectParseStatus(what, parsed, scanner.root_is_object());
}

}  // namespace

Status ScanJsonList(std::string_view body, const char* what, JsonListScan* out,
                    const JsonItemVisitor& visit) {
  SlicingStream stream(body);
  return Scan(&stream, what, out, visit);
}

Status ScanJsonListStream(JsonChunkStream* body, const char* what,
                          JsonListScan* out, const JsonItemVisitor& visit) {
  RecordingStream stream(body);
  return Scan(&stream, what, out, visit);
}

}  // namespace propscaler::kube
