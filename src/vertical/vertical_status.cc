#include "vertical/vertical_status.h"

#include "common/quantity.h"

namespace propscaler {
namespace {

bool InBytes(const std::string& resource) {
  return resource == "memory" || resource == "ephemeral-storage" ||
         resource == "storage";
}

}  // namespace

std::string ResourceSeries(const std::string& container,
                           const std::string& side,
                           const std::string& resource) {
  return container + " " + side + "." + resource;
}

const char* ResourceChartUnit(const std::string& resource) {
  if (resource == "cpu") return "millicores";
  return InBytes(resource) ? "MiB" : "units";
}

int64_t ResourceChartValue(const std::string& resource, int64_t millis) {
  if (resource == "cpu") return millis;
  constexpr int64_t kMiB = 1024 * 1024;
  return InBytes(resource) ? millis / 1000 / kMiB : millis / 1000;
}

void RecordResources(const std::vector<kube::ContainerResources>& containers,
                     TimePoint time, History* history) {
  for (const kube::ContainerResources& container : containers) {
    for (const auto& [side, list] :
         {std::pair<const char*, const kube::ResourceList*>{
              "requests", &container.requests},
          {"limits", &container.limits}}) {
      for (const auto& [resource, text] : *list) {
        Result<int64_t> millis = ParseMilliQuantity(text);
        if (!millis.ok()) continue;
        history->Record(ResourceSeries(container.name, side, resource), time,
                        ResourceChartValue(resource, *millis));
      }
    }
  }
}

}  // namespace propscaler
