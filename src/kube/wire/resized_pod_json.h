// The JSON of the pods in-place resize reads (kube/model/resized_pod.h):
// one pod, and lists and watch events of them.
#ifndef PROPSCALER_KUBE_WIRE_RESIZED_POD_JSON_H_
#define PROPSCALER_KUBE_WIRE_RESIZED_POD_JSON_H_

#include <string_view>

#include "common/status.h"
#include "kube/model/list_watch.h"
#include "kube/model/resized_pod.h"

namespace propscaler::kube {

Result<ResizedPod> DecodeResizedPod(std::string_view body);
ListWatchCodec<ResizedPod> ResizedPodCodec();

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_RESIZED_POD_JSON_H_
