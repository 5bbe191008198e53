// An Event about an object, as propscaler posts it (core/v1 Event).
#ifndef PROPSCALER_KUBE_MODEL_EVENT_H_
#define PROPSCALER_KUBE_MODEL_EVENT_H_

#include <string>

namespace propscaler::kube {

struct ObjectRef {
  std::string api_version;  // "apps/v1", "v1"
  std::string kind;         // "Deployment", "ConfigMap", "Node", "Pod"
  std::string namespace_;   // empty for cluster-scoped objects
  std::string name;
  std::string uid;  // optional
};

struct EventInfo {
  ObjectRef object;
  bool warning = false;  // type Warning, else Normal
  std::string reason;    // CamelCase, e.g. "ScaledReplicas"
  std::string message;
};

// The namespace an Event about `object` goes to: the object's, or "default"
// for a cluster-scoped object (the only one the API accepts for them).
std::string EventNamespace(const ObjectRef& object);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_EVENT_H_
