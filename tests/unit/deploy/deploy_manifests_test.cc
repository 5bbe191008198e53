// The kustomize bases under deploy/: each renders with `kubectl kustomize`,
// has the objects it needs, grants no `*`, runs propscaler locked down, and
// passes it only flags it accepts. Skipped when kubectl is not on PATH.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/files.h"
#include "replicas/params.h"

namespace propscaler {
namespace {

namespace fs = std::filesystem;

const fs::path kDeployDir = fs::path(PROPSCALER_SOURCE_DIR) / "deploy";

// Flags propscaler accepts (src/main.cc) and glog's; add new ones here.
const std::set<std::string> kKnownFlags = {
    "target",
    "configmap",
    "namespace",
    "default-params",
    "nodelabels",
    "pod-selector",
    "pod-namespace",
    "target-selector",
    "hpa-floor",
    "hpa-floor-auto",
    "poll-period-seconds",
    "max-sync-failures",
    "kubeconfig",
    "healthz-port",
    "once",
    "dry-run",
    "mode",
    "default-config",
    "config-file",
    "resize-threshold-percent",
    "scale-down-delay-seconds",
    "schedulable-nodes-only",
    "resize",
    "cloud-provider",
    "node-group-config",
    "cloud-config",
    "clusterapi-cloud-config-authoritative",
    "node-group-auto-discovery",
    "leader-elect",
    "leader-elect-resource-name",
    "leader-elect-lease-duration",
    "leader-elect-renew-deadline",
    "leader-elect-retry-period",
    "logtostderr",
    "alsologtostderr",
    "stderrthreshold",
    "v",
    "vmodule",
    "log_dir",
    "log-dir"};

bool KubectlOnPath() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path == nullptr ? "" : path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::error_code ec;
    if (!dir.empty() && fs::exists(fs::path(dir) / "kubectl", ec)) return true;
  }
  return false;
}

std::vector<fs::path> KustomizeBases() {
  std::vector<fs::path> bases;
  for (const auto& entry : fs::recursive_directory_iterator(kDeployDir)) {
    if (entry.path().filename() == "kustomization.yaml") {
      bases.push_back(entry.path().parent_path());
    }
  }
  std::sort(bases.begin(), bases.end());
  return bases;
}

// The rendered objects, or a failure naming the base and kubectl's output.
std::vector<YAML::Node> Render(const fs::path& base) {
  const std::string command = "kubectl kustomize '" + base.string() + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "cannot run " << command;
    return {};
  }
  std::string output;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof(buffer), pipe)) > 0;) {
    output.append(buffer, n);
  }
  if (pclose(pipe) != 0) {
    ADD_FAILURE() << command << " failed:\n" << output;
    return {};
  }
  return YAML::LoadAll(output);
}

std::string KindName(const YAML::Node& object) {
  return object["kind"].as<std::string>() + "/" +
         object["metadata"]["name"].as<std::string>();
}

std::map<std::string, YAML::Node> ByKindName(
    const std::vector<YAML::Node>& objects) {
  std::map<std::string, YAML::Node> out;
  for (const YAML::Node& object : objects) out[KindName(object)] = object;
  return out;
}

bool IsRole(const YAML::Node& object) {
  const std::string kind = object["kind"].as<std::string>();
  return kind == "Role" || kind == "ClusterRole";
}

void ExpectNoWildcards(const YAML::Node& role) {
  for (const YAML::Node& rule : role["rules"]) {
    for (const char* field : {"apiGroups", "resources", "verbs",
                              "resourceNames", "nonResourceURLs"}) {
      for (const YAML::Node& value : rule[field]) {
        EXPECT_EQ(value.as<std::string>().find('*'), std::string::npos)
            << KindName(role) << " grants " << field << " "
            << value.as<std::string>();
      }
    }
  }
}

// "group/resource[name]" -> verbs, over every rule of the roles.
using Grants = std::map<std::string, std::set<std::string>>;

