// The JSON of a core/v1 Event (part of the encode/decode layer: the only
// code that knows RapidJSON and API field names).
#ifndef PROPSCALER_KUBE_WIRE_EVENT_JSON_H_
#define PROPSCALER_KUBE_WIRE_EVENT_JSON_H_

#include <chrono>
#include <string>

#include "kube/model/event.h"

namespace propscaler::kube {

std::string EncodeEventJson(const EventInfo& event, const std::string& ns,
                            const std::string& component,
                            std::chrono::system_clock::time_point now);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_EVENT_JSON_H_
