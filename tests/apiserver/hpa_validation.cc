#include "apiserver/hpa_validation.h"

namespace propscaler::sim {

std::optional<ApiError> ValidateHpaBounds(const ResourceType& type,
                                          const std::string& name,
                                          const rapidjson::Value& object) {
  if (type.plural != "horizontalpodautoscalers") return std::nullopt;
  auto spec = object.FindMember("spec");
  if (spec == object.MemberEnd() || !spec->value.IsObject()) {
    return std::nullopt;
  }
  auto number = [&](const char* field, int64_t absent) {
    auto member = spec->value.FindMember(field);
    return member != spec->value.MemberEnd() && member->value.IsInt64()
               ? member->value.GetInt64()
               : absent;
  };
  const int64_t min = number("minReplicas", 1);
  const int64_t max = number("maxReplicas", 0);
  std::string cause;
  if (min < 1) {
    cause = "spec.minReplicas: Invalid value: " + std::to_string(min) +
            ": must be greater than or equal to 1";
  } else if (max < min) {
    cause = "spec.maxReplicas: Invalid value: " + std::to_string(max) +
            ": must be greater than or equal to `minReplicas`";
  }
  if (cause.empty()) return std::nullopt;
  return ApiError::Invalid(type.kind + "." + type.group + " \"" + name +
                           "\" is invalid: " + cause);
}

}  // namespace propscaler::sim
