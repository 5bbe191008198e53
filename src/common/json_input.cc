#include "common/json_input.h"

#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <optional>

namespace propscaler {
namespace {

constexpr size_t kMaxShownValue = 120;
// Params and configs nest a few levels; anything nested deeper is a
// mistake, and RapidJSON's recursive parser and writer would run out of
// stack on a few hundred thousand levels.
constexpr int kMaxNesting = 32;

// The offset where `json` first nests deeper than kMaxNesting, if it does.
std::optional<size_t> TooDeepAt(std::string_view json) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNesting) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

}  // namespace

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) {
      return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

std::string Quote(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string Excerpt(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : text.substr(0, kMaxShownValue)) {
    if (c >= 0x20 && c < 0x7f) {
      out.push_back(static_cast<char>(c));
    } else {
      out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
    }
  }
  return text.size() > kMaxShownValue ? out + "..." : out;
}

std::string ShowJson(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  std::string s(buffer.GetString(), buffer.GetSize());
  if (s.size() > kMaxShownValue) s = s.substr(0, kMaxShownValue) + "...";
  return s;
}

Status FieldError(const std::string& field, const std::string& expected,
                  const rapidjson::Value& got) {
  return Status::Invalid(field + ": expected " + expected + ", got " +
                         ShowJson(got));
}

Status ParseJsonObject(std::string_view json, const std::string& what,
                       rapidjson::Document* doc) {
  if (std::optional<size_t> at = TooDeepAt(json)) {
    return Status::Invalid(what + ": JSON nested deeper than " +
                           std::to_string(kMaxNesting) + " levels at offset " +
                           std::to_string(*at) + " in " + Quote(Excerpt(json)));
  }
  // RapidJSON takes a NUL for the end of the text and would ignore the rest.
  if (const size_t nul = json.find('\0'); nul != std::string::npos) {
    return Status::Invalid(what + ": invalid JSON at offset " +
                           std::to_string(nul) + ": a NUL byte in " +
                           Quote(Excerpt(json)));
  }
  doc->Parse<rapidjson::kParseValidateEncodingFlag>(json.data(), json.size());
  if (doc->HasParseError()) {
    return Status::Invalid(what + ": invalid JSON at offset " +
                           std::to_string(doc->GetErrorOffset()) + ": " +
                           rapidjson::GetParseError_En(doc->GetParseError()) +
                           " in " + Quote(Excerpt(json)));
  }
  if (!doc->IsObject()) {
    return FieldError(what, "a JSON object", *doc);
  }
  return Status::Ok();
}

Status ReadJsonInt(const rapidjson::Value& v, const std::string& field,
                   int64_t* out) {
  if (v.IsNull()) return Status::Ok();
  if (!v.IsInt64()) {
    if (v.IsNumber() && !v.IsDouble()) {
      return FieldError(field, "an integer that fits 64 bits", v);
    }
    return FieldError(field, "an integer", v);
  }
  *out = v.GetInt64();
  return Status::Ok();
}

}  // namespace propscaler
