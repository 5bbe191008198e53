#include "apiserver/label_validation.h"

#include <cctype>
#include <string_view>

namespace propscaler::sim {
namespace {

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)); }

// The real server's message for a bad value; "" for a good one.
std::string ValueProblem(std::string_view value) {
  if (value.size() > 63) return "must be no more than 63 characters";
  bool ok = value.empty() || (IsAlnum(value.front()) && IsAlnum(value.back()));
  for (char c : value) {
    ok = ok && (IsAlnum(c) || c == '-' || c == '_' || c == '.');
  }
  if (ok) return "";
  return "a valid label must be an empty string or consist of alphanumeric "
         "characters, '-', '_' or '.', and must start and end with an "
         "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
         "'12345', regex used for validation is "
         "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
}

}  // namespace

std::optional<ApiError> ValidateLabelValues(const ResourceType& type,
                                            const std::string& name,
                                            const rapidjson::Value& object) {
  auto metadata = object.FindMember("metadata");
  if (metadata == object.MemberEnd() || !metadata->value.IsObject()) {
    return std::nullopt;
  }
  auto labels = metadata->value.FindMember("labels");
  if (labels == metadata->value.MemberEnd() || !labels->value.IsObject()) {
    return std::nullopt;
  }
  for (const auto& label : labels->value.GetObject()) {
    if (!label.value.IsString()) continue;
    const std::string_view value(label.value.GetString(),
                                 label.value.GetStringLength());
    const std::string problem = ValueProblem(value);
    if (problem.empty()) continue;
    const std::string kind =
        type.group.empty() ? type.kind : type.kind + "." + type.group;
    return ApiError::Invalid(kind + " \"" + name +
                             "\" is invalid: metadata.labels: Invalid value: "
                             "\"" +
                             std::string(value) + "\": " + problem);
  }
  return std::nullopt;
}

}  // namespace propscaler::sim
