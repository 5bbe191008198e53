// The JSON of the workloads vertical mode sizes: their pod template's
// containers read, and the strategic merge patch of their resources.
#ifndef PROPSCALER_KUBE_WIRE_POD_TEMPLATE_JSON_H_
#define PROPSCALER_KUBE_WIRE_POD_TEMPLATE_JSON_H_

#include <rapidjson/document.h>

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "kube/model/list_watch.h"
#include "kube/model/pod_template.h"

namespace propscaler::kube {

Result<PodTemplateWorkload> DecodePodTemplateWorkload(std::string_view body);
// Lists and watch events of workloads read so.
ListWatchCodec<PodTemplateWorkload> PodTemplateCodec();
// Each container's name and resources, of a containers array.
std::vector<ContainerResources> ContainerResourcesOf(
    const rapidjson::Value& containers);
// An empty `resource_version` makes the patch unconditional.
std::string EncodeContainerResourcesPatch(
    const std::string& resource_version,
    const std::vector<ContainerResourcesEdit>& edits);
// The same edits as a strategic merge patch of a pod, for its pods/resize
// subresource.
std::string EncodePodResizePatch(
    const std::string& resource_version,
    const std::vector<ContainerResourcesEdit>& edits);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_POD_TEMPLATE_JSON_H_
