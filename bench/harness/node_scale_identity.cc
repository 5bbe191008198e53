#include "harness/node_scale_identity.h"

#include "common/files.h"
#include "envtest/real_objects.h"

namespace propscaler::bench {

std::vector<std::string> NodeScaleRbacManifests(const std::string& provider) {
  std::vector<std::string> manifests = {"node-scale/base/role.yaml",
                                        "node-scale/base/clusterrole.yaml"};
  if (provider == "clusterapi") {
    manifests.push_back("node-scale/clusterapi/clusterrole.yaml");
  } else {
    manifests.push_back("node-scale/kwok/clusterrole.yaml");
    manifests.push_back("node-scale/kwok/role.yaml");
  }
  return manifests;
}

std::string ServiceAccountUser(const std::string& ns,
                               const std::string& account) {
  return "system:serviceaccount:" + ns + ":" + account;
}

Result<std::string> NodeScaleKubeconfig(const envtest::RealCluster& cluster,
                                        const std::string& ns,
                                        const std::string& provider,
                                        e2e::TempDir* dir) {
  Status status = envtest::CreateServiceAccount(cluster, ns, kNodeScaleAccount);
  for (const std::string& manifest : NodeScaleRbacManifests(provider)) {
    if (!status.ok()) return status;
    Result<std::string> yaml =
        ReadFile(std::string(PROPSCALER_SOURCE_DIR) + "/deploy/" + manifest);
    if (!yaml.ok()) return yaml.status();
    status = envtest::ApplyRbacManifest(cluster, *yaml, ns);
  }
  if (!status.ok()) return status;
  Result<std::string> token = envtest::ServiceAccountToken(
      cluster, ns, kNodeScaleAccount, "", 24 * 3600);
  if (!token.ok()) return token.status();
  return dir->Write("kubeconfig", e2e::KubeconfigYaml(cluster.url(), *token,
                                                      cluster.ca_file()));
}

}  // namespace propscaler::bench
