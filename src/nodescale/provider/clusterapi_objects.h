// The Cluster API objects the provider reads (MachineDeployments,
// MachineSets, Machines, MachinePools), kept current by a watch each (list
// once, then watch; relist on 410), as nodes and pods are: a loop at rest sends
// no request for them. The reflectors are wired by app/ into Sink(); the
// provider reads Objects() and writes its own replicas changes through
// (Wrote), so that a loop right after a scale-up does not see the group at
// its old size while the watch event is on its way. Thread-safe.
#ifndef PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_OBJECTS_H_
#define PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_OBJECTS_H_

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/mutex.h"
#include "kube/controllers/reflector.h"
#include "kube/model/cluster_api.h"

namespace propscaler::nodescale {

class ClusterApiObjects {
 public:
  enum Kind {
    kMachineDeployments,
    kMachineSets,
    kMachines,
    kMachinePools,
    kKinds
  };
  // The resource each kind is listed and watched as.
  static constexpr std::array<const char*, kKinds> kResources = {
      "machinedeployments", "machinesets", "machines", "machinepools"};
  // Each kind's Kind, as group names and ownerReferences spell it.
  static constexpr std::array<const char*, kKinds> kKindNames = {
      "MachineDeployment", "MachineSet", "Machine", "MachinePool"};

  kube::ReflectorSink<kube::ClusterApiObject> Sink(Kind kind);

  // The server does not serve `kind` (MachinePools are optional in
  // Cluster API): it counts as listed, and empty.
  void NotServed(Kind kind) EXCLUDES(mutex_);
  // Every kind was listed at least once.
  bool Synced() const EXCLUDES(mutex_);
  // Changes whenever any object does.
  uint64_t Version() const EXCLUDES(mutex_);
  std::vector<kube::ClusterApiObject> Objects(Kind kind) const EXCLUDES(mutex_);
  std::optional<kube::ClusterApiObject> Find(Kind kind, const std::string& ns,
                                             const std::string& name) const
      EXCLUDES(mutex_);
  // Resources not listed yet, for the wait's message.
  std::vector<std::string> NotListed() const EXCLUDES(mutex_);

  // The provider's own write of an object's replicas, which made it
  // `resource_version`: held until the watch brings a newer version.
  void WroteReplicas(Kind kind, const std::string& ns, const std::string& name,
                     int64_t replicas, const std::string& resource_version)
      EXCLUDES(mutex_);

 private:
  struct Collection {
    std::map<std::string, kube::ClusterApiObject> items;  // by ns/name
    bool synced = false;
  };
  void Upsert(Kind kind, const kube::ClusterApiObject& object) EXCLUDES(mutex_);

  mutable Mutex mutex_;
  std::array<Collection, kKinds> collections_ GUARDED_BY(mutex_);
  uint64_t version_ GUARDED_BY(mutex_) = 0;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_OBJECTS_H_
