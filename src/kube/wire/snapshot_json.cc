#include "kube/wire/snapshot_json.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "common/duration.h"
#include "common/quantity.h"
#include "common/utc_time.h"
#include "kube/wire/json_fields.h"
#include "kube/wire/object_json.h"
#include "kube/wire/pod_field_values.h"

namespace propscaler::kube {
namespace {

using rapidjson::Value;

using namespace json;  // NOLINT: the field decoders, for every decoder here

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

// Terms with only matchFields (DaemonSet pods pin a node by name that way)
// say nothing about a new node's labels and are dropped.
Result<std::vector<NodeSelectorTerm>> NodeAffinityAt(const Value& spec,
                                                     const std::string& path) {
  std::vector<NodeSelectorTerm> out;
  const Value* affinity = Member(spec, "affinity");
  const Value* node = affinity ? Member(*affinity, "nodeAffinity") : nullptr;
  const Value* required =
      node ? Member(*node, "requiredDuringSchedulingIgnoredDuringExecution")
           : nullptr;
  if (required == nullptr) return out;
  const std::string base =
      Join(path,
           "affinity.nodeAffinity."
           "requiredDuringSchedulingIgnoredDuringExecution");
  const Value* terms = nullptr;
  PS_ASSIGN_OR_RETURN(terms, ArrayAt(*required, "nodeSelectorTerms", base));
  if (terms == nullptr) return out;
  for (size_t i = 0; i < terms->Size(); ++i) {
    const std::string at = Index(Join(base, "nodeSelectorTerms"), i);
    const Value* expressions = nullptr;
    PS_ASSIGN_OR_RETURN(expressions,
                        ArrayAt((*terms)[i], "matchExpressions", at));
    if (expressions == nullptr || expressions->Empty()) {
      if (Member((*terms)[i], "matchFields") != nullptr) continue;
      out.emplace_back();
      continue;
    }
    NodeSelectorTerm term;
    for (size_t j = 0; j < expressions->Size(); ++j) {
      const std::string req_at = Index(Join(at, "matchExpressions"), j);
      const Value& item = (*expressions)[j];
      NodeSelectorRequirement req;
      std::string op;
      PS_ASSIGN_OR_RETURN(req.key, StringAt(item, "key", req_at));
      PS_ASSIGN_OR_RETURN(op, StringAt(item, "operator", req_at));
      PS_ASSIGN_OR_RETURN(req.op,
                          ParseNodeSelectorOp(op, Join(req_at, "operator")));
      PS_ASSIGN_OR_RETURN(req.values, StringsAt(item, "values", req_at));
      term.requirements.push_back(std::move(req));
    }
    out.push_back(std::move(term));
  }
  return out;
}

// A metav1.LabelSelector object at `at`.
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

// The required terms of affinity.podAffinity or affinity.podAntiAffinity
// (`kind`); preferred ones never block a node.
Result<std::vector<PodAffinityTerm>> PodAffinityAt(const Value& spec,
                                                   const char* kind,
                                                   const std::string& path) {
  std::vector<PodAffinityTerm> out;
  const Value* affinity = Member(spec, "affinity");
  const Value* block = affinity ? Member(*affinity, kind) : nullptr;
  if (block == nullptr) return out;
  const std::string base = Join(Join(path, "affinity"), kind);
  const Value* terms = nullptr;
  PS_ASSIGN_OR_RETURN(
      terms,
      ArrayAt(*block, "requiredDuringSchedulingIgnoredDuringExecution", base));
  for (size_t i = 0; terms != nullptr && i < terms->Size(); ++i) {
    const std::string at =
        Index(Join(base, "requiredDuringSchedulingIgnoredDuringExecution"), i);
    PodAffinityTerm term;
    PS_ASSIGN_OR_RETURN(term.topology_key,
                        StringAt((*terms)[i], "topologyKey", at));
    if (Status s = CheckTopologyKey(term.topology_key, Join(at, "topologyKey"));
        !s.ok()) {
      return s;
    }
    PS_ASSIGN_OR_RETURN(term.selector, SelectorAt((*terms)[i], at));
    PS_ASSIGN_OR_RETURN(term.namespaces,
                        StringsAt((*terms)[i], "namespaces", at));
    out.push_back(std::move(term));
  }
  return out;
}

// topologySpreadConstraints with whenUnsatisfiable DoNotSchedule.
Result<std::vector<SpreadConstraint>> SpreadAt(const Value& spec,
                                               const std::string& path) {
  std::vector<SpreadConstraint> out;
  const Value* constraints = nullptr;
  PS_ASSIGN_OR_RETURN(constraints,
                      ArrayAt(spec, "topologySpreadConstraints", path));
  for (size_t i = 0; constraints != nullptr && i < constraints->Size(); ++i) {
    const Value& item = (*constraints)[i];
    const std::string at = Index(Join(path, "topologySpreadConstraints"), i);
    std::string when;
    PS_ASSIGN_OR_RETURN(when, StringAt(item, "whenUnsatisfiable", at));
    if (when != "DoNotSchedule") continue;
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

Result<std::vector<Resources>> ContainerRequestsAt(const Value& spec,
                                                   const char* name,
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
    Resources requests;
    PS_ASSIGN_OR_RETURN(
        requests, ResourcesAt(*resources, "requests", Join(at, "resources")));
    out.push_back(std::move(requests));
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

bool HasLocalStorage(const Value& spec) {
  const Value* volumes = Member(spec, "volumes");
  if (volumes == nullptr || !volumes->IsArray()) return false;
  for (const Value& volume : volumes->GetArray()) {
    if (Member(volume, "emptyDir") || Member(volume, "hostPath")) return true;
  }
  return false;
}

Status DecodeOwner(const Value& metadata, const std::string& path,
                   PodState* pod) {
  const Value* owners = nullptr;
  PS_ASSIGN_OR_RETURN(owners, ArrayAt(metadata, "ownerReferences", path));
  for (size_t i = 0; owners != nullptr && i < owners->Size(); ++i) {
    const Value* controller = Member((*owners)[i], "controller");
    if (controller == nullptr || !controller->IsBool() ||
        !controller->GetBool()) {
      continue;
    }
    const std::string at = Index(Join(path, "ownerReferences"), i);
    PS_ASSIGN_OR_RETURN(pod->owner_kind, StringAt((*owners)[i], "kind", at));
    PS_ASSIGN_OR_RETURN(pod->owner_name, StringAt((*owners)[i], "name", at));
  }
  return Status::Ok();
}

Status DecodePodSpec(const Value& spec, const std::string& path,
                     PodState* pod) {
  std::vector<Resources> containers;
  std::vector<Resources> inits;
  Resources overhead;
  PS_ASSIGN_OR_RETURN(containers,
                      ContainerRequestsAt(spec, "containers", path));
  PS_ASSIGN_OR_RETURN(inits, ContainerRequestsAt(spec, "initContainers", path));
  PS_ASSIGN_OR_RETURN(overhead, ResourcesAt(spec, "overhead", path));
  pod->requests = EffectivePodRequests(containers, inits, overhead);
  PS_ASSIGN_OR_RETURN(pod->node_name, StringAt(spec, "nodeName", path));
  PS_ASSIGN_OR_RETURN(pod->node_selector,
                      StringMapAt(spec, "nodeSelector", path));
  PS_ASSIGN_OR_RETURN(pod->node_affinity, NodeAffinityAt(spec, path));
  PS_ASSIGN_OR_RETURN(pod->tolerations, TolerationsAt(spec, path));
  PS_ASSIGN_OR_RETURN(pod->affinity, PodAffinityAt(spec, "podAffinity", path));
  PS_ASSIGN_OR_RETURN(pod->anti_affinity,
                      PodAffinityAt(spec, "podAntiAffinity", path));
  PS_ASSIGN_OR_RETURN(pod->spread, SpreadAt(spec, path));
  PS_ASSIGN_OR_RETURN(pod->host_ports, HostPortsAt(spec, path));
  pod->has_local_storage = HasLocalStorage(spec);
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

Result<NodeTemplate> DecodeTemplate(const Value& object,
                                    const std::string& path) {
  NodeTemplate out;
  PS_ASSIGN_OR_RETURN(out.allocatable,
                      ResourcesAt(object, "allocatable", path));
  PS_ASSIGN_OR_RETURN(out.labels, StringMapAt(object, "labels", path));
  PS_ASSIGN_OR_RETURN(out.taints, TaintsAt(object, "taints", path));
  if (out.allocatable.pods == 0) {
    return Status::Invalid(
        Join(path, "allocatable.pods") +
        ": missing (a node with no pod slots takes nothing)");
  }
  return out;
}

Result<NodeGroup> DecodeGroup(const Value& item, const std::string& path) {
  if (!item.IsObject()) return WrongType(path, "an object", item);
  NodeGroup group;
  PS_ASSIGN_OR_RETURN(group.name, StringAt(item, "name", path));
  if (group.name.empty())
    return Status::Invalid(Join(path, "name") + ": missing");
  PS_ASSIGN_OR_RETURN(group.min_size, IntegerAt(item, "minSize", path));
  PS_ASSIGN_OR_RETURN(group.max_size, IntegerAt(item, "maxSize", path));
  PS_ASSIGN_OR_RETURN(group.target_size, IntegerAt(item, "targetSize", path));
  if (group.min_size > group.max_size) {
    return Status::Invalid(
        path + ": minSize " + std::to_string(group.min_size) +
        " is above maxSize " + std::to_string(group.max_size));
  }
  if (const Value* price = Member(item, "price")) {
    if (!price->IsNumber())
      return WrongType(Join(path, "price"), "a number", *price);
    group.price = price->GetDouble();
  }
  PS_ASSIGN_OR_RETURN(group.pool, StringAt(item, "pool", path));
  std::string capacity_type;
  PS_ASSIGN_OR_RETURN(capacity_type, StringAt(item, "capacityType", path));
  if (!capacity_type.empty()) {
    if (capacity_type != "on-demand" && capacity_type != "spot") {
      return Status::Invalid(Join(path, "capacityType") + ": \"" +
                             capacity_type + "\" is not on-demand or spot");
    }
    group.capacity_type = capacity_type;
  }
  const Value* node_template = nullptr;
  PS_ASSIGN_OR_RETURN(node_template, ObjectAt(item, "template", path));
  if (node_template != nullptr) {
    PS_ASSIGN_OR_RETURN(group.declared_template,
                        DecodeTemplate(*node_template, Join(path, "template")));
  }
  return group;
}

Result<std::map<int, std::vector<std::string>>> DecodePriorities(
    const Value& doc) {
  std::map<int, std::vector<std::string>> out;
  const Value* priorities = nullptr;
  PS_ASSIGN_OR_RETURN(priorities, ObjectAt(doc, "priorities", ""));
  if (priorities == nullptr) return out;
  for (const auto& m : priorities->GetObject()) {
    const std::string key = m.name.GetString();
    int priority = 0;
    const auto [end, error] =
        std::from_chars(key.data(), key.data() + key.size(), priority);
    if (key.empty() || error != std::errc() || end != key.data() + key.size()) {
      return Status::Invalid("priorities.\"" + key +
                             "\": the key is not an integer priority");
    }
    PS_ASSIGN_OR_RETURN(out[priority],
                        StringsAt(*priorities, key.c_str(), "priorities"));
  }
  return out;
}

// "30s", "1h30m", or "Never" (nullopt) when `allow_never`.
Result<std::optional<Duration>> PoolDurationAt(const Value& object,
                                               const char* name,
                                               const std::string& path,
                                               std::optional<Duration> absent) {
  const Value* value = Member(object, name);
  if (value == nullptr) return absent;
  if (!value->IsString())
    return WrongType(Join(path, name), "a string", *value);
  const std::string_view text(value->GetString(), value->GetStringLength());
  if (text == "Never") return std::optional<Duration>();
  Result<std::chrono::milliseconds> parsed =
      ParseDuration(Join(path, name), text);
  if (!parsed.ok()) return parsed.status();
  if (parsed->count() < 0) {
    return Status::Invalid(Join(path, name) + ": \"" + std::string(text) +
                           "\" is negative");
  }
  return std::optional<Duration>(*parsed);
}

bool IsBudgetNodes(std::string_view nodes) {
  const bool percent = !nodes.empty() && nodes.back() == '%';
  if (percent) nodes.remove_suffix(1);
  if (nodes.empty() || nodes.size() > (percent ? 3 : 9)) return false;
  int64_t value = 0;
  const auto [end, error] =
      std::from_chars(nodes.data(), nodes.data() + nodes.size(), value);
  return error == std::errc() && end == nodes.data() + nodes.size() &&
         (!percent || value <= 100);
}

Result<DisruptionBudget> DecodeBudget(const Value& item,
                                      const std::string& path) {
  if (!item.IsObject()) return WrongType(path, "an object", item);
  DisruptionBudget budget;
  PS_ASSIGN_OR_RETURN(budget.nodes, StringAt(item, "nodes", path));
  if (!IsBudgetNodes(budget.nodes)) {
    return Status::Invalid(Join(path, "nodes") + ": \"" + budget.nodes +
                           "\" is neither a count (\"3\") nor a percentage "
                           "(\"10%\")");
  }
  PS_ASSIGN_OR_RETURN(budget.reasons, StringsAt(item, "reasons", path));
  for (const std::string& reason : budget.reasons) {
    if (reason != "Empty" && reason != "Drifted" && reason != "Underutilized") {
      return Status::Invalid(Join(path, "reasons") + ": \"" + reason +
                             "\" is not Empty, Drifted or Underutilized");
    }
  }
  PS_ASSIGN_OR_RETURN(budget.schedule, StringAt(item, "schedule", path));
  std::optional<Duration> duration;
  PS_ASSIGN_OR_RETURN(duration,
                      PoolDurationAt(item, "duration", path, std::nullopt));
  if (budget.schedule.empty() != !duration.has_value()) {
    return Status::Invalid(path +
                           ": schedule and duration go together (one is set "
                           "without the other)");
  }
  budget.duration = duration.value_or(Duration(0));
  return budget;
}

// A pool's settings (all but its name) onto `pool`'s defaults.
Result<NodePool> DecodePoolSettings(const Value& item, const std::string& path,
                                    NodePool pool) {
  if (!item.IsObject()) return WrongType(path, "an object", item);
  PS_ASSIGN_OR_RETURN(
      pool.expire_after,
      PoolDurationAt(item, "expireAfter", path, pool.expire_after));
  if (const Value* migrate = Member(item, "migrateToPreferred")) {
    if (!migrate->IsBool()) {
      return WrongType(Join(path, "migrateToPreferred"), "a boolean", *migrate);
    }
    pool.migrate_to_preferred = migrate->GetBool();
  }
  const Value* disruption = nullptr;
  PS_ASSIGN_OR_RETURN(disruption, ObjectAt(item, "disruption", path));
  if (disruption == nullptr) return pool;
  const std::string at = Join(path, "disruption");
  std::string policy;
  PS_ASSIGN_OR_RETURN(policy, StringAt(*disruption, "consolidationPolicy", at));
  if (policy == "WhenEmpty") {
    pool.consolidation_policy = ConsolidationPolicy::kWhenEmpty;
  } else if (!policy.empty() && policy != "WhenEmptyOrUnderutilized") {
    return Status::Invalid(Join(at, "consolidationPolicy") + ": \"" + policy +
                           "\" is not WhenEmpty or WhenEmptyOrUnderutilized");
  }
  PS_ASSIGN_OR_RETURN(pool.consolidate_after,
                      PoolDurationAt(*disruption, "consolidateAfter", at,
                                     pool.consolidate_after));
  const Value* budgets = nullptr;
  PS_ASSIGN_OR_RETURN(budgets, ArrayAt(*disruption, "budgets", at));
  if (budgets == nullptr) return pool;
  pool.budgets.clear();
  for (size_t i = 0; i < budgets->Size(); ++i) {
    DisruptionBudget budget;
    PS_ASSIGN_OR_RETURN(
        budget, DecodeBudget((*budgets)[i], Index(Join(at, "budgets"), i)));
    pool.budgets.push_back(std::move(budget));
  }
  return pool;
}

Result<NodePool> DecodePool(const Value& item, const std::string& path) {
  if (!item.IsObject()) return WrongType(path, "an object", item);
  NodePool pool;
  PS_ASSIGN_OR_RETURN(pool.name, StringAt(item, "name", path));
  if (pool.name.empty())
    return Status::Invalid(Join(path, "name") + ": missing");
  return DecodePoolSettings(item, path, std::move(pool));
}

// Pools, and every group's pool known.
Status DecodePools(const Value& doc, NodeGroupsFile* out) {
  const Value* pools = nullptr;
  PS_ASSIGN_OR_RETURN(pools, ArrayAt(doc, "pools", ""));
  for (size_t i = 0; pools != nullptr && i < pools->Size(); ++i) {
    NodePool pool;
    PS_ASSIGN_OR_RETURN(pool, DecodePool((*pools)[i], Index("pools", i)));
    for (const NodePool& earlier : out->pools) {
      if (earlier.name == pool.name) {
        return Status::Invalid(Index("pools", i) + ".name: \"" + pool.name +
                               "\" is declared twice");
      }
    }
    out->pools.push_back(std::move(pool));
  }
  for (size_t i = 0; i < out->groups.size(); ++i) {
    const std::string& name = out->groups[i].pool;
    if (name.empty() || name == kDefaultPoolName) continue;
    if (std::none_of(out->pools.begin(), out->pools.end(),
                     [&](const NodePool& pool) { return pool.name == name; })) {
      return Status::Invalid(Index("nodeGroups", i) + ".pool: \"" + name +
                             "\" is not in pools");
    }
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<NodeState>> DecodeNodeListJson(std::string_view text) {
  return DecodeItems<NodeState>(text, &DecodeNode);
}

Result<std::vector<PodState>> DecodePodListJson(std::string_view text) {
  return DecodeItems<PodState>(text, &DecodePod);
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

Result<NodePool> DecodePoolSettingsJson(const std::string& name,
                                        std::string_view text) {
  rapidjson::Document doc;
  PS_ASSIGN_OR_RETURN(doc, ParseObject(text));
  NodePool pool;
  pool.name = name;
  return DecodePoolSettings(doc, "", std::move(pool));
}

Result<NodeGroupsFile> DecodeNodeGroupsJson(std::string_view text) {
  rapidjson::Document doc;
  PS_ASSIGN_OR_RETURN(doc, ParseObject(text));
  const Value* groups = nullptr;
  PS_ASSIGN_OR_RETURN(groups, ArrayAt(doc, "nodeGroups", ""));
  if (groups == nullptr) return Status::Invalid("nodeGroups: missing");
  NodeGroupsFile out;
  for (size_t i = 0; i < groups->Size(); ++i) {
    NodeGroup group;
    PS_ASSIGN_OR_RETURN(group,
                        DecodeGroup((*groups)[i], Index("nodeGroups", i)));
    out.groups.push_back(std::move(group));
  }
  PS_ASSIGN_OR_RETURN(out.priorities, DecodePriorities(doc));
  if (Status s = DecodePools(doc, &out); !s.ok()) return s;
  return out;
}

}  // namespace propscaler::kube
