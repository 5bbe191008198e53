// propscaler's identity in node-scale mode on the real kube-apiserver: a
// ServiceAccount bound by exactly deploy/node-scale's RBAC for a provider,
// and a kubeconfig holding its token, as the manifests deploy it.
#ifndef PROPSCALER_BENCH_HARNESS_NODE_SCALE_IDENTITY_H_
#define PROPSCALER_BENCH_HARNESS_NODE_SCALE_IDENTITY_H_

#include <string>
#include <vector>

#include "common/status.h"
#include "e2e/process.h"
#include "envtest/real_cluster.h"

namespace propscaler::bench {

inline constexpr char kNodeScaleAccount[] = "propscaler-node-scale";
// Where the harnesses run it, and its kwok node groups (deploy/'s names).
inline constexpr char kNodeScaleNamespace[] = "kube-system";
inline constexpr char kNodeGroupsConfigMap[] = "propscaler-node-groups";
// The bearer token the simulated server asks for.
inline constexpr char kSimulatedToken[] = "bench-token";

// deploy/'s manifests for `provider` ("kwok" or "clusterapi"), relative to
// the source tree's deploy/.
std::vector<std::string> NodeScaleRbacManifests(const std::string& provider);

// "system:serviceaccount:<ns>:<account>": the user the audit log names.
std::string ServiceAccountUser(const std::string& ns,
                               const std::string& account);

// The account in `ns`, the manifests applied, and a kubeconfig for it
// written in `dir`; its path.
Result<std::string> NodeScaleKubeconfig(const envtest::RealCluster& cluster,
                                        const std::string& ns,
                                        const std::string& provider,
                                        e2e::TempDir* dir);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_NODE_SCALE_IDENTITY_H_
