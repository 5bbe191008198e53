// The runtime's templates for every object type the modes watch, compiled
// here once so that clang's thread-safety analysis (which looks at a
// template only where it is instantiated) checks them in the runtime's own
// build.
#include "kube/model/live_objects.h"
#include "kube/model/node_info.h"
#include "kube/model/objects.h"
#include "kube/model/pod_template.h"
#include "kube/model/volumes.h"
#include "runtime/watched_collection.h"
#include "runtime/watched_object.h"

namespace propscaler::runtime {

template class WatchedObject<kube::Scale>;
template class WatchedObject<kube::ConfigMap>;
template class WatchedObject<kube::PodTemplateWorkload>;
template class WatchedCollection<kube::NodeInfo>;
template class WatchedCollection<kube::LivePod>;
template class WatchedCollection<kube::LiveNode>;
template class WatchedCollection<kube::PdbState>;
template class WatchedCollection<kube::PersistentVolume>;
template class WatchedCollection<kube::PersistentVolumeClaim>;
template class WatchedCollection<kube::StorageClass>;
template class WatchedCollection<kube::CsiNode>;
template class WatchedCollection<kube::CsiDriver>;
template class WatchedCollection<kube::CsiStorageCapacity>;

}  // namespace propscaler::runtime
