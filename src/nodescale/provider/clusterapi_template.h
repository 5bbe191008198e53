// The node a Cluster API group would make, for a group with no node to copy
// (scale from zero), built as Cluster Autoscaler's clusterapi provider
// builds it:
// - resources: the infrastructure machine template's status.capacity, then
//   every capacity.cluster-autoscaler.kubernetes.io/ annotation over its
//   key (cpu, memory, ephemeral-disk, maxPods: pods, 110 when not given;
//   gpu-count as the resource gpu-type names, only with both); no template
//   unless cpu and memory are both known;
// - labels, later wins: kubernetes.io/arch (CAPI_SCALE_ZERO_DEFAULT_ARCH,
//   amd64) and kubernetes.io/os=linux; the template's status.nodeInfo; the
//   Cluster API-managed labels of the machines' template; the labels
//   annotation;
// - taints: the machines' template's spec.taints, then the taints
//   annotation (same key and effect: the annotation's);
// - CSI attach limits from the csi-driver annotation.
// Pure: no I/O.
#ifndef PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_TEMPLATE_H_
#define PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_TEMPLATE_H_

#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "kube/model/cluster_api.h"
#include "nodescale/domain/node_group.h"

namespace propscaler::nodescale {

// `group`'s annotations, machine labels and taints, and `infrastructure`
// (nullptr: none, or it could not be read). nullopt when cpu or memory is
// unknown. An annotation that does not parse is an error naming it and its
// value; a template's capacity value that does not parse is skipped, as in
// CA.
Result<std::optional<NodeTemplate>> ScaleFromZeroTemplate(
    const kube::ClusterApiObject& group,
    const kube::InfrastructureTemplate* infrastructure,
    std::string_view default_arch = "amd64");

// The annotations alone.
Result<std::optional<NodeTemplate>> TemplateFromCapacityAnnotations(
    const Labels& annotations);

// Cluster Autoscaler's CAPI_SCALE_ZERO_DEFAULT_ARCH: amd64, arm64, ppc64le
// or s390x; "" is amd64. Anything else: amd64, and `*warning` says so (as
// CA, which logs it and goes on).
std::string ScaleFromZeroDefaultArch(std::string_view env,
                                     std::string* warning);

// Whether Cluster API manages the node label `key` (it syncs these from
// the machines' template to the Node): node-role.kubernetes.io/*, and keys
// in node-restriction.kubernetes.io or node.cluster.x-k8s.io or their
// subdomains.
bool IsClusterApiManagedLabel(std::string_view key);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PROVIDER_CLUSTERAPI_TEMPLATE_H_
