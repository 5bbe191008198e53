#include "kube/wire/snapshot_json.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <optional>

#include "common/duration.h"
#include "common/quantity.h"
#include "common/utc_time.h"
#include "kube/model/in_tree_volumes.h"
#include "kube/wire/json_fields.h"
#include "kube/wire/object_json.h"
#include "kube/wire/pod_field_values.h"

namespace propscaler::kube {
namespace {

using rapidjson::Value;

using namespace json;  // NOLINT: the field decoders, for every decoder here

Result<std::vector<Toleration>> TolerationsAt(const Value& spec,
                                              const std::string& path) {
  const Value* array = nullptr;
  PS_ASSIGN_OR_RETURN(array, ArrayAt(spec, "tolerations", path));
  std::vector<Toleration> out;
  if (array == nullptr) return out;
  for (size_t i = 0; i < array->Size(); ++i) {
    const std::string at = Index(Join(path, "tolerations"), i);
    const Value& item = (*array)[i];
    Toleration t;
    std::string op;
    std::string effect;
    PS_ASSIGN_OR_RETURN(t.key, StringAt(item, "key", at));
    PS_ASSIGN_OR_RETURN(op, StringAt(item, "operator", at));
    PS_ASSIGN_OR_RETURN(t.value, StringAt(item, "value", at));
    PS_ASSIGN_OR_RETURN(effect, StringAt(item, "effect", at));
    PS_ASSIGN_OR_RETURN(t.op, ParseTolerationOp(op, Join(at, "operator")));
    t.any_effect = effect.empty();
    if (!t.any_effect) {
      PS_ASSIGN_OR_RETURN(t.effect,
                          ParseTaintEffect(effect, Join(at, "effect")));
    }
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace

namespace {

// One term at `path`; nullopt for a term of matchFields alone (DaemonSet
// pods pin a node by name that way), which says nothing about a new node's
// labels.
Result<std::optional<NodeSelectorTerm>> NodeSelectorTermAt(
    const Value& item, const std::string& path) {
  const Value* expressions = nullptr;
  PS_ASSIGN_OR_RETURN(expressions, ArrayAt(item, "matchExpressions", path));
  NodeSelectorTerm term;
  if (expressions == nullptr || expressions->Empty()) {
    if (Member(item, "matchFields") != nullptr) {
      return std::optional<NodeSelectorTerm>();
    }
    return std::optional<NodeSelectorTerm>(term);
  }
  for (size_t j = 0; j < expressions->Size(); ++j) {
    const std::string req_at = Index(Join(path, "matchExpressions"), j);
    const Value& expression = (*expressions)[j];
    NodeSelectorRequirement req;
    std::string op;
    PS_ASSIGN_OR_RETURN(req.key, StringAt(expression, "key", req_at));
    PS_ASSIGN_OR_RETURN(op, StringAt(expression, "operator", req_at));
    PS_ASSIGN_OR_RETURN(req.op,
                        ParseNodeSelectorOp(op, Join(req_at, "operator")));
    PS_ASSIGN_OR_RETURN(req.values, StringsAt(expression, "values", req_at));
    term.requirements.push_back(std::move(req));
  }
  return std::optional<NodeSelectorTerm>(std::move(term));
}

}  // namespace

Result<std::vector<NodeSelectorTerm>> NodeSelectorTermsAt(
    const Value& selector, const std::string& path) {
  std::vector<NodeSelectorTerm> out;
  const Value* terms = nullptr;
  PS_ASSIGN_OR_RETURN(terms, ArrayAt(selector, "nodeSelectorTerms", path));
  for (size_t i = 0; terms != nullptr && i < terms->Size(); ++i) {
    std::optional<NodeSelectorTerm> term;
    PS_ASSIGN_OR_RETURN(
        term, NodeSelectorTermAt((*terms)[i],
                                 Index(Join(path, "nodeSelectorTerms"), i)));
    if (term) out.push_back(std::move(*term));
  }
  return out;
}

Result<ControllerRef> ControllerOwnerOf(const Value& metadata,
                                        const std::string& path) {
  ControllerRef owner;
  const Value* owners = nullptr;
  PS_ASSIGN_OR_RETURN(owners, ArrayAt(metadata, "ownerReferences", path));
  for (size_t i = 0; owners != nullptr && i < owners->Size(); ++i) {
    const Value* controller = Member((*owners)[i], "controller");
    if (controller == nullptr || !controller->IsBool() ||
        !controller->GetBool()) {
      continue;
    }
    const std::string at = Index(Join(path, "ownerReferences"), i);
    PS_ASSIGN_OR_RETURN(owner.kind, StringAt((*owners)[i], "kind", at));
    PS_ASSIGN_OR_RETURN(owner.name, StringAt((*owners)[i], "name", at));
  }
  return owner;
}

Result<LabelSelector> LabelSelectorOf(const Value& selector,
                                      const std::string& at) {
  std::vector<LabelRequirement> requirements;
  Labels match_labels;
  PS_ASSIGN_OR_RETURN(match_labels, StringMapAt(selector, "matchLabels", at));
  for (const auto& [key, value] : match_labels) {
    requirements.push_back({key, LabelRequirement::Op::kEquals, {value}});
  }
  const Value* expressions = nullptr;
  PS_ASSIGN_OR_RETURN(expressions, ArrayAt(selector, "matchExpressions", at));
  for (size_t j = 0; expressions != nullptr && j < expressions->Size(); ++j) {
    const std::string req_at = Index(Join(at, "matchExpressions"), j);
    LabelRequirement req;
    std::string op;
    PS_ASSIGN_OR_RETURN(req.key, StringAt((*expressions)[j], "key", req_at));
    PS_ASSIGN_OR_RETURN(op, StringAt((*expressions)[j], "operator", req_at));
    PS_ASSIGN_OR_RETURN(req.op,
                        ParseLabelSelectorOp(op, Join(req_at, "operator")));
    PS_ASSIGN_OR_RETURN(req.values,
                        StringsAt((*expressions)[j], "values", req_at));
    requirements.push_back(std::move(req));
  }
  return LabelSelector(std::move(requirements));
}

namespace {

Result<std::vector<NodeSelectorTerm>> NodeAffinityAt(const Value& spec,
                                                     const std::string& path) {
  const Value* affinity = Member(spec, "affinity");
  const Value* node = affinity ? Member(*affinity, "nodeAffinity") : nullptr;
  const Value* required =
      node ? Member(*node, "requiredDuringSchedulingIgnoredDuringExecution")
           : nullptr;
  if (required == nullptr) return std::vector<NodeSelectorTerm>();
  return NodeSelectorTermsAt(
      *required, Join(path,
                      "affinity.nodeAffinity."
                      "requiredDuringSchedulingIgnoredDuringExecution"));
}

// A preferred term's weight: 1 to 100, as the API server admits.
Result<int64_t> WeightAt(const Value& item, const std::string& path) {
  int64_t weight = 0;
  PS_ASSIGN_OR_RETURN(weight, IntegerAt(item, "weight", path));
  if (weight < 1 || weight > 100) {
    return Status::Invalid(Join(path, "weight") + ": " +
                           std::to_string(weight) + " is not from 1 to 100");
  }
  return weight;
}

// affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution.
Result<std::vector<WeightedNodeSelectorTerm>> PreferredNodeAffinityAt(
    const Value& spec, const std::string& path) {
  std::vector<WeightedNodeSelectorTerm> out;
  const Value* affinity = Member(spec, "affinity");
  const Value* node = affinity ? Member(*affinity, "nodeAffinity") : nullptr;
  if (node == nullptr) return out;
  const std::string base =
      Join(path,
           "affinity.nodeAffinity."
           "preferredDuringSchedulingIgnoredDuringExecution");
  const Value* terms = nullptr;
  PS_ASSIGN_OR_RETURN(
      terms, ArrayAt(*node, "preferredDuringSchedulingIgnoredDuringExecution",
                     Join(path, "affinity.nodeAffinity")));
  for (size_t i = 0; terms != nullptr && i < terms->Size(); ++i) {
    const std::string at = Index(base, i);
    WeightedNodeSelectorTerm weighted;
    PS_ASSIGN_OR_RETURN(weighted.weight, WeightAt((*terms)[i], at));
    const Value* preference = nullptr;
    PS_ASSIGN_OR_RETURN(preference, ObjectAt((*terms)[i], "preference", at));
    if (preference == nullptr) {
      return Status::Invalid(Join(at, "preference") + ": missing");
    }
    std::optional<NodeSelectorTerm> term;
    PS_ASSIGN_OR_RETURN(
        term, NodeSelectorTermAt(*preference, Join(at, "preference")));
    if (!term) continue;
    weighted.term = std::move(*term);
    out.push_back(std::move(weighted));
  }
  return out;
}

Result<LabelSelector> SelectorAt(const Value& term, const std::string& path) {
  const Value* selector = Member(term, "labelSelector");
  if (selector == nullptr) return LabelSelector();
  return LabelSelectorOf(*selector, Join(path, "labelSelector"));
}

// An IntOrString that allows no disruption at all: 0 or "0%" for
// maxUnavailable, "100%" for minAvailable.
bool IntOrStringIs(const Value* value, int64_t number,
                   std::string_view percent) {
  if (value == nullptr) return false;
  if (value->IsInt64()) return value->GetInt64() == number;
  return value->IsString() && std::string_view(value->GetString()) == percent;
}

Result<PdbState> DecodePdb(const Value& item, const std::string& path,
                           bool empty_selector_matches_all) {
  PdbState pdb;
  const Value* metadata = nullptr;
  PS_ASSIGN_OR_RETURN(metadata, ObjectAt(item, "metadata", path));
  if (metadata == nullptr) {
    return Status::Invalid(Join(path, "metadata") + ": missing");
  }
  const std::string meta = Join(path, "metadata");
  PS_ASSIGN_OR_RETURN(pdb.name, StringAt(*metadata, "name", meta));
  if (pdb.name.empty())
    return Status::Invalid(Join(meta, "name") + ": missing");
  PS_ASSIGN_OR_RETURN(pdb.namespace_, StringAt(*metadata, "namespace", meta));
  if (pdb.namespace_.empty()) pdb.namespace_ = "default";
  const Value* spec = nullptr;
  PS_ASSIGN_OR_RETURN(spec, ObjectAt(item, "spec", path));
  const std::string spec_at = Join(path, "spec");
  const Value* selector = nullptr;
  if (spec != nullptr) {
    PS_ASSIGN_OR_RETURN(selector, ObjectAt(*spec, "selector", spec_at));
  }
  // policy/v1beta1: an empty selector matches no pod; policy/v1: every pod
  // of the namespace. A null selector matches none in both.
  pdb.no_selector = selector == nullptr || (!empty_selector_matches_all &&
                                            selector->MemberCount() == 0);
  if (selector != nullptr) {
    PS_ASSIGN_OR_RETURN(pdb.selector,
                        LabelSelectorOf(*selector, Join(spec_at, "selector")));
  }
  if (spec != nullptr) {
    pdb.blocks_all = IntOrStringIs(Member(*spec, "maxUnavailable"), 0, "0%") ||
                     IntOrStringIs(Member(*spec, "minAvailable"), -1, "100%");
  }
  const Value* status = Member(item, "status");
  if (status != nullptr && Member(*status, "disruptionsAllowed") != nullptr) {
    const Value& allowed = *Member(*status, "disruptionsAllowed");
    if (!allowed.IsInt64()) {
      return WrongType(Join(path, "status.disruptionsAllowed"), "an integer",
                       allowed);
    }
    pdb.disruptions_allowed = allowed.GetInt64();
  }
  return pdb;
}

Result<PodAffinityTerm> PodAffinityTermAt(const Value& item,
                                          const std::string& at) {
  PodAffinityTerm term;
  PS_ASSIGN_OR_RETURN(term.topology_key, StringAt(item, "topologyKey", at));
  if (Status s = CheckTopologyKey(term.topology_key, Join(at, "topologyKey"));
      !s.ok()) {
    return s;
  }
  PS_ASSIGN_OR_RETURN(term.selector, SelectorAt(item, at));
  PS_ASSIGN_OR_RETURN(term.namespaces, StringsAt(item, "namespaces", at));
  return term;
}

constexpr char kRequiredTerms[] =
    "requiredDuringSchedulingIgnoredDuringExecution";
constexpr char kPreferredTerms[] =
    "preferredDuringSchedulingIgnoredDuringExecution";

// The required or `preferred` terms of affinity.podAffinity or
// affinity.podAntiAffinity (`kind`), each with its `weight` (0 for required
// ones).
Result<std::vector<WeightedPodAffinityTerm>> PodAffinityTermsAt(
    const Value& spec, const char* kind, bool preferred,
    const std::string& path) {
  std::vector<WeightedPodAffinityTerm> out;
  const Value* affinity = Member(spec, "affinity");
  const Value* block = affinity ? Member(*affinity, kind) : nullptr;
  if (block == nullptr) return out;
  const std::string base = Join(Join(path, "affinity"), kind);
  const char* field = preferred ? kPreferredTerms : kRequiredTerms;
  const Value* terms = nullptr;
  PS_ASSIGN_OR_RETURN(terms, ArrayAt(*block, field, base));
  for (size_t i = 0; terms != nullptr && i < terms->Size(); ++i) {
    const std::string at = Index(Join(base, field), i);
    WeightedPodAffinityTerm weighted;
    const Value* term = &(*terms)[i];
    std::string term_at = at;
    if (preferred) {
      PS_ASSIGN_OR_RETURN(weighted.weight, WeightAt(*term, at));
      PS_ASSIGN_OR_RETURN(term, ObjectAt(*term, "podAffinityTerm", at));
      term_at = Join(at, "podAffinityTerm");
      if (term == nullptr) return Status::Invalid(term_at + ": missing");
    }
    PS_ASSIGN_OR_RETURN(weighted.term, PodAffinityTermAt(*term, term_at));
    out.push_back(std::move(weighted));
  }
  return out;
}

// The required terms of affinity.podAffinity or affinity.podAntiAffinity.
Result<std::vector<PodAffinityTerm>> PodAffinityAt(const Value& spec,
                                                   const char* kind,
                                                   const std::string& path) {
  std::vector<WeightedPodAffinityTerm> weighted;
  PS_ASSIGN_OR_RETURN(weighted, PodAffinityTermsAt(spec, kind, false, path));
  std::vector<PodAffinityTerm> out;
  for (WeightedPodAffinityTerm& term : weighted) {
    out.push_back(std::move(term.term));
  }
  return out;
}

// topologySpreadConstraints with whenUnsatisfiable `when` (DoNotSchedule
// or ScheduleAnyway).
Result<std::vector<SpreadConstraint>> SpreadAt(const Value& spec,
                                               const std::string& path,
                                               std::string_view want) {
  std::vector<SpreadConstraint> out;
  const Value* constraints = nullptr;
  PS_ASSIGN_OR_RETURN(constraints,
                      ArrayAt(spec, "topologySpreadConstraints", path));
  for (size_t i = 0; constraints != nullptr && i < constraints->Size(); ++i) {
    const Value& item = (*constraints)[i];
    const std::string at = Index(Join(path, "topologySpreadConstraints"), i);
    std::string when;
    PS_ASSIGN_OR_RETURN(when, StringAt(item, "whenUnsatisfiable", at));
    if (when != want) continue;
    SpreadConstraint constraint;
    PS_ASSIGN_OR_RETURN(constraint.max_skew, IntegerAt(item, "maxSkew", at));
    if (Status s = CheckMaxSkew(constraint.max_skew, Join(at, "maxSkew"));
        !s.ok()) {
      return s;
    }
    PS_ASSIGN_OR_RETURN(constraint.topology_key,
                        StringAt(item, "topologyKey", at));
    if (Status s =
            CheckTopologyKey(constraint.topology_key, Join(at, "topologyKey"));
        !s.ok()) {
      return s;
    }
    PS_ASSIGN_OR_RETURN(constraint.selector, SelectorAt(item, at));
    PS_ASSIGN_OR_RETURN(constraint.min_domains,
                        IntegerAt(item, "minDomains", at));
    out.push_back(std::move(constraint));
  }
  return out;
}

// Each of spec.`name`'s containers' resources.`key` ("requests" or
// "limits").
Result<std::vector<Resources>> ContainerResourcesAt(const Value& spec,
                                                    const char* name,
                                                    const char* key,
                                                    const std::string& path) {
  const Value* containers = nullptr;
  PS_ASSIGN_OR_RETURN(containers, ArrayAt(spec, name, path));
  std::vector<Resources> out;
  for (size_t i = 0; containers != nullptr && i < containers->Size(); ++i) {
    const std::string at = Index(Join(path, name), i);
    const Value* resources = Member((*containers)[i], "resources");
    if (resources == nullptr) {
      out.emplace_back();
      continue;
    }
    Resources amounts;
    PS_ASSIGN_OR_RETURN(amounts,
                        ResourcesAt(*resources, key, Join(at, "resources")));
    out.push_back(std::move(amounts));
  }
  return out;
}

// The hostPorts of spec.containers (init containers are gone before the
// pod runs).
Result<std::vector<HostPort>> HostPortsAt(const Value& spec,
                                          const std::string& path) {
  const Value* containers = nullptr;
  PS_ASSIGN_OR_RETURN(containers, ArrayAt(spec, "containers", path));
  std::vector<HostPort> out;
  for (size_t i = 0; containers != nullptr && i < containers->Size(); ++i) {
    const std::string at = Index(Join(path, "containers"), i);
    const Value* ports = nullptr;
    PS_ASSIGN_OR_RETURN(ports, ArrayAt((*containers)[i], "ports", at));
    for (size_t j = 0; ports != nullptr && j < ports->Size(); ++j) {
      const std::string port_at = Index(Join(at, "ports"), j);
      HostPort port;
      PS_ASSIGN_OR_RETURN(port.port,
                          IntegerAt((*ports)[j], "hostPort", port_at));
      if (port.port == 0) continue;
      std::string protocol;
      PS_ASSIGN_OR_RETURN(protocol, StringAt((*ports)[j], "protocol", port_at));
      if (!protocol.empty()) port.protocol = protocol;
      out.push_back(std::move(port));
    }
  }
  return out;
}

// The volume's disk when it is an attachable in-tree disk or iSCSI.
Result<std::optional<InlineDisk>> InlineDiskOf(const Value& volume,
                                               const std::string& at) {
  auto read =
      [&](const char* source_name, const char* handle_field,
          std::string_view driver) -> Result<std::optional<InlineDisk>> {
    const Value* source = Member(volume, source_name);
    if (source == nullptr) return std::optional<InlineDisk>();
    const std::string source_at = Join(at, source_name);
    InlineDisk disk;
    disk.driver = std::string(driver);
    PS_ASSIGN_OR_RETURN(disk.handle,
                        StringAt(*source, handle_field, source_at));
    if (const Value* read_only = Member(*source, "readOnly")) {
      if (!read_only->IsBool()) {
        return WrongType(Join(source_at, "readOnly"), "a boolean", *read_only);
      }
      disk.read_only = read_only->GetBool();
    }
    return std::optional<InlineDisk>(std::move(disk));
  };
  for (const InTreePlugin& plugin : kInTreePlugins) {
    if (plugin.limit_key.empty()) continue;  // not an attachable disk
    std::optional<InlineDisk> disk;
    PS_ASSIGN_OR_RETURN(
        disk, read(plugin.pv_source, plugin.handle_field, plugin.csi_driver));
    if (disk) return disk;
  }
  return read("iscsi", "iqn", kIscsiDisk);
}

// Whether a volume is local to the node (emptyDir, hostPath), the claims
// the volumes use, and their inline disks.
Status DecodeVolumes(const Value& spec, const std::string& path,
                     PodState* pod) {
  const Value* volumes = nullptr;
  PS_ASSIGN_OR_RETURN(volumes, ArrayAt(spec, "volumes", path));
  std::vector<PodClaim> claims;
  std::vector<InlineDisk> disks;
  for (size_t i = 0; volumes != nullptr && i < volumes->Size(); ++i) {
    const Value& volume = (*volumes)[i];
    const std::string at = Index(Join(path, "volumes"), i);
    if (Member(volume, "emptyDir") || Member(volume, "hostPath")) {
      pod->has_local_storage = true;
    }
    std::optional<InlineDisk> disk;
    PS_ASSIGN_OR_RETURN(disk, InlineDiskOf(volume, at));
    if (disk) disks.push_back(std::move(*disk));
    PodClaim claim;
    if (const Value* source = Member(volume, "persistentVolumeClaim")) {
      PS_ASSIGN_OR_RETURN(
          claim.name,
          StringAt(*source, "claimName", Join(at, "persistentVolumeClaim")));
    } else if (Member(volume, "ephemeral") != nullptr) {
      PS_ASSIGN_OR_RETURN(claim.name, StringAt(volume, "name", at));
      claim.ephemeral = true;
    }
    if (claim.name.empty()) continue;
    claims.push_back(std::move(claim));
  }
  pod->claims = std::move(claims);
  pod->inline_disks = std::move(disks);
  return Status::Ok();
}

Status DecodeOwner(const Value& metadata, const std::string& path,
                   PodState* pod) {
  ControllerRef owner;
  PS_ASSIGN_OR_RETURN(owner, ControllerOwnerOf(metadata, path));
  pod->owner_kind = std::move(owner.kind);
  pod->owner_name = std::move(owner.name);
  return Status::Ok();
}

// The containers' resources.`key` ("requests" or "limits") and the
// overhead, summed by `sum` (EffectivePodRequests or EffectivePodLimits).
Result<Resources> PodResourcesAt(const Value& spec, const char* key,
                                 const std::string& path,
                                 Resources (*sum)(const std::vector<Resources>&,
                                                  const std::vector<Resources>&,
                                                  const Resources&)) {
  std::vector<Resources> containers;
  std::vector<Resources> inits;
  Resources overhead;
  PS_ASSIGN_OR_RETURN(containers,
                      ContainerResourcesAt(spec, "containers", key, path));
  PS_ASSIGN_OR_RETURN(inits,
                      ContainerResourcesAt(spec, "initContainers", key, path));
  PS_ASSIGN_OR_RETURN(overhead, ResourcesAt(spec, "overhead", path));
  return sum(containers, inits, overhead);
}

Status DecodePodSpec(const Value& spec, const std::string& path,
                     PodState* pod) {
  PS_ASSIGN_OR_RETURN(pod->requests, PodResourcesAt(spec, "requests", path,
                                                    &EffectivePodRequests));
  PS_ASSIGN_OR_RETURN(pod->node_name, StringAt(spec, "nodeName", path));
  PS_ASSIGN_OR_RETURN(pod->node_selector,
                      StringMapAt(spec, "nodeSelector", path));
  PS_ASSIGN_OR_RETURN(pod->node_affinity, NodeAffinityAt(spec, path));
  PS_ASSIGN_OR_RETURN(pod->tolerations, TolerationsAt(spec, path));
  PS_ASSIGN_OR_RETURN(pod->affinity, PodAffinityAt(spec, "podAffinity", path));
  PS_ASSIGN_OR_RETURN(pod->anti_affinity,
                      PodAffinityAt(spec, "podAntiAffinity", path));
  PS_ASSIGN_OR_RETURN(pod->spread, SpreadAt(spec, path, "DoNotSchedule"));
  PodPreferences preferences;
  PS_ASSIGN_OR_RETURN(preferences.node_affinity,
                      PreferredNodeAffinityAt(spec, path));
  PS_ASSIGN_OR_RETURN(preferences.affinity,
                      PodAffinityTermsAt(spec, "podAffinity", true, path));
  PS_ASSIGN_OR_RETURN(preferences.anti_affinity,
                      PodAffinityTermsAt(spec, "podAntiAffinity", true, path));
  PS_ASSIGN_OR_RETURN(preferences.spread,
                      SpreadAt(spec, path, "ScheduleAnyway"));
  pod->preferences = std::move(preferences);
  PS_ASSIGN_OR_RETURN(pod->host_ports, HostPortsAt(spec, path));
  if (Status s = DecodeVolumes(spec, path, pod); !s.ok()) return s;
  if (const Value* priority = Member(spec, "priority")) {
    if (!priority->IsInt()) {
      return WrongType(Join(path, "priority"), "a 32-bit integer", *priority);
    }
    pod->priority = priority->GetInt();
  }
  if (Member(spec, "terminationGracePeriodSeconds") != nullptr) {
    PS_ASSIGN_OR_RETURN(pod->termination_grace_seconds,
                        IntegerAt(spec, "terminationGracePeriodSeconds", path));
  }
  return Status::Ok();
}

Result<PodState> DecodePod(const Value& item, const std::string& path) {
  PodState pod;
  const Value* metadata = nullptr;
  PS_ASSIGN_OR_RETURN(metadata, ObjectAt(item, "metadata", path));
  if (metadata == nullptr) {
    return Status::Invalid(Join(path, "metadata") + ": missing");
  }
  const std::string meta = Join(path, "metadata");
  PS_ASSIGN_OR_RETURN(pod.name, StringAt(*metadata, "name", meta));
  if (pod.name.empty())
    return Status::Invalid(Join(meta, "name") + ": missing");
  PS_ASSIGN_OR_RETURN(pod.namespace_, StringAt(*metadata, "namespace", meta));
  if (pod.namespace_.empty()) pod.namespace_ = "default";
  PS_ASSIGN_OR_RETURN(pod.labels, StringMapAt(*metadata, "labels", meta));
  Labels annotations;
  PS_ASSIGN_OR_RETURN(annotations, StringMapAt(*metadata, "annotations", meta));
  std::erase_if(annotations, [](const auto& annotation) {
    return !IsKeptPodAnnotation(annotation.first);
  });
  pod.annotations = std::move(annotations);
  if (Status s = DecodeOwner(*metadata, meta, &pod); !s.ok()) return s;
  const Value* spec = nullptr;
  PS_ASSIGN_OR_RETURN(spec, ObjectAt(item, "spec", path));
  if (spec != nullptr) {
    if (Status s = DecodePodSpec(*spec, Join(path, "spec"), &pod); !s.ok()) {
      return s;
    }
  } else {
    pod.requests.pods = 1;
  }
  const Value* status = Member(item, "status");
  std::string phase;
  if (status != nullptr) {
    PS_ASSIGN_OR_RETURN(phase,
                        StringAt(*status, "phase", Join(path, "status")));
    std::string start_time;
    PS_ASSIGN_OR_RETURN(start_time,
                        StringAt(*status, "startTime", Join(path, "status")));
    if (!start_time.empty()) pod.start_time = ParseRfc3339(start_time);
  }
  pod.terminated = phase == "Succeeded" || phase == "Failed";
  return pod;
}

bool ReadyConditionTrue(const Value& status) {
  const Value* conditions = Member(status, "conditions");
  if (conditions == nullptr || !conditions->IsArray()) return false;
  for (const Value& condition : conditions->GetArray()) {
    const Value* type = Member(condition, "type");
    const Value* value = Member(condition, "status");
    if (type && type->IsString() &&
        std::string_view(type->GetString()) == "Ready") {
      return value && value->IsString() &&
             std::string_view(value->GetString()) == "True";
    }
  }
  return false;
}

Result<NodeState> DecodeNode(const Value& item, const std::string& path) {
  NodeState node;
  const Value* metadata = nullptr;
  PS_ASSIGN_OR_RETURN(metadata, ObjectAt(item, "metadata", path));
  if (metadata == nullptr) {
    return Status::Invalid(Join(path, "metadata") + ": missing");
  }
  const std::string meta = Join(path, "metadata");
  PS_ASSIGN_OR_RETURN(node.name, StringAt(*metadata, "name", meta));
  if (node.name.empty()) {
    return Status::Invalid(Join(meta, "name") + ": missing");
  }
  PS_ASSIGN_OR_RETURN(node.labels, StringMapAt(*metadata, "labels", meta));
  PS_ASSIGN_OR_RETURN(node.annotations,
                      StringMapAt(*metadata, "annotations", meta));
  std::string created;
  PS_ASSIGN_OR_RETURN(created, StringAt(*metadata, "creationTimestamp", meta));
  if (!created.empty()) node.created = ParseRfc3339(created);
  if (const Value* spec = Member(item, "spec")) {
    const Value* unschedulable = Member(*spec, "unschedulable");
    node.unschedulable = unschedulable != nullptr && unschedulable->IsBool() &&
                         unschedulable->GetBool();
    PS_ASSIGN_OR_RETURN(node.taints,
                        TaintsAt(*spec, "taints", Join(path, "spec")));
    PS_ASSIGN_OR_RETURN(node.provider_id,
                        StringAt(*spec, "providerID", Join(path, "spec")));
  }
  if (const Value* status = Member(item, "status")) {
    PS_ASSIGN_OR_RETURN(node.allocatable, ResourcesAt(*status, "allocatable",
                                                      Join(path, "status")));
    node.ready = ReadyConditionTrue(*status);
  }
  return node;
}

template <typename T>
Result<std::vector<T>> DecodeItems(std::string_view text,
                                   Result<T> (*decode)(const Value&,
                                                       const std::string&)) {
  rapidjson::Document doc;
  PS_ASSIGN_OR_RETURN(doc, ParseObject(text));
  const Value* items = nullptr;
  PS_ASSIGN_OR_RETURN(items, ArrayAt(doc, "items", ""));
  if (items == nullptr) return Status::Invalid("items: missing");
  std::vector<T> out;
  out.reserve(items->Size());
  for (size_t i = 0; i < items->Size(); ++i) {
    T item;
    PS_ASSIGN_OR_RETURN(item, decode((*items)[i], Index("items", i)));
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace

Result<std::vector<Taint>> TaintsAt(const Value& object, const char* name,
                                    const std::string& path) {
  const Value* array = nullptr;
  PS_ASSIGN_OR_RETURN(array, ArrayAt(object, name, path));
  std::vector<Taint> out;
  if (array == nullptr) return out;
  for (size_t i = 0; i < array->Size(); ++i) {
    const std::string at = Index(Join(path, name), i);
    const Value& item = (*array)[i];
    Taint taint;
    std::string effect;
    PS_ASSIGN_OR_RETURN(taint.key, StringAt(item, "key", at));
    PS_ASSIGN_OR_RETURN(taint.value, StringAt(item, "value", at));
    PS_ASSIGN_OR_RETURN(effect, StringAt(item, "effect", at));
    PS_ASSIGN_OR_RETURN(taint.effect,
                        ParseTaintEffect(effect, Join(at, "effect")));
    out.push_back(std::move(taint));
  }
  return out;
}

Result<std::vector<NodeState>> DecodeNodeListJson(std::string_view text) {
  return DecodeItems<NodeState>(text, &DecodeNode);
}

Result<std::vector<PodState>> DecodePodListJson(std::string_view text) {
  return DecodeItems<PodState>(text, &DecodePod);
}

Result<Resources> PodLimitsAt(const rapidjson::Value& spec,
                              const std::string& path) {
  if (!spec.IsObject()) return Resources{};
  return PodResourcesAt(spec, "limits", path, &EffectivePodLimits);
}

Result<PodState> DecodePodObject(const rapidjson::Value& item,
                                 const std::string& path) {
  return DecodePod(item, path);
}

Result<NodeState> DecodeNodeObject(const rapidjson::Value& item,
                                   const std::string& path) {
  return DecodeNode(item, path);
}

Result<PdbState> DecodePdbObject(const rapidjson::Value& item,
                                 const std::string& path, PdbVersion version) {
  return DecodePdb(item, path, version == PdbVersion::kV1);
}

Result<std::vector<PdbState>> DecodePdbListJson(std::string_view text) {
  // `kubectl get pdb -o json` prints the newest version the server has;
  // files are read as policy/v1 unless they say v1beta1.
  rapidjson::Document doc;
  PS_ASSIGN_OR_RETURN(doc, ParseObject(text));
  std::string api_version;
  PS_ASSIGN_OR_RETURN(api_version, StringAt(doc, "apiVersion", ""));
  const bool v1 = api_version != "policy/v1beta1";
  const Value* items = nullptr;
  PS_ASSIGN_OR_RETURN(items, ArrayAt(doc, "items", ""));
  std::vector<PdbState> out;
  for (size_t i = 0; items != nullptr && i < items->Size(); ++i) {
    PdbState pdb;
    PS_ASSIGN_OR_RETURN(pdb, DecodePdb((*items)[i], Index("items", i), v1));
    out.push_back(std::move(pdb));
  }
  return out;
}

}  // namespace propscaler::kube
