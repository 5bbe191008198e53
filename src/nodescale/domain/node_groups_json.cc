#include "nodescale/domain/node_groups_json.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <charconv>

#include "common/duration.h"
#include "kube/wire/json_fields.h"
#include "kube/wire/object_json.h"
#include "nodescale/domain/pool_settings_value.h"

namespace propscaler::nodescale {
namespace {

using kube::NodeTemplate;
using kube::TaintsAt;
using rapidjson::Value;

using namespace kube::json;  // NOLINT: the field decoders

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

}  // namespace

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

namespace {

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

}  // namespace propscaler::nodescale
