// Lists and watch events of pods as replica mode counts them: only each
// pod's namespace, name and phase are read.
#ifndef PROPSCALER_KUBE_WIRE_COUNTED_POD_JSON_H_
#define PROPSCALER_KUBE_WIRE_COUNTED_POD_JSON_H_

#include "kube/model/counted_pod.h"
#include "kube/model/list_watch.h"

namespace propscaler::kube {

ListWatchCodec<CountedPod> CountedPodCodec();

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_COUNTED_POD_JSON_H_
