#include "nodescale/provider/clusterapi_template.h"

#include <array>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "common/quantity.h"
#include "kube/model/node_scale_objects.h"
#include "kube/model/resources.h"

namespace propscaler::nodescale {
namespace {

using kube::AnnotationOf;
using kube::Resources;
using kube::Taint;
using kube::TaintEffect;
using kube::VolumeLimits;

constexpr char kCapacity[] = "capacity.cluster-autoscaler.kubernetes.io/";
constexpr char kArchLabel[] = "kubernetes.io/arch";
constexpr char kOsLabel[] = "kubernetes.io/os";
constexpr int64_t kDefaultMaxPods = 110;

std::string CapacityKey(const std::string& name) { return kCapacity + name; }

// The items of a comma list, trimmed; empty items are skipped.
std::vector<std::string> ListItems(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const size_t first = item.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    out.push_back(item.substr(first, item.find_last_not_of(" \t") - first + 1));
  }
  return out;
}

// CA's taints format: "key=value:Effect,key2:Effect".
Result<std::vector<Taint>> ParseTaints(const std::string& text) {
  std::vector<Taint> out;
  for (const std::string& item : ListItems(text)) {
    const size_t colon = item.rfind(':');
    const size_t equals = item.find('=');
    if (colon == std::string::npos || std::min(equals, colon) == 0) {
      return Status::Invalid("taint \"" + item + "\": want key=value:Effect");
    }
    Taint taint;
    taint.key = item.substr(0, std::min(equals, colon));
    if (equals < colon) {
      taint.value = item.substr(equals + 1, colon - equals - 1);
    }
    const std::string effect = item.substr(colon + 1);
    if (effect == "NoSchedule") {
      taint.effect = TaintEffect::kNoSchedule;
    } else if (effect == "PreferNoSchedule") {
      taint.effect = TaintEffect::kPreferNoSchedule;
    } else if (effect == "NoExecute") {
      taint.effect = TaintEffect::kNoExecute;
    } else {
      return Status::Invalid("taint \"" + item + "\": unknown effect \"" +
                             effect + "\"");
    }
    out.push_back(taint);
  }
  return out;
}

// CA's labels format: "key=value,key2=value2".
Result<Labels> ParseLabels(const std::string& text) {
  Labels out;
  for (const std::string& item : ListItems(text)) {
    const size_t equals = item.find('=');
    if (equals == std::string::npos || equals == 0) {
      return Status::Invalid("label \"" + item + "\": want key=value");
    }
    out[item.substr(0, equals)] = item.substr(equals + 1);
  }
  return out;
}

// CA's csi-driver format: "driver=limit,..."; a limit of 0 means the driver
// is there without a limit.
Result<VolumeLimits> ParseCsiDrivers(const std::string& text) {
  VolumeLimits out;
  for (const std::string& item : ListItems(text)) {
    const size_t equals = item.find('=');
    int64_t limit = -1;
    if (equals != std::string::npos && equals > 0) {
      Result<int64_t> parsed = ParseQuantity(item.substr(equals + 1));
      if (parsed.ok()) limit = *parsed;
    }
    if (limit < 0) {
      return Status::Invalid("driver \"" + item +
                             "\": want driver=limit, the limit 0 or more");
    }
    if (limit > 0) out[item.substr(0, equals)] = limit;
  }
  return out;
}

// The resource amounts, as quantity text by resource name.
using Quantities = std::map<std::string, std::string, std::less<>>;

// The template's status.capacity, values that do not parse left out (as
// CA does).
Quantities InfrastructureCapacity(
    const kube::InfrastructureTemplate* infrastructure) {
  Quantities out;
  if (infrastructure == nullptr) return out;
  for (const auto& [name, text] : infrastructure->capacity) {
    Resources scratch;
    if (kube::SetResourceAmount(name, text, &scratch).ok()) out[name] = text;
  }
  return out;
}

// Checks the annotation `name` (a quantity, not negative) and sets it as
// `resource`; absent: nothing changes.
Status OverlayAnnotation(const Labels& annotations, const std::string& name,
                         const std::string& resource, Quantities* out) {
  auto it = annotations.find(CapacityKey(name));
  if (it == annotations.end()) return Status::Ok();
  Result<int64_t> parsed = resource == "cpu" ? ParseMilliQuantity(it->second)
                                             : ParseQuantity(it->second);
  if (parsed.ok() && *parsed < 0) {
    parsed = Status::Invalid("quantity \"" + it->second + "\": negative");
  }
  if (!parsed.ok()) {
    return parsed.status().WithContext("annotation " + it->first);
  }
  (*out)[resource] = it->second;
  return Status::Ok();
}

// The extended resource the GPUs are: gpu-type, which CA uses as the
// resource name (e.g. nvidia.com/gpu or amd.com/gpu); empty when not given
// (CA then adds no GPU, whatever gpu-count says).
Result<std::string> GpuResourceName(const Labels& annotations) {
  const std::string type(AnnotationOf(annotations, CapacityKey("gpu-type")));
  if (type.empty()) return type;
  const size_t slash = type.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == type.size() ||
      type.find_first_of(" ,=:", 0) != std::string::npos) {
    return Status::Invalid("annotation " + CapacityKey("gpu-type") + "=\"" +
                           type +
                           "\": want a resource name such as nvidia.com/gpu");
  }
  return type;
}

