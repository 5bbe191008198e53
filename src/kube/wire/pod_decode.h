// Pods, Nodes and PodDisruptionBudgets for node-scale mode: list pages and
// watch events decoded straight into the compact LivePod / LiveNode
// (snapshot state plus the scheduling condition and creation time) and
// PdbState, for Reflector<T>.
#ifndef PROPSCALER_KUBE_WIRE_POD_DECODE_H_
#define PROPSCALER_KUBE_WIRE_POD_DECODE_H_

#include <string_view>

#include "common/status.h"
#include "kube/model/list_watch.h"
#include "kube/model/live_objects.h"
#include "kube/model/objects.h"
#include "kube/wire/object_json.h"

namespace propscaler::kube {

Result<ListPage<LivePod>> DecodeLivePodList(std::string_view body);
Result<WatchEvent<LivePod>> DecodeLivePodWatchEvent(std::string_view line);

Result<ListPage<LiveNode>> DecodeLiveNodeList(std::string_view body);
Result<WatchEvent<LiveNode>> DecodeLiveNodeWatchEvent(std::string_view line);

ListWatchCodec<LivePod> LivePodCodec();
ListWatchCodec<LiveNode> LiveNodeCodec();
ListWatchCodec<PdbState> PdbCodec(PdbVersion version);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_POD_DECODE_H_
