#include "kube/model/pod_template.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "common/object_names.h"

namespace propscaler::kube {
namespace {

struct KindNames {
  WorkloadRef::Kind kind;
  const char* singular;
  const char* plural;
  const char* api_kind;
};

constexpr std::array<KindNames, 4> kKinds = {{
    {WorkloadRef::Kind::kDeployment, "deployment", "deployments", "Deployment"},
    {WorkloadRef::Kind::kDaemonSet, "daemonset", "daemonsets", "DaemonSet"},
    {WorkloadRef::Kind::kReplicaSet, "replicaset", "replicasets", "ReplicaSet"},
    {WorkloadRef::Kind::kStatefulSet, "statefulset", "statefulsets",
     "StatefulSet"},
}};

const KindNames& NamesOf(WorkloadRef::Kind kind) {
  for (const KindNames& names : kKinds) {
    if (names.kind == kind) return names;
  }
  return kKinds[0];
}

}  // namespace

std::string WorkloadRef::ToString() const {
  return std::string(NamesOf(kind).singular) + "/" + name;
}

std::string WorkloadRef::Collection() const { return NamesOf(kind).plural; }

std::string WorkloadRef::ApiKind() const { return NamesOf(kind).api_kind; }

std::string WorkloadRef::Path(const std::string& ns) const {
  return "/apis/apps/v1/namespaces/" + ns + "/" + Collection() + "/" + name;
}

const ContainerResources* FindContainer(
    const std::vector<ContainerResources>& containers,
    const std::string& name) {
  for (const ContainerResources& container : containers) {
    if (container.name == name) return &container;
  }
  return nullptr;
}

bool TemplateChangeRolls(WorkloadRef::Kind kind,
                         const std::string& update_strategy) {
  switch (kind) {
    case WorkloadRef::Kind::kDeployment:
      return true;
    case WorkloadRef::Kind::kReplicaSet:
      return false;
    case WorkloadRef::Kind::kDaemonSet:
    case WorkloadRef::Kind::kStatefulSet:
      return update_strategy != "OnDelete";
  }
  return true;
}

Result<WorkloadRef> ParseWorkloadRef(std::string_view given) {
  // As cluster-proportional-vertical-autoscaler: the whole flag in lower case.
  const std::string flag = AsciiLower(given);
  const size_t slash = flag.find('/');
  if (flag.empty()) {
    return Status::Invalid("--target is empty; want KIND/NAME");
  }
  if (slash == std::string_view::npos || slash + 1 == flag.size() ||
      flag.find('/', slash + 1) != std::string_view::npos) {
    return Status::Invalid("--target \"" + std::string(given) +
                           "\" is not of the form KIND/NAME");
  }
  const std::string kind = flag.substr(0, slash);
  const std::string name = flag.substr(slash + 1);
  for (const KindNames& names : kKinds) {
    if (kind != names.singular) continue;
    if (Status valid = CheckDns1123Subdomain("target", name); !valid.ok()) {
      return valid.WithContext("--target \"" + std::string(given) + "\"");
    }
    return WorkloadRef{names.kind, name};
  }
  return Status::Invalid("--target \"" + std::string(given) +
                         "\" has unsupported kind \"" +
                         std::string(given.substr(0, slash)) +
                         "\" (want deployment, daemonset, replicaset or "
                         "statefulset)");
}

}  // namespace propscaler::kube
