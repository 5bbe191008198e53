// Reading user-written JSON (params, configs) as Go's encoding/json reads it
// into a struct: member names match ignoring case, the last duplicate wins,
// unknown members are ignored, null keeps the default. Errors name the field
// and show the bad value, shortened. Pure; never throws.
#ifndef PROPSCALER_COMMON_JSON_INPUT_H_
#define PROPSCALER_COMMON_JSON_INPUT_H_

#include <rapidjson/document.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace propscaler {

bool EqualsIgnoreCase(std::string_view a, std::string_view b);

// "\"text\"".
std::string Quote(std::string_view s);

// `text` shortened, with control and non-ASCII bytes as \xNN, so that a
// garbage value still makes one readable log line.
std::string Excerpt(std::string_view text);

// Compact JSON of `value` for error messages, shortened when long.
std::string ShowJson(const rapidjson::Value& value);

// "FIELD: expected EXPECTED, got VALUE".
Status FieldError(const std::string& field, const std::string& expected,
                  const rapidjson::Value& got);

// Parses `json` into `doc`, which must hold an object; `what` names the
// source in errors ("linear"). Deep nesting (beyond 32 levels) and NUL bytes
// are errors, not crashes or silent truncation.
Status ParseJsonObject(std::string_view json, const std::string& what,
                       rapidjson::Document* doc);

// Like Go decoding into an int: only integer literals within range; 1.5,
// 1.0 and 1e2 are errors; null leaves `out` as it is.
Status ReadJsonInt(const rapidjson::Value& v, const std::string& field,
                   int64_t* out);

// Applies `read` to every member whose name matches `name` ignoring case,
// in document order, so the last one wins as in Go.
template <typename Read>
Status ForMemberIgnoringCase(const rapidjson::Value& object,
                             std::string_view name, Read read) {
  for (const auto& m : object.GetObject()) {
    std::string_view key(m.name.GetString(), m.name.GetStringLength());
    if (!EqualsIgnoreCase(key, name)) continue;
    if (Status s = read(m.value); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_JSON_INPUT_H_
