#include "nodescale/expander/priority_config_yaml.h"

#include <yaml-cpp/yaml.h>

#include <charconv>

namespace propscaler::nodescale {
namespace {

Result<int> ParsePriority(const YAML::Node& key) {
  const std::string text = key.IsScalar() ? key.Scalar() : "";
  int value = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (!text.empty() && error == std::errc() &&
      end == text.data() + text.size()) {
    return value;
  }
  return Status::Invalid("priority \"" + text + "\" is not an integer");
}

Result<std::vector<std::string>> ParsePatterns(int priority,
                                               const YAML::Node& value) {
  const std::string where = "priority " + std::to_string(priority);
  if (value.IsScalar()) return std::vector<std::string>{value.Scalar()};
  if (!value.IsSequence()) {
    return Status::Invalid(where + ": want a list of regexes");
  }
  std::vector<std::string> patterns;
  for (const YAML::Node& item : value) {
    if (!item.IsScalar()) {
      return Status::Invalid(where + ": each regex must be a string");
    }
    patterns.push_back(item.Scalar());
  }
  return patterns;
}

}  // namespace

Result<std::map<int, std::vector<std::string>>> ParsePriorityExpanderYaml(
    std::string_view text) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    return Status::Invalid(std::string("not YAML: ") + e.what());
  }
  if (!root.IsMap()) {
    return Status::Invalid("want a mapping of priority to regexes");
  }
  std::map<int, std::vector<std::string>> result;
  for (const auto& entry : root) {
    Result<int> priority = ParsePriority(entry.first);
    if (!priority.ok()) return priority.status();
    Result<std::vector<std::string>> patterns =
        ParsePatterns(*priority, entry.second);
    if (!patterns.ok()) return patterns.status();
    std::vector<std::string>& all = result[*priority];
    all.insert(all.end(), patterns->begin(), patterns->end());
  }
  return result;
}

}  // namespace propscaler::nodescale
