// Lists and watch events of objects kept as their JSON (model/raw_object.h):
// only metadata's namespace, name and resourceVersion are read.
#ifndef PROPSCALER_KUBE_WIRE_RAW_OBJECT_JSON_H_
#define PROPSCALER_KUBE_WIRE_RAW_OBJECT_JSON_H_

#include "kube/model/list_watch.h"
#include "kube/model/raw_object.h"

namespace propscaler::kube {

ListWatchCodec<RawObject> RawObjectCodec();

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_RAW_OBJECT_JSON_H_