Grants GrantsOf(const std::vector<YAML::Node>& objects) {
  Grants grants;
  for (const YAML::Node& role : objects) {
    if (!IsRole(role)) continue;
    for (const YAML::Node& rule : role["rules"]) {
      std::vector<std::string> names = {""};
      if (rule["resourceNames"]) {
        names = rule["resourceNames"].as<std::vector<std::string>>();
      }
      for (const YAML::Node& group : rule["apiGroups"]) {
        for (const YAML::Node& resource : rule["resources"]) {
          for (const std::string& name : names) {
            std::string key =
                group.as<std::string>() + "/" + resource.as<std::string>();
            if (!name.empty()) key += "[" + name + "]";
            for (const YAML::Node& verb : rule["verbs"]) {
              grants[key].insert(verb.as<std::string>());
            }
          }
        }
      }
    }
  }
  return grants;
}

// Exactly what replica mode calls, on the named ConfigMap, target and
// Lease (--leader-elect-resource-name, the ConfigMap's name in deploy/).
Grants ReplicaModeGrants(const std::string& configmap,
                         const std::string& deployment) {
  return {
      {"coordination.k8s.io/leases[" + configmap + "]", {"get", "update"}},
      {"coordination.k8s.io/leases", {"create"}},
      {"/nodes", {"list", "watch"}},
      {"/configmaps[" + configmap + "]", {"get", "list", "watch", "update"}},
      {"/configmaps", {"create"}},
      {"apps/deployments/scale[" + deployment + "]", {"get", "update"}},
      {"apps/deployments[" + deployment + "]", {"list", "watch"}},
      {"/events", {"create"}},
      {"autoscaling/horizontalpodautoscalers", {"list", "watch"}},
  };
}

std::vector<YAML::Node> PropscalerContainers(const YAML::Node& workload) {
  std::vector<YAML::Node> out;
  for (const YAML::Node& c :
       workload["spec"]["template"]["spec"]["containers"]) {
    if (c["image"].as<std::string>().starts_with("propscaler")) {
      out.push_back(c);
    }
  }
  return out;
}

// A field of the container's securityContext, else of the pod's.
YAML::Node SecurityField(const YAML::Node& pod, const YAML::Node& container,
                         const char* field) {
  if (container["securityContext"][field]) {
    return container["securityContext"][field];
  }
  return pod["securityContext"][field];
}

void ExpectLockedDown(const YAML::Node& pod, const YAML::Node& c) {
  EXPECT_TRUE(SecurityField(pod, c, "runAsNonRoot").as<bool>(false));
  EXPECT_GT(SecurityField(pod, c, "runAsUser").as<int64_t>(0), 0);
  EXPECT_TRUE(c["securityContext"]["readOnlyRootFilesystem"].as<bool>(false));
  EXPECT_FALSE(c["securityContext"]["allowPrivilegeEscalation"].as<bool>(true));
  EXPECT_EQ(
      c["securityContext"]["capabilities"]["drop"].as<std::vector<std::string>>(
          std::vector<std::string>{}),
      std::vector<std::string>{"ALL"});
  EXPECT_EQ(SecurityField(pod, c, "seccompProfile")["type"].as<std::string>(""),
            "RuntimeDefault");
}

void ExpectSizedAndProbed(const YAML::Node& c) {
  const YAML::Node resources = c["resources"];
  EXPECT_TRUE(resources["requests"]["cpu"]) << "requests.cpu";
  EXPECT_TRUE(resources["requests"]["memory"]) << "requests.memory";
  EXPECT_TRUE(resources["limits"]["memory"]) << "limits.memory";
  const YAML::Node probe = c["livenessProbe"]["httpGet"];
  EXPECT_EQ(probe["path"].as<std::string>(""), "/healthz");
  EXPECT_EQ(probe["port"].as<int>(0), 8080);
  // MY_NAMESPACE is cluster-proportional-vertical-autoscaler's name for it.
  bool has_namespace = false;
  for (const YAML::Node& env : c["env"]) {
    const std::string name = env["name"].as<std::string>();
    has_namespace |= (name == "MY_POD_NAMESPACE" || name == "MY_NAMESPACE") &&
                     env["valueFrom"]["fieldRef"]["fieldPath"].as<std::string>(
                         "") == "metadata.namespace";
  }
  EXPECT_TRUE(has_namespace)
      << "env MY_POD_NAMESPACE (or MY_NAMESPACE) from metadata.namespace";
}

