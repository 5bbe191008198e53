// Field decoders for Kubernetes objects already parsed with rapidjson: each
// reads one member and returns an error whose message starts with the field
// path ("items[2].spec.nodeName: want a string, got 7"). A missing or null
// member is its type's empty value. Used by every object decoder of kube/.
#ifndef PROPSCALER_KUBE_WIRE_JSON_FIELDS_H_
#define PROPSCALER_KUBE_WIRE_JSON_FIELDS_H_

#include <rapidjson/document.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "kube/model/node_scale_objects.h"
#include "kube/model/resources.h"

// Every decoder below returns an error whose message starts with the field
// path; this keeps the early returns short.
#define PS_CONCAT_INNER(a, b) a##b
#define PS_CONCAT(a, b) PS_CONCAT_INNER(a, b)
#define PS_ASSIGN_OR_RETURN(lhs, expr) \
  PS_ASSIGN_OR_RETURN_IMPL(PS_CONCAT(result_, __LINE__), lhs, expr)
#define PS_ASSIGN_OR_RETURN_IMPL(result, lhs, expr) \
  auto result = (expr);                             \
  if (!result.ok()) return result.status();         \
  lhs = std::move(result).value()

namespace propscaler::kube::json {

using rapidjson::Value;

// At most 60 characters of `value` as JSON, for error messages.
std::string Snippet(const Value& value);
Status WrongType(const std::string& path, const char* want, const Value& got);
// "path.name", or "name" at the top.
std::string Join(const std::string& path, const char* name);
std::string Index(const std::string& path, size_t i);  // "path[i]"
// The member, or null when it is missing or null.
const Value* Member(const Value& object, const char* name);
Result<rapidjson::Document> ParseObject(std::string_view text);

Result<std::string> StringAt(const Value& object, const char* name,
                             const std::string& path);
// A non-negative integer; 0 when missing.
Result<int64_t> IntegerAt(const Value& object, const char* name,
                          const std::string& path);
// Null when missing.
Result<const Value*> ArrayAt(const Value& object, const char* name,
                             const std::string& path);
Result<const Value*> ObjectAt(const Value& object, const char* name,
                              const std::string& path);
Result<Labels> StringMapAt(const Value& object, const char* name,
                           const std::string& path);
Result<std::vector<std::string>> StringsAt(const Value& object,
                                           const char* name,
                                           const std::string& path);
// A resource list: {"cpu":"500m","memory":"1Gi",...}.
Result<Resources> ResourcesAt(const Value& object, const char* name,
                              const std::string& path);

}  // namespace propscaler::kube::json

#endif  // PROPSCALER_KUBE_WIRE_JSON_FIELDS_H_
