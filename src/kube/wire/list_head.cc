#include "kube/wire/list_head.h"

#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

namespace propscaler::kube {
namespace {

// Stops the parse at the top-level "items" key (or at the end of the
// top-level metadata object, once its continue token is known).
class HeadHandler
    : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, HeadHandler> {
 public:
  bool Default() { return true; }
  bool String(const char* text, rapidjson::SizeType length, bool) {
    if (depth_ == 2 && in_metadata_ && key_ == "continue") {
      token_.assign(text, length);
    }
    return true;
  }
  bool Key(const char* text, rapidjson::SizeType length, bool) {
    key_.assign(text, length);
    if (depth_ == 1 && key_ == "items") return false;  // stop: items next
    return true;
  }
  bool StartObject() {
    ++depth_;
    if (depth_ == 2 && key_ == "metadata") in_metadata_ = true;
    return true;
  }
  bool EndObject(rapidjson::SizeType) {
    if (depth_ == 2 && in_metadata_) {
      metadata_done_ = true;
      return false;  // stop: the metadata is all we need
    }
    --depth_;
    return true;
  }
  bool StartArray() {
    ++depth_;
    return true;
  }
  bool EndArray(rapidjson::SizeType) {
    --depth_;
    return true;
  }

  bool metadata_done() const { return metadata_done_; }
  const std::string& token() const { return token_; }

 private:
  int depth_ = 0;
  bool in_metadata_ = false;
  bool metadata_done_ = false;
  std::string key_;
  std::string token_;
};

}  // namespace

std::optional<std::string> PeekContinueToken(std::string_view body) {
  rapidjson::MemoryStream stream(body.data(), body.size());
  rapidjson::Reader reader;
  HeadHandler handler;
  reader.Parse<rapidjson::kParseStopWhenDoneFlag>(stream, handler);
  if (!handler.metadata_done()) return std::nullopt;
  return handler.token();
}

}  // namespace propscaler::kube
