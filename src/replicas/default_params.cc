#include "replicas/default_params.h"

#include <cstdint>
#include <cstdio>

namespace propscaler {

std::string HashConfigMapData(const ConfigMapData& data) {
  uint64_t hash = 14695981039346656037ull;
  auto mix = [&hash](const std::string& text) {
    for (unsigned char c : text) {
      hash ^= c;
      hash *= 1099511628211ull;
    }
    hash ^= 0xff;  // separator: ("ab","c") differs from ("a","bc")
    hash *= 1099511628211ull;
  };
  for (const auto& [key, value] : data) {
    mix(key);
    mix(value);
  }
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx",
                static_cast<unsigned long long>(hash));
  return text;
}

DefaultParamsAction DecideDefaultParams(
    const std::optional<ConfigMapContent>& current,
    const ConfigMapData& defaults) {
  if (!current.has_value()) return DefaultParamsAction::kCreate;
  if (current->data == defaults) return DefaultParamsAction::kNone;
  const bool unedited =
      current->written_hash.has_value() &&
      *current->written_hash == HashConfigMapData(current->data);
  return unedited ? DefaultParamsAction::kUpdate
                  : DefaultParamsAction::kKeepEdited;
}

}  // namespace propscaler