// name -> value of each "--name=value" argument; unknown flags fail.
std::map<std::string, std::string> Flags(const YAML::Node& c) {
  std::map<std::string, std::string> flags;
  for (const YAML::Node& arg : c["args"]) {
    const std::string text = arg.as<std::string>();
    EXPECT_TRUE(text.starts_with("--")) << text;
    const size_t equals = text.find('=');
    const std::string name = text.substr(2, equals - 2);
    EXPECT_TRUE(kKnownFlags.contains(name)) << "unknown flag " << text;
    flags[name] = equals == std::string::npos ? "" : text.substr(equals + 1);
  }
  return flags;
}

void ExpectWorkloadsLockedDown(const std::vector<YAML::Node>& objects) {
  for (const YAML::Node& object : objects) {
    if (object["kind"].as<std::string>() != "Deployment") continue;
    const YAML::Node pod = object["spec"]["template"]["spec"];
    for (const YAML::Node& c : PropscalerContainers(object)) {
      SCOPED_TRACE(KindName(object) + " container " +
                   c["name"].as<std::string>());
      ExpectLockedDown(pod, c);
      ExpectSizedAndProbed(c);
      Flags(c);
    }
  }
}

// Bindings name roles and service accounts that the base has.
void ExpectBindingsResolve(const std::vector<YAML::Node>& objects) {
  const auto objects_by_name = ByKindName(objects);
  for (const YAML::Node& b : objects) {
    const std::string kind = b["kind"].as<std::string>();
    if (kind != "RoleBinding" && kind != "ClusterRoleBinding") continue;
    EXPECT_TRUE(
        objects_by_name.contains(b["roleRef"]["kind"].as<std::string>() + "/" +
                                 b["roleRef"]["name"].as<std::string>()))
        << KindName(b) << " refers to a role the base lacks";
    for (const YAML::Node& subject : b["subjects"]) {
      EXPECT_TRUE(objects_by_name.contains("ServiceAccount/" +
                                           subject["name"].as<std::string>()))
          << KindName(b) << " binds a service account the base lacks";
    }
  }
}

std::map<std::string, std::string> CoreDnsDefaultsData() {
  Result<std::string> text =
      ReadFile(std::string(PROPSCALER_SOURCE_DIR) + "/params/coredns.json");
  EXPECT_TRUE(text.ok()) << text.status().message();
  if (!text.ok()) return {};
  Result<std::map<std::string, std::string>> data = DefaultParamsToData(*text);
  EXPECT_TRUE(data.ok()) << data.status().message();
  return data.ok() ? *data : std::map<std::string, std::string>{};
}

std::map<std::string, std::string> DefaultParamsFlagData(
    const std::map<std::string, std::string>& flags) {
  auto it = flags.find("default-params");
  if (it == flags.end()) return {};
  Result<std::map<std::string, std::string>> data =
      DefaultParamsToData(it->second);
  EXPECT_TRUE(data.ok()) << data.status().message();
  return data.ok() ? *data : std::map<std::string, std::string>{};
}

class DeployManifestsTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!KubectlOnPath()) {
      GTEST_SKIP() << "kubectl is not on PATH, so deploy/ cannot be rendered "
                      "(it is not a Debian package; install it to run this)";
    }
  }

  std::vector<YAML::Node> RenderBase(const std::string& name) {
    return Render(kDeployDir / name);
  }
};

TEST_F(DeployManifestsTest, EveryBaseRendersLockedDownWithoutWildcards) {
  const std::vector<fs::path> bases = KustomizeBases();
  ASSERT_GE(bases.size(), 2u) << "bases expected under " << kDeployDir;
  for (const fs::path& base : bases) {
    SCOPED_TRACE(base.string());
    const std::vector<YAML::Node> objects = Render(base);
    ASSERT_FALSE(objects.empty());
    for (const YAML::Node& object : objects) {
      if (IsRole(object)) ExpectNoWildcards(object);
    }
    ExpectWorkloadsLockedDown(objects);
    ExpectBindingsResolve(objects);
  }
}

