#include "apiserver/pod_update_validation.h"

#include <vector>

#include "apiserver/json_util.h"

namespace propscaler::sim {
namespace {

// The resources of each container in spec.`list`, in order (null where a
// container has none).
std::vector<const rapidjson::Value*> ResourcesOf(const rapidjson::Value& pod,
                                                 const char* list) {
  std::vector<const rapidjson::Value*> out;
  const rapidjson::Value* containers = Child(Child(&pod, "spec"), list);
  if (containers == nullptr || !containers->IsArray()) return out;
  for (const rapidjson::Value& container : containers->GetArray()) {
    out.push_back(Child(&container, "resources"));
  }
  return out;
}

bool SameResources(const rapidjson::Value* a, const rapidjson::Value* b) {
  static const rapidjson::Value kEmpty(rapidjson::kObjectType);
  return (a != nullptr ? *a : kEmpty) == (b != nullptr ? *b : kEmpty);
}

}  // namespace

std::optional<ApiError> ValidatePodUpdate(const ResourceType& type,
                                          const std::string& name,
                                          const rapidjson::Value& before,
                                          const rapidjson::Value& after) {
  if (type.plural != "pods") return std::nullopt;
  for (const char* list : {"containers", "initContainers"}) {
    const auto was = ResourcesOf(before, list);
    const auto now = ResourcesOf(after, list);
    bool changed = was.size() != now.size();
    for (size_t i = 0; !changed && i < was.size(); ++i) {
      changed = !SameResources(was[i], now[i]);
    }
    if (changed) {
      return ApiError::Invalid(
          "Pod \"" + name +
          "\" is invalid: spec: Forbidden: pod updates may not change fields "
          "other than `spec.containers[*].image`,"
          "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
          "`spec.tolerations` (only additions to existing tolerations),"
          "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if "
          "it was previously negative)");
    }
  }
  return std::nullopt;
}

}  // namespace propscaler::sim
