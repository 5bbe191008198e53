// The compact forms of API objects that propscaler keeps: only the fields
// its decisions read, never whole objects.
#ifndef PROPSCALER_KUBE_MODEL_OBJECTS_H_
#define PROPSCALER_KUBE_MODEL_OBJECTS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kube/model/node_info.h"

namespace propscaler::kube {

struct ConfigMap {
  std::string name;
  std::string namespace_;
  std::string resource_version;
  std::map<std::string, std::string> data;
  std::map<std::string, std::string> annotations;
};

// autoscaling/v1 Scale, or a workload read as its scale would be (the
// subresource carries the workload's name and resourceVersion).
struct Scale {
  std::string name;
  std::string resource_version;
  int64_t spec_replicas = 0;
  int64_t status_replicas = 0;
};

// A HorizontalPodAutoscaler (autoscaling/v1 or v2: these fields are the
// same in both): what it scales, and its bounds.
struct HpaRef {
  std::string name;
  std::string target_kind;  // spec.scaleTargetRef.kind, e.g. "Deployment"
  std::string target_name;
  std::string resource_version;
  int64_t min_replicas = 1;  // spec.minReplicas (the API's default: 1)
  int64_t max_replicas = 0;  // spec.maxReplicas
};

template <typename T>
struct ListPage {
  std::string resource_version;
  std::string continue_token;  // empty on the last page
  std::vector<T> items;
  std::vector<std::string> item_errors;  // items that could not be decoded
};

enum class WatchEventType { kAdded, kModified, kDeleted, kBookmark, kError };

template <typename T>
struct WatchEvent {
  WatchEventType type = WatchEventType::kError;
  std::string resource_version;  // of the object, or of the bookmark
  std::optional<T> object;       // for ADDED, MODIFIED and DELETED
  int error_code = 0;            // for ERROR: the Status code (410: relist)
  std::string error_message;
  // A BOOKMARK annotated k8s.io/initial-events-end: a WatchList's initial
  // state is complete.
  bool initial_events_end = false;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_OBJECTS_H_
