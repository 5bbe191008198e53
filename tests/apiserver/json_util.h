// Small RapidJSON helpers for Kubernetes objects: parsing with an error
// message, compact serialization, and metadata access.
#ifndef PROPSCALER_TESTS_APISERVER_JSON_UTIL_H_
#define PROPSCALER_TESTS_APISERVER_JSON_UTIL_H_

#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "common/clock.h"
#include "common/label_selector.h"

namespace propscaler::sim {

using JsonAllocator = rapidjson::Document::AllocatorType;

// Parses `text` into `doc`; false with a message in `error` when the text
// is not JSON or not a JSON object.
bool ParseJsonObject(std::string_view text, rapidjson::Document* doc,
                     std::string* error);

// Compact JSON of `value`.
std::string ToJson(const rapidjson::Value& value);

// `value` as a JSON string literal, quotes included.
std::string QuoteJson(std::string_view value);

// The string member `key` of `object`, or "" when absent or not a string.
std::string GetString(const rapidjson::Value& object, const char* key);

// Sets member `key` of `object` (which must be an object) to a string,
// replacing any previous value.
void SetString(rapidjson::Value& object, const char* key,
               std::string_view value, JsonAllocator& alloc);

// The object member `key` of `object`, created (or replaced when it is not
// an object) as needed.
rapidjson::Value& EnsureObject(rapidjson::Value& object, const char* key,
                               JsonAllocator& alloc);

// Member `key` of `object`; null when `object` is null or not an object,
// or has no such member.
const rapidjson::Value* Child(const rapidjson::Value* object, const char* key);

// metadata of an object; a static empty object when absent.
const rapidjson::Value& Metadata(const rapidjson::Value& object);

// A time as a Kubernetes timestamp ("2024-01-02T03:04:05Z").
std::string Rfc3339(TimePoint time);

// metadata.labels as a map (non-string values are skipped).
Labels GetLabels(const rapidjson::Value& object);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_JSON_UTIL_H_
