#include "kube/model/scale_target.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "common/label_selector.h"
#include "common/object_names.h"

namespace propscaler::kube {
namespace {

struct KindNames {
  ScaleTarget::Kind kind;
  const char* singular;  // lower case
  const char* plural;    // lower case, also the API resource
  const char* api_kind;
  const char* api_version;
  const char* api_prefix;  // before /namespaces/
  bool target_flag;        // accepted by --target
};

constexpr std::array<KindNames, 7> kKinds = {{
    {ScaleTarget::Kind::kDeployment, "deployment", "deployments", "Deployment",
     "apps/v1", "/apis/apps/v1", true},
    {ScaleTarget::Kind::kReplicaSet, "replicaset", "replicasets", "ReplicaSet",
     "apps/v1", "/apis/apps/v1", true},
    {ScaleTarget::Kind::kReplicationController, "replicationcontroller",
     "replicationcontrollers", "ReplicationController", "v1", "/api/v1", true},
    {ScaleTarget::Kind::kStatefulSet, "statefulset", "statefulsets",
     "StatefulSet", "apps/v1", "/apis/apps/v1", true},
    {ScaleTarget::Kind::kMachineDeployment, "machinedeployment",
     "machinedeployments", "MachineDeployment", "cluster.x-k8s.io/v1beta1",
     "/apis/cluster.x-k8s.io/v1beta1", false},
    {ScaleTarget::Kind::kMachineSet, "machineset", "machinesets", "MachineSet",
     "cluster.x-k8s.io/v1beta1", "/apis/cluster.x-k8s.io/v1beta1", false},
    {ScaleTarget::Kind::kMachinePool, "machinepool", "machinepools",
     "MachinePool", "cluster.x-k8s.io/v1beta1",
     "/apis/cluster.x-k8s.io/v1beta1", false},
}};

const KindNames& NamesOf(ScaleTarget::Kind kind) {
  for (const KindNames& names : kKinds) {
    if (names.kind == kind) return names;
  }
  return kKinds[0];
}

std::string Trim(std::string_view text) {
  while (!text.empty() &&
         std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return std::string(text);
}

// A kind --target and --target-selector accept, singular or plural, lower
// case.
const KindNames* TargetFlagKind(const std::string& kind) {
  for (const KindNames& names : kKinds) {
    if (names.target_flag && (kind == names.singular || kind == names.plural)) {
      return &names;
    }
  }
  return nullptr;
}

constexpr char kTargetKinds[] =
    "deployment, replicaset, replicationcontroller or statefulset";

Result<ScaleTarget> ParseOne(const std::string& entry) {
  const size_t slash = entry.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == entry.size() ||
      entry.find('/', slash + 1) != std::string::npos) {
    return Status::Invalid("--target entry \"" + entry +
                           "\" is not of the form KIND/NAME");
  }
  // As cluster-proportional-autoscaler: kind and name in lower case.
  const KindNames* names = TargetFlagKind(AsciiLower(entry.substr(0, slash)));
  if (names == nullptr) {
    return Status::Invalid(
        "--target entry \"" + entry + "\" has unsupported kind \"" +
        entry.substr(0, slash) + "\" (want " + kTargetKinds + ")");
  }
  const std::string name = AsciiLower(entry.substr(slash + 1));
  if (Status valid = CheckDns1123Subdomain("target", name); !valid.ok()) {
    return valid.WithContext("--target entry \"" + entry + "\"");
  }
  return ScaleTarget{names->kind, name};
}

}  // namespace

std::string ScaleTarget::ToString() const {
  return std::string(NamesOf(kind).singular) + "/" + name;
}

std::string ScaleTarget::CollectionPath(const std::string& ns) const {
  const KindNames& names = NamesOf(kind);
  const std::string prefix = group_version.empty()
                                 ? std::string(names.api_prefix)
                                 : "/apis/" + group_version;
  return prefix + "/namespaces/" + ns + "/" + names.plural;
}

std::string ScaleTarget::ScalePath(const std::string& ns) const {
  return CollectionPath(ns) + "/" + name + "/scale";
}

std::string ScaleTarget::ApiKind() const { return NamesOf(kind).api_kind; }
std::string ScaleTarget::ApiVersion() const {
  return group_version.empty() ? NamesOf(kind).api_version : group_version;
}

Result<std::vector<ScaleTarget>> ParseScaleTargets(std::string_view given) {
  if (Trim(given).empty()) {
    return Status::Invalid("--target is empty; want KIND/NAME[,KIND/NAME...]");
  }
  const std::string flag(given);
  std::vector<ScaleTarget> targets;
  size_t start = 0;
  while (start <= flag.size()) {
    size_t comma = flag.find(',', start);
    if (comma == std::string_view::npos) comma = flag.size();
    const std::string entry =
        Trim(std::string_view(flag).substr(start, comma - start));
    start = comma + 1;
    if (entry.empty()) {
      return Status::Invalid("--target \"" + std::string(given) +
                             "\" has an empty entry; want "
                             "KIND/NAME[,KIND/NAME...]");
    }
    Result<ScaleTarget> target = ParseOne(entry);
    if (!target.ok()) return target.status();
    targets.push_back(std::move(target).value());
  }
  return targets;
}

std::string TargetSelector::ToString() const {
  return std::string(NamesOf(kind).singular) + ":" + label_selector;
}

ScaleTarget TargetSelector::Named(std::string name) const {
  return ScaleTarget{kind, std::move(name)};
}

Result<TargetSelector> ParseTargetSelector(std::string_view given) {
  const std::string flag = Trim(given);
  const size_t colon = flag.find(':');
  if (colon == std::string::npos) {
    return Status::Invalid("--target-selector \"" + flag +
                           "\" is not of the form KIND:LABEL-SELECTOR, e.g. "
                           "deployment:k8s-app=kube-dns");
  }
  const std::string kind = Trim(std::string_view(flag).substr(0, colon));
  const KindNames* names = TargetFlagKind(AsciiLower(kind));
  if (names == nullptr) {
    return Status::Invalid("--target-selector \"" + flag +
                           "\" has unsupported kind \"" + kind + "\" (want " +
                           kTargetKinds + ")");
  }
  const std::string selector = Trim(std::string_view(flag).substr(colon + 1));
  if (selector.empty()) {
    return Status::Invalid(
        "--target-selector \"" + flag +
        "\" has an empty label selector, which would make "
        "every " +
        names->singular + " in the namespace a target; name the labels, e.g. " +
        names->singular + ":k8s-app=kube-dns");
  }
  Result<LabelSelector> parsed = LabelSelector::Parse(selector);
  if (!parsed.ok()) {
    return parsed.status().WithContext("--target-selector \"" + flag + "\"");
  }
  return TargetSelector{names->kind, selector};
}

}  // namespace propscaler::kube
