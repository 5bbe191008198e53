#include "nodescale/domain/node_pools_json.h"

#include <charconv>
#include <set>

#include "common/quantity.h"
#include "kube/wire/json_fields.h"
#include "kube/wire/object_json.h"
#include "kube/wire/pod_field_values.h"
#include "kube/wire/yaml_documents.h"
#include "nodescale/domain/pool_settings_value.h"

namespace propscaler::nodescale {
namespace {

using kube::NodeSelectorRequirement;
using rapidjson::Value;

using namespace kube::json;  // NOLINT: the field decoders

constexpr std::string_view kApiVersion = "karpenter.sh/v1";

bool IsInteger(const std::string& text) {
  int64_t value = 0;
  auto [ptr, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc() && ptr == text.data() + text.size();
}

// The label keys Karpenter's CRD refuses in a NodePool's requirements and
// template labels (its CEL rules, which servers before 1.25 do not run):
// "" when `key` may be used.
std::string RestrictedKeyProblem(std::string_view key) {
  if (key == "karpenter.sh/nodepool" || key == "kubernetes.io/hostname") {
    return "label \"" + std::string(key) + "\" is restricted";
  }
  const size_t slash = key.find('/');
  const std::string_view domain = slash == std::string_view::npos
                                      ? std::string_view()
                                      : key.substr(0, slash);
  if (domain.ends_with("karpenter.sh") && key != "karpenter.sh/capacity-type") {
    return "label domain \"karpenter.sh\" is restricted";
  }
  return "";
}

// Gte and Lte as Gt and Lt of the next integer out.
Result<NodeSelectorRequirement::Op> RequirementOp(std::string op,
                                                  std::vector<std::string>* v,
                                                  const std::string& at) {
  using Op = NodeSelectorRequirement::Op;
  const bool numeric = op == "Gt" || op == "Lt" || op == "Gte" || op == "Lte";
  if (numeric && v->size() == 1 && v->front().starts_with('-')) {
    return Status::Invalid(at + ".values: " + op + " " + v->front() +
                           ": must be 0 or more");
  }
  if (op == "Gte" || op == "Lte") {
    if (v->size() != 1 || !IsInteger(v->front())) {
      return Status::Invalid(at + ".values: " + op +
                             " takes one integer value");
    }
    const int64_t n = std::stoll(v->front());
    v->front() = std::to_string(op == "Gte" ? n - 1 : n + 1);
    return op == "Gte" ? Op::kGt : Op::kLt;
  }
  return kube::ParseNodeSelectorOp(op, at + ".operator");
}

Status CheckRequirementValues(const PoolRequirement& r, const std::string& at) {
  using Op = NodeSelectorRequirement::Op;
  const NodeSelectorRequirement& req = r.requirement;
  const size_t n = req.values.size();
  switch (req.op) {
    case Op::kIn:
    case Op::kNotIn:
      if (req.op == Op::kIn && n == 0) {
        return Status::Invalid(at + ".values: In needs at least one value");
      }
      break;
    case Op::kExists:
    case Op::kDoesNotExist:
      if (n != 0) {
        return Status::Invalid(at +
                               ".values: must be empty with Exists or "
                               "DoesNotExist, has " +
                               std::to_string(n));
      }
      break;
    case Op::kGt:
    case Op::kLt:
      if (n != 1 || !IsInteger(req.values.front())) {
        return Status::Invalid(at +
                               ".values: Gt and Lt take one integer "
                               "value");
      }
      break;
  }
  if (r.min_values < 0 || r.min_values > 50) {
    return Status::Invalid(at + ".minValues: " + std::to_string(r.min_values) +
                           " is not from 1 to 50");
  }
  if (r.min_values > 0 && req.op == Op::kIn &&
      static_cast<size_t>(r.min_values) > n) {
    return Status::Invalid(at + ".minValues: " + std::to_string(r.min_values) +
                           " is more than its " + std::to_string(n) +
                           " values");
  }
  return Status::Ok();
}

Result<std::vector<PoolRequirement>> RequirementsAt(const Value& spec,
                                                    const std::string& path) {
  const Value* array = nullptr;
  PS_ASSIGN_OR_RETURN(array, ArrayAt(spec, "requirements", path));
  std::vector<PoolRequirement> out;
  if (array == nullptr) return out;
  if (array->Size() > 100) {
    return Status::Invalid(Join(path, "requirements") + ": " +
                           std::to_string(array->Size()) +
                           " items, at most 100");
  }
  for (size_t i = 0; i < array->Size(); ++i) {
    const std::string at = Index(Join(path, "requirements"), i);
    const Value& item = (*array)[i];
    if (!item.IsObject()) return WrongType(at, "an object", item);
    PoolRequirement r;
    std::string op;
    PS_ASSIGN_OR_RETURN(r.requirement.key, StringAt(item, "key", at));
    std::string problem = LabelKeyProblem(r.requirement.key);
    if (problem.empty()) problem = RestrictedKeyProblem(r.requirement.key);
    if (!problem.empty()) {
      return Status::Invalid(at + ".key: \"" + r.requirement.key +
                             "\": " + problem);
    }
    PS_ASSIGN_OR_RETURN(op, StringAt(item, "operator", at));
    PS_ASSIGN_OR_RETURN(r.requirement.values, StringsAt(item, "values", at));
    PS_ASSIGN_OR_RETURN(r.requirement.op,
                        RequirementOp(op, &r.requirement.values, at));
    PS_ASSIGN_OR_RETURN(r.min_values, IntegerAt(item, "minValues", at));
    if (Status s = CheckRequirementValues(r, at); !s.ok()) return s;
    out.push_back(std::move(r));
  }
  return out;
}

// spec.limits: each a quantity, as a string or a number.
Result<std::map<std::string, int64_t, std::less<>>> LimitsAt(
    const Value& spec, const std::string& path) {
  const Value* limits = nullptr;
  PS_ASSIGN_OR_RETURN(limits, ObjectAt(spec, "limits", path));
  std::map<std::string, int64_t, std::less<>> out;
  if (limits == nullptr) return out;
  for (const auto& m : limits->GetObject()) {
    const std::string name = m.name.GetString();
    const std::string at = Join(path, "limits") + "." + name;
    std::string text;
    if (m.value.IsString()) {
      text = m.value.GetString();
    } else if (m.value.IsInt64()) {
      text = std::to_string(m.value.GetInt64());
    } else {
      return WrongType(at, "a quantity", m.value);
    }
    Result<int64_t> amount =
        name == "cpu" ? ParseMilliQuantity(text) : ParseQuantity(text);
    if (!amount.ok()) return amount.status().WithContext(at);
    out[name] = *amount;
  }
  return out;
}

Status DecodeTemplateSpec(const Value& spec, const std::string& path,
                          NodePoolSpec* pool) {
  const Value* tmpl = nullptr;
  PS_ASSIGN_OR_RETURN(tmpl, ObjectAt(spec, "template", path));
  if (tmpl == nullptr) {
    return Status::Invalid(Join(path, "template") + ": missing");
  }
  const std::string tpath = Join(path, "template");
  if (const Value* metadata = Member(*tmpl, "metadata")) {
    PS_ASSIGN_OR_RETURN(pool->labels, StringMapAt(*metadata, "labels",
                                                  Join(tpath, "metadata")));
    for (const auto& [key, value] : pool->labels) {
      if (std::string problem = RestrictedKeyProblem(key); !problem.empty()) {
        return Status::Invalid(Join(tpath, "metadata.labels") + "." + key +
                               ": " + problem);
      }
    }
  }
  const Value* node = nullptr;
  PS_ASSIGN_OR_RETURN(node, ObjectAt(*tmpl, "spec", tpath));
  if (node == nullptr)
    return Status::Invalid(Join(tpath, "spec") + ": missing");
  const std::string npath = Join(tpath, "spec");
  PS_ASSIGN_OR_RETURN(pool->requirements, RequirementsAt(*node, npath));
  PS_ASSIGN_OR_RETURN(pool->taints, kube::TaintsAt(*node, "taints", npath));
  PS_ASSIGN_OR_RETURN(pool->startup_taints,
                      kube::TaintsAt(*node, "startupTaints", npath));
  PS_ASSIGN_OR_RETURN(pool->disruption.expire_after,
                      PoolDurationAt(*node, "expireAfter", npath,
                                     pool->disruption.expire_after));
  std::optional<Duration> grace;
  PS_ASSIGN_OR_RETURN(grace, PoolDurationAt(*node, "terminationGracePeriod",
                                            npath, std::nullopt));
  pool->termination_grace_period = grace;
  return Status::Ok();
}

}  // namespace

Result<NodePoolSpec> DecodeNodePoolObject(const Value& item,
                                          const std::string& path) {
  if (!item.IsObject()) return WrongType(path, "an object", item);
  std::string api_version;
  std::string kind;
  PS_ASSIGN_OR_RETURN(api_version, StringAt(item, "apiVersion", path));
  PS_ASSIGN_OR_RETURN(kind, StringAt(item, "kind", path));
  if (kind != "NodePool" || api_version != kApiVersion) {
    return Status::Invalid(path + ": " + (kind.empty() ? "no kind" : kind) +
                           " " + api_version + " is not a NodePool " +
                           std::string(kApiVersion));
  }
  NodePoolSpec pool;
  if (const Value* metadata = Member(item, "metadata")) {
    PS_ASSIGN_OR_RETURN(pool.name,
                        StringAt(*metadata, "name", Join(path, "metadata")));
  }
  if (pool.name.empty()) {
    return Status::Invalid(Join(path, "metadata.name") + ": missing");
  }
  const std::string at = "NodePool " + pool.name;
  const Value* spec = nullptr;
  PS_ASSIGN_OR_RETURN(spec, ObjectAt(item, "spec", at));
  if (spec == nullptr) return Status::Invalid(at + ": spec: missing");
  if (Status s = DecodeTemplateSpec(*spec, Join(at, "spec"), &pool); !s.ok()) {
    return s;
  }
  PS_ASSIGN_OR_RETURN(pool.limits, LimitsAt(*spec, Join(at, "spec")));
  PS_ASSIGN_OR_RETURN(pool.weight,
                      IntegerAt(*spec, "weight", Join(at, "spec")));
  if (pool.weight > 100) {
    return Status::Invalid(at + ".spec.weight: " + std::to_string(pool.weight) +
                           " is not from 1 to 100");
  }
  NodePool settings;
  settings.name = pool.name;
  settings.expire_after = pool.disruption.expire_after;
  PS_ASSIGN_OR_RETURN(pool.disruption,
                      DecodePoolSettings(*spec, Join(at, "spec"), settings));
  pool.disruption.expire_after = settings.expire_after;
  return pool;
}

Result<std::vector<NodePoolSpec>> DecodeNodePools(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  rapidjson::Document doc;
  if (first != std::string_view::npos && text[first] == '{') {
    PS_ASSIGN_OR_RETURN(doc, ParseObject(text));
    rapidjson::Document array;
    array.SetArray();
    array.PushBack(rapidjson::Value(doc, array.GetAllocator()),
                   array.GetAllocator());
    doc = std::move(array);
  } else {
    PS_ASSIGN_OR_RETURN(doc, kube::YamlDocumentsAsJson(text));
  }
  std::vector<NodePoolSpec> out;
  std::set<std::string> names;
  auto add = [&](const Value& item, const std::string& path) -> Status {
    NodePoolSpec pool;
    PS_ASSIGN_OR_RETURN(pool, DecodeNodePoolObject(item, path));
    if (!names.insert(pool.name).second) {
      return Status::Invalid("NodePool " + pool.name + " is declared twice");
    }
    out.push_back(std::move(pool));
    return Status::Ok();
  };
  for (size_t d = 0; d < doc.Size(); ++d) {
    const Value& object = doc[d];
    const std::string path = "document " + std::to_string(d + 1);
    const Value* items = object.IsObject() ? Member(object, "items") : nullptr;
    if (items == nullptr) {
      if (Status s = add(object, path); !s.ok()) return s;
      continue;
    }
    if (!items->IsArray())
      return WrongType(Join(path, "items"), "an array", *items);
    for (size_t i = 0; i < items->Size(); ++i) {
      if (Status s = add((*items)[i], Index(Join(path, "items"), i)); !s.ok()) {
        return s;
      }
    }
  }
  if (out.empty()) return Status::Invalid("no NodePool in the file");
  return out;
}

}  // namespace propscaler::nodescale
