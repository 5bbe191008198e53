// A RapidJSON input stream over chunks that arrive one after another (a
// ChunkPipe's, or one whole body's), so a SAX reader decodes a response as
// it arrives. Binary bodies (protobuf) are read through it too, with
// TakeBytes and SkipBytes.
#ifndef PROPSCALER_KUBE_WIRE_JSON_CHUNK_STREAM_H_
#define PROPSCALER_KUBE_WIRE_JSON_CHUNK_STREAM_H_

#include <rapidjson/rapidjson.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace propscaler::kube {

class JsonChunkStream {
 public:
  typedef char Ch;

  // `next` sets the next chunk (valid until it is called again) and returns
  // true, or returns false at the end.
  explicit JsonChunkStream(std::function<bool(std::string_view*)> next)
      : next_(std::move(next)) {}

  Ch Peek() {
    if (pos_ == chunk_.size() && !Refill()) return '\0';
    return chunk_[pos_];
  }
  Ch Take() {
    const Ch c = Peek();
    if (pos_ < chunk_.size()) {
      ++pos_;
      ++offset_;
    }
    return c;
  }
  size_t Tell() const { return offset_; }
  // No byte is left (Peek's '\0' may be a byte of a binary body).
  bool AtEnd() { return pos_ == chunk_.size() && !Refill(); }

  // Appends the next `n` bytes to `*out`; false (with what there was
  // appended) when the stream ends first.
  bool TakeBytes(size_t n, std::string* out) { return Consume(n, out); }
  // Skips the next `n` bytes; false when the stream ends first.
  bool SkipBytes(size_t n) { return Consume(n, nullptr); }

  // Output is not supported (no in situ parsing).
  Ch* PutBegin() {
    RAPIDJSON_ASSERT(false);
    return nullptr;
  }
  void Put(Ch) { RAPIDJSON_ASSERT(false); }
  void Flush() { RAPIDJSON_ASSERT(false); }
  size_t PutEnd(Ch*) {
    RAPIDJSON_ASSERT(false);
    return 0;
  }

 private:
  // The next `n` bytes, appended to `*out` where set.
  bool Consume(size_t n, std::string* out) {
    while (n > 0) {
      if (pos_ == chunk_.size() && !Refill()) return false;
      const size_t part = std::min(n, chunk_.size() - pos_);
      if (out != nullptr) out->append(chunk_.substr(pos_, part));
      pos_ += part;
      offset_ += part;
      n -= part;
    }
    return true;
  }
  bool Refill() {
    while (!ended_) {
      pos_ = 0;
      if (!next_(&chunk_)) {
        chunk_ = {};
        ended_ = true;
      } else if (!chunk_.empty()) {
        return true;
      }
    }
    return false;
  }

  std::function<bool(std::string_view*)> next_;
  std::string_view chunk_;
  size_t pos_ = 0;
  size_t offset_ = 0;
  bool ended_ = false;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_JSON_CHUNK_STREAM_H_
