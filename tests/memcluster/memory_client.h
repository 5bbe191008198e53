// kube::Client over a MemoryCluster: each call is the simulated server's
// handling of the same request, on the cluster's store, after the cluster's
// fault check. Bodies are encoded and decoded by kube/'s own codecs, so the
// loops see exactly what HTTP would give them.
#ifndef PROPSCALER_TESTS_MEMCLUSTER_MEMORY_CLIENT_H_
#define PROPSCALER_TESTS_MEMCLUSTER_MEMORY_CLIENT_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kube/client/client.h"
#include "memcluster/memory_cluster.h"

namespace propscaler::memcluster {

class MemoryClient : public kube::Client {
 public:
  explicit MemoryClient(MemoryCluster* cluster) : cluster_(cluster) {}

  std::unique_ptr<kube::ListWatch<kube::NodeInfo>> CountedNodes(
      const std::string& label_selector, const TaintFilter& excluded,
      kube::CountedCpu cpu) const override;
  std::unique_ptr<kube::ListWatch<kube::ConfigMap>> ConfigMapNamed(
      const std::string& ns, const std::string& name) const override;
  Result<kube::ConfigMap> GetConfigMap(const std::string& ns,
                                       const std::string& name) const override;
  Result<kube::ConfigMap> CreateConfigMap(
      const kube::ConfigMap& config_map) const override;
  Result<kube::ConfigMap> UpdateConfigMap(
      const kube::ConfigMap& config_map) const override;
  std::unique_ptr<kube::ListWatch<kube::Scale>> TargetNamed(
      const std::string& ns, const kube::ScaleTarget& target) const override;
  std::unique_ptr<kube::ListWatch<kube::Scale>> TargetsSelected(
      const std::string& ns,
      const kube::TargetSelector& selector) const override;
  Result<kube::Scale> GetScale(const std::string& ns,
                               const kube::ScaleTarget& target) const override;
  Result<kube::Scale> PatchScale(const std::string& ns,
                                 const kube::ScaleTarget& target,
                                 int64_t replicas) const override;
  Result<kube::Scale> UpdateScale(const std::string& ns,
                                  const kube::ScaleTarget& target,
                                  const kube::Scale& read,
                                  int64_t replicas) const override;
  Result<kube::PodTemplateWorkload> GetPodTemplate(
      const std::string& ns, const kube::WorkloadRef& target) const override;
  std::unique_ptr<kube::ListWatch<kube::PodTemplateWorkload>> PodTemplateNamed(
      const std::string& ns, const kube::WorkloadRef& target) const override;
  Result<kube::PodTemplateWorkload> PatchContainerResources(
      const std::string& ns, const kube::WorkloadRef& target,
      const std::string& resource_version,
      const std::vector<kube::ContainerResourcesEdit>& edits) const override;
  std::unique_ptr<kube::ListWatch<kube::ProvisioningRequest>>
  ProvisioningRequests() const override;
  std::unique_ptr<kube::ListWatch<kube::PodTemplate>> PodTemplates()
      const override;
  Status PatchProvisioningRequestConditions(
      const kube::ProvisioningRequest& request,
      const std::vector<kube::ProvReqCondition>& set) const override;
  Status DeleteProvisioningRequest(
      const kube::ProvisioningRequest& request) const override;
  std::unique_ptr<kube::ListWatch<kube::ResizedPod>> ResizablePods(
      const std::string& ns, const std::string& label_selector) const override;
  Result<kube::ResizedPod> ResizePod(
      const std::string& ns, const std::string& name,
      const std::string& resource_version,
      const std::vector<kube::ContainerResourcesEdit>& edits) const override;
  std::unique_ptr<kube::ListWatch<kube::HpaRef>> HorizontalPodAutoscalers(
      const std::string& ns) const override;
  std::unique_ptr<kube::ListWatch<kube::HpaRef>> HpaNamed(
      const std::string& ns, const std::string& name,
      const std::string& version) const override;
  Result<kube::HpaRef> GetHpa(const std::string& ns, const std::string& name,
                              const std::string& version) const override;
  Result<kube::HpaRef> PatchHpaMinReplicas(const std::string& ns,
                                           const std::string& name,
                                           const std::string& version,
                                           const std::string& resource_version,
                                           int64_t min_replicas) const override;
  Status CreateEvent(const kube::EventInfo& event, const std::string& component,
                     TimePoint now) const override;
  std::unique_ptr<kube::ListWatch<kube::LivePod>> Pods() const override;
  std::unique_ptr<kube::ListWatch<kube::LiveNode>> LiveNodes() const override;
  std::unique_ptr<kube::ListWatch<kube::PdbState>> PodDisruptionBudgets()
      const override;
  std::unique_ptr<kube::ListWatch<kube::PersistentVolume>> PersistentVolumes()
      const override;
  std::unique_ptr<kube::ListWatch<kube::PersistentVolumeClaim>>
  PersistentVolumeClaims() const override;
  std::unique_ptr<kube::ListWatch<kube::StorageClass>> StorageClasses()
      const override;
  std::unique_ptr<kube::ListWatch<kube::CsiNode>> CsiNodes() const override;
  std::unique_ptr<kube::ListWatch<kube::CsiDriver>> CsiDrivers() const override;
  std::unique_ptr<kube::ListWatch<kube::CsiStorageCapacity>>
  CsiStorageCapacities(std::string_view version) const override;
  std::unique_ptr<kube::ListWatch<kube::CapacityBuffer>> CapacityBuffers()
      const override;
  std::unique_ptr<kube::ListWatch<kube::RawObject>> NodePools() const override;
  Result<kube::BufferChunk> GetBufferChunk(
      const kube::CapacityBuffer& buffer) const override;
  Status PatchCapacityBufferStatus(const kube::CapacityBuffer& buffer,
                                   const kube::BufferStatus& want,
                                   TimePoint now) const override;
  Status EditNodeTaints(const std::string& name,
                        const kube::NodeTaintEdit& edit) const override;
  Status EvictPod(const std::string& ns, const std::string& name,
                  int64_t grace_seconds) const override;
  Status CreateSimulatedNode(const std::string& name,
                             const kube::NodeTemplate& shape,
                             bool ready) const override;
  Status DeleteNode(const std::string& name,
                    const std::string& uid) const override;
  Result<kube::Lease> GetLease(const std::string& ns,
                               const std::string& name) const override;
  Result<kube::Lease> CreateLease(const kube::Lease& lease) const override;
  Result<kube::Lease> UpdateLease(const kube::Lease& lease) const override;
  std::unique_ptr<kube::ListWatch<kube::ClusterApiObject>> ClusterApiObjects(
      const kube::ClusterApiVersion& api,
      const std::string& resource) const override;
  Status AnnotateMachine(
      const kube::ClusterApiVersion& api, const std::string& ns,
      const std::string& name, const std::string& key,
      const std::optional<std::string>& value) const override;
  std::unique_ptr<kube::ListWatch<kube::CountedPod>> CountedPods(
      const std::string& ns, const std::string& label_selector) const override;
  // The kind's resource is found as the simulated server's discovery
  // would: lower-case kind + "s", in the types it serves.
  Result<kube::InfrastructureTemplate> GetInfrastructureTemplate(
      const kube::InfrastructureRef& ref, const std::string& ns) const override;

 private:
  MemoryCluster* cluster_;
};

}  // namespace propscaler::memcluster

#endif  // PROPSCALER_TESTS_MEMCLUSTER_MEMORY_CLIENT_H_