// The annotations over the template's capacity, key by key.
Status OverlayCapacityAnnotations(const Labels& annotations, Quantities* out) {
  for (const auto& [name, resource] :
       std::array<std::pair<const char*, const char*>, 3>{
           {{"cpu", "cpu"},
            {"memory", "memory"},
            {"ephemeral-disk", "ephemeral-storage"}}}) {
    if (Status s = OverlayAnnotation(annotations, name, resource, out);
        !s.ok()) {
      return s;
    }
  }
  // As CA: pods always comes from maxPods, or its default.
  (*out)["pods"] = std::to_string(kDefaultMaxPods);
  if (Status s = OverlayAnnotation(annotations, "maxPods", "pods", out);
      !s.ok()) {
    return s;
  }
  Result<std::string> gpu_resource = GpuResourceName(annotations);
  if (!gpu_resource.ok()) return gpu_resource.status();
  Quantities gpus;
  if (Status s = OverlayAnnotation(annotations, "gpu-count", "gpus", &gpus);
      !s.ok()) {
    return s;
  }
  Result<int64_t> count = ParseQuantity(gpus["gpus"]);
  if (!gpu_resource->empty() && count.ok() && *count > 0) {
    (*out)[*gpu_resource] = gpus["gpus"];
  }
  return Status::Ok();
}

// Labels, later wins, as CA's buildTemplateLabels.
Result<Labels> TemplateLabels(const kube::ClusterApiObject& group,
                              const kube::InfrastructureTemplate* infra,
                              std::string_view default_arch) {
  Labels out = {{kArchLabel, std::string(default_arch)}, {kOsLabel, "linux"}};
  if (infra != nullptr && !infra->architecture.empty()) {
    out[kArchLabel] = infra->architecture;
  }
  if (infra != nullptr && !infra->operating_system.empty()) {
    out[kOsLabel] = infra->operating_system;
  }
  for (const auto& [key, value] : group.machine_labels) {
    if (IsClusterApiManagedLabel(key)) out[key] = value;
  }
  Result<Labels> annotated = ParseLabels(
      std::string(AnnotationOf(group.annotations, CapacityKey("labels"))));
  if (!annotated.ok()) {
    return annotated.status().WithContext("annotation " +
                                          CapacityKey("labels"));
  }
  for (const auto& [key, value] : *annotated) out[key] = value;
  return out;
}

// The machines' template's taints, then the annotation's (same key and
// effect: the annotation's value).
Result<std::vector<Taint>> TemplateTaints(const kube::ClusterApiObject& group) {
  Result<std::vector<Taint>> annotated = ParseTaints(
      std::string(AnnotationOf(group.annotations, CapacityKey("taints"))));
  if (!annotated.ok()) {
    return annotated.status().WithContext("annotation " +
                                          CapacityKey("taints"));
  }
  std::vector<Taint> out;
  for (const Taint& taint : group.machine_taints) {
    bool overridden = false;
    for (const Taint& mine : *annotated) {
      overridden |= mine.key == taint.key && mine.effect == taint.effect;
    }
    if (!overridden) out.push_back(taint);
  }
  out.insert(out.end(), annotated->begin(), annotated->end());
  return out;
}

}  // namespace

bool IsClusterApiManagedLabel(std::string_view key) {
  const size_t slash = key.find('/');
  if (slash == std::string_view::npos) return false;
  const std::string_view domain = key.substr(0, slash);
  if (domain == "node-role.kubernetes.io") return true;
  for (std::string_view managed :
       {"node-restriction.kubernetes.io", "node.cluster.x-k8s.io"}) {
    if (domain == managed ||
        (domain.size() > managed.size() && domain.ends_with(managed) &&
         domain[domain.size() - managed.size() - 1] == '.')) {
      return true;
    }
  }
  return false;
}

std::string ScaleFromZeroDefaultArch(std::string_view env,
                                     std::string* warning) {
  if (env.empty()) return "amd64";
  for (std::string_view arch : {"amd64", "arm64", "ppc64le", "s390x"}) {
    if (env == arch) return std::string(arch);
  }
  *warning = "CAPI_SCALE_ZERO_DEFAULT_ARCH=\"" + std::string(env) +
             "\" is not one of amd64, arm64, ppc64le, s390x; amd64 is used";
  return "amd64";
}

Result<std::optional<NodeTemplate>> ScaleFromZeroTemplate(
    const kube::ClusterApiObject& group,
    const kube::InfrastructureTemplate* infrastructure,
    std::string_view default_arch) {
  Quantities quantities = InfrastructureCapacity(infrastructure);
  if (Status s = OverlayCapacityAnnotations(group.annotations, &quantities);
      !s.ok()) {
    return s;
  }
  NodeTemplate t;
  Result<Labels> labels = TemplateLabels(group, infrastructure, default_arch);
  if (!labels.ok()) return labels.status();
  t.labels = *std::move(labels);
  Result<std::vector<Taint>> taints = TemplateTaints(group);
  if (!taints.ok()) return taints.status();
  t.taints = *std::move(taints);
  Result<VolumeLimits> drivers = ParseCsiDrivers(
      std::string(AnnotationOf(group.annotations, CapacityKey("csi-driver"))));
  if (!drivers.ok()) {
    return drivers.status().WithContext("annotation " +
                                        CapacityKey("csi-driver"));
  }
  t.volume_limits = *std::move(drivers);
  // As Cluster Autoscaler: scaling from zero needs both.
  if (!quantities.contains("cpu") || !quantities.contains("memory")) {
    return std::optional<NodeTemplate>();
  }
  for (const auto& [name, text] : quantities) {
    if (Status s = kube::SetResourceAmount(name, text, &t.allocatable);
        !s.ok()) {
      return s.WithContext("resource " + name);
    }
  }
  return std::optional<NodeTemplate>(std::move(t));
}

Result<std::optional<NodeTemplate>> TemplateFromCapacityAnnotations(
    const Labels& annotations) {
  kube::ClusterApiObject group;
  group.annotations = annotations;
  return ScaleFromZeroTemplate(group, nullptr);
}

}  // namespace propscaler::nodescale