TEST_F(DeployManifestsTest, ReplicasBaseScalesCoreDnsLikeTheDnsAddon) {
  const std::vector<YAML::Node> objects = RenderBase("replicas");
  const auto by_name = ByKindName(objects);
  for (const char* needed :
       {"ServiceAccount/coredns-autoscaler",
        "ClusterRole/propscaler:coredns-autoscaler",
        "ClusterRoleBinding/propscaler:coredns-autoscaler",
        "Role/propscaler:coredns-autoscaler",
        "RoleBinding/propscaler:coredns-autoscaler",
        "ConfigMap/coredns-autoscaler", "Deployment/coredns-autoscaler"}) {
    EXPECT_TRUE(by_name.contains(needed)) << "missing " << needed;
  }
  ASSERT_TRUE(by_name.contains("Deployment/coredns-autoscaler"));
  const YAML::Node deployment = by_name.at("Deployment/coredns-autoscaler");
  EXPECT_EQ(deployment["metadata"]["namespace"].as<std::string>(),
            "kube-system");
  EXPECT_EQ(deployment["spec"]["template"]["spec"]["serviceAccountName"]
                .as<std::string>(),
            "coredns-autoscaler");
  const std::vector<YAML::Node> containers = PropscalerContainers(deployment);
  ASSERT_EQ(containers.size(), 1u);
  const std::map<std::string, std::string> flags = Flags(containers[0]);
  EXPECT_EQ(flags.at("configmap"), "coredns-autoscaler");
  EXPECT_EQ(flags.at("target"), "deployment/coredns");
  EXPECT_EQ(flags.at("v"), "2");
  EXPECT_TRUE(flags.contains("logtostderr"));
  // Two replicas, one acting.
  EXPECT_EQ(deployment["spec"]["replicas"].as<int>(), 2);
  EXPECT_TRUE(flags.contains("leader-elect"));
  EXPECT_EQ(flags.at("leader-elect-resource-name"), "coredns-autoscaler");
  EXPECT_EQ(DefaultParamsFlagData(flags), CoreDnsDefaultsData())
      << "--default-params is params/coredns.json";
  using Data = std::map<std::string, std::string>;
  EXPECT_EQ(by_name.at("ConfigMap/coredns-autoscaler")["data"].as<Data>(),
            CoreDnsDefaultsData())
      << "the ConfigMap holds exactly what --default-params would write";
  EXPECT_EQ(GrantsOf(objects),
            ReplicaModeGrants("coredns-autoscaler", "coredns"));
}

TEST_F(DeployManifestsTest, SidecarBaseScalesItsOwnDeployment) {
  const std::vector<YAML::Node> objects = RenderBase("sidecar");
  const auto by_name = ByKindName(objects);
  for (const char* needed :
       {"Namespace/dns-cache", "ServiceAccount/dns-cache",
        "ClusterRole/propscaler:dns-cache",
        "ClusterRoleBinding/propscaler:dns-cache", "Role/propscaler:dns-cache",
        "RoleBinding/propscaler:dns-cache", "Deployment/dns-cache",
        "Service/dns-cache"}) {
    EXPECT_TRUE(by_name.contains(needed)) << "missing " << needed;
  }
  ASSERT_TRUE(by_name.contains("Deployment/dns-cache"));
  const YAML::Node deployment = by_name.at("Deployment/dns-cache");
  const YAML::Node pod = deployment["spec"]["template"]["spec"];
  EXPECT_EQ(pod["containers"].size(), 2u) << "the DNS cache and propscaler";
  EXPECT_EQ(pod["serviceAccountName"].as<std::string>(), "dns-cache");
  const std::vector<YAML::Node> containers = PropscalerContainers(deployment);
  ASSERT_EQ(containers.size(), 1u);
  const std::map<std::string, std::string> flags = Flags(containers[0]);
  EXPECT_EQ(flags.at("target"), "deployment/dns-cache");
  EXPECT_EQ(flags.at("configmap"), "dns-cache-autoscaler");
  EXPECT_EQ(flags.at("leader-elect-resource-name"), "dns-cache-autoscaler");
  EXPECT_EQ(DefaultParamsFlagData(flags), CoreDnsDefaultsData());
  EXPECT_EQ(GrantsOf(objects),
            ReplicaModeGrants("dns-cache-autoscaler", "dns-cache"));
}

}  // namespace
}  // namespace propscaler
