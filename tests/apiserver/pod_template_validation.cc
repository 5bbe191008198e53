#include "apiserver/pod_template_validation.h"

#include <vector>

#include "apiserver/json_util.h"
#include "common/quantity.h"

namespace propscaler::sim {
namespace {

std::string StringOf(const rapidjson::Value* value) {
  return value != nullptr && value->IsString()
             ? std::string(value->GetString(), value->GetStringLength())
             : "";
}

// The first "resources.requests" entry above its limit, as the server
// words it, or empty.
std::string RequestAboveLimit(const rapidjson::Value& container,
                              const std::string& field) {
  const rapidjson::Value* resources = Child(&container, "resources");
  const rapidjson::Value* requests = Child(resources, "requests");
  const rapidjson::Value* limits = Child(resources, "limits");
  if (requests == nullptr || limits == nullptr || !requests->IsObject()) {
    return "";
  }
  for (const auto& request : requests->GetObject()) {
    const std::string limit_text =
        StringOf(Child(limits, request.name.GetString()));
    const std::string request_text = StringOf(&request.value);
    if (limit_text.empty() || request_text.empty()) continue;
    Result<int64_t> wanted = ParseMilliQuantity(request_text);
    Result<int64_t> limit = ParseMilliQuantity(limit_text);
    if (wanted.ok() && limit.ok() && *wanted > *limit) {
      return field + ".resources.requests: Invalid value: \"" + request_text +
             "\": must be less than or equal to " + request.name.GetString() +
             " limit";
    }
  }
  return "";
}

}  // namespace

std::optional<ApiError> ValidatePodTemplate(const ResourceType& type,
                                            const std::string& name,
                                            const rapidjson::Value& object) {
  const rapidjson::Value* containers = Child(
      Child(Child(Child(&object, "spec"), "template"), "spec"), "containers");
  if (containers == nullptr || !containers->IsArray()) return std::nullopt;
  std::vector<std::string> causes;
  for (rapidjson::SizeType i = 0; i < containers->Size(); ++i) {
    const rapidjson::Value& container = (*containers)[i];
    const std::string field =
        "spec.template.spec.containers[" + std::to_string(i) + "]";
    if (StringOf(Child(&container, "name")).empty()) {
      causes.push_back(field + ".name: Required value");
    }
    if (StringOf(Child(&container, "image")).empty()) {
      causes.push_back(field + ".image: Required value");
    }
    if (std::string cause = RequestAboveLimit(container, field);
        !cause.empty()) {
      causes.push_back(cause);
    }
  }
  if (causes.empty()) return std::nullopt;
  std::string message;
  for (const std::string& cause : causes) {
    message += (message.empty() ? "" : ", ") + cause;
  }
  if (causes.size() > 1) message = "[" + message + "]";
  return ApiError::Invalid(type.kind + "." + type.group + " \"" + name +
                           "\" is invalid: " + message);
}

}  // namespace propscaler::sim
