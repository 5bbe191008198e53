#include "nodescale/provider/kwok.h"

#include <glog/logging.h>

#include <algorithm>
#include <atomic>
#include <cctype>

#include "common/parallel_calls.h"
#include "kube/wire/decode.h"
#include "kube/wire/json_list_watch.h"
#include "kube/wire/snapshot_json.h"
#include "nodescale/domain/instance_types_json.h"
#include "nodescale/domain/node_groups_json.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/domain/node_pools_json.h"
#include "nodescale/plan/claim_scale_up.h"
#include "nodescale/plan/claims/pool_catalogue.h"
#include "nodescale/plan/simulation/template_hash.h"

namespace propscaler::nodescale {
namespace {

constexpr char kGroupsKey[] = "node-groups.json";
constexpr char kNodePoolsKey[] = "nodepools.yaml";
// Node POSTs of one scale-up in flight at once: a burst's 50 nodes take a
// few round trips, not 50 (client-go's default burst is 10 requests).
constexpr size_t kCreatesInFlight = 8;

std::string RandomSuffix(std::mt19937_64* random) {
  static constexpr char kAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  std::string out;
  for (int i = 0; i < 5; ++i) out += kAlphabet[(*random)() % 27];
  return out;
}

// A NodePool as the server serves it.
Result<NodePoolSpec> DecodeClusterNodePool(const kube::RawObject& object) {
  Result<rapidjson::Document> doc =
      kube::ParseJsonObject(object.json, "NodePool");
  if (!doc.ok()) return doc.status();
  return DecodeNodePoolObject(*doc, "NodePool " + object.name);
}

// What a new node's name starts with: its NodePool's name for a NodePool's
// candidate, as Karpenter names NodeClaims, else its group's; cut so the
// name with its suffix fits kubernetes.io/hostname (a label value, 63
// characters), ending in an alphanumeric before the dash.
std::string NodeNamePrefix(const NodeGroup& group) {
  constexpr size_t kMaxPrefix = 63 - 1 - 5;
  const Labels& labels = group.declared_template->labels;
  auto pool = labels.find(std::string(kNodePoolLabel));
  std::string prefix = pool == labels.end() ? group.name : pool->second;
  if (prefix.size() > kMaxPrefix) prefix.resize(kMaxPrefix);
  while (!prefix.empty() &&
         !std::isalnum(static_cast<unsigned char>(prefix.back()))) {
    prefix.pop_back();
  }
  return prefix + "-";
}

// The price of the catalogue's offering a node of these labels was made
// as (its type's, in its zone and capacity type); none when it is gone.
std::optional<double> OfferingPrice(const std::vector<InstanceType>& types,
                                    const Labels& labels) {
  auto type = labels.find(std::string(kInstanceTypeLabel));
  if (type == labels.end()) return std::nullopt;
  for (const InstanceType& each : types) {
    if (each.name != type->second) continue;
    for (const Offering& offering : each.offerings) {
      const bool matches = std::all_of(
          offering.labels.begin(), offering.labels.end(), [&](const auto& l) {
            auto found = labels.find(l.first);
            return found != labels.end() && found->second == l.second;
          });
      if (matches) return offering.price;
    }
  }
  return std::nullopt;
}

}  // namespace

// The groups file (may be absent when NodePools are given) and the
// NodePools' groups after its own.
Result<NodeGroupsFile> KwokProvider::DecodeConfig(
    const kube::ConfigMap& config_map, const std::string& ref) {
  auto groups = config_map.data.find(kGroupsKey);
  auto pools = config_map.data.find(kNodePoolsKey);
  const std::vector<kube::RawObject> cluster_pools =
      options_.cluster_node_pools ? options_.cluster_node_pools()
                                  : std::vector<kube::RawObject>{};
  if (groups == config_map.data.end() && pools == config_map.data.end() &&
      cluster_pools.empty()) {
    return Status::Invalid(
        ref + ": key " + kGroupsKey + " (or " + kNodePoolsKey + ") missing" +
        (options_.cluster_node_pools ? ", and no NodePool in the cluster"
                                     : ""));
  }
  NodeGroupsFile file;
  if (groups != config_map.data.end()) {
    Result<NodeGroupsFile> decoded = DecodeNodeGroupsJson(groups->second);
    if (!decoded.ok()) {
      return decoded.status().WithContext(ref + " key " + kGroupsKey);
    }
    file = std::move(decoded).value();
  }
  const std::string* text =
      pools == config_map.data.end() ? nullptr : &pools->second;
  if (Status s = RefreshNodePools(text, cluster_pools, ref); !s.ok()) {
    return s;
  }
  std::set<std::string_view> declared;
  for (const NodeGroup& group : file.groups) declared.insert(group.name);
  for (const NodeGroup& group : pool_groups_) {
    if (declared.contains(group.name)) {
      return Status::Invalid(ref + ": node group " + group.name +
                             " is declared and also a NodePool's");
    }
  }
  file.groups.insert(file.groups.end(), pool_groups_.begin(),
                     pool_groups_.end());
  for (const NodePoolSpec& pool : node_pools_.pools) {
    file.pools.push_back(pool.disruption);
  }
  return file;
}

Status KwokProvider::RefreshNodePools(
    const std::string* text, const std::vector<kube::RawObject>& cluster,
    const std::string& ref) {
  std::string source = text == nullptr ? std::string() : "text:" + *text;
  for (const kube::RawObject& object : cluster) {
    source += '\0' + object.name + '\0' + object.resource_version;
  }
  if (source == pools_source_) return Status::Ok();
  std::vector<NodePoolSpec> specs;
  if (text != nullptr) {
    Result<std::vector<NodePoolSpec>> decoded = DecodeNodePools(*text);
    if (!decoded.ok()) {
      return decoded.status().WithContext(ref + " key " + kNodePoolsKey);
    }
    specs = std::move(decoded).value();
  }
  std::set<std::string> from_text;
  for (const NodePoolSpec& spec : specs) from_text.insert(spec.name);
  std::set<std::string, std::less<>> refused;
  for (const kube::RawObject& object : cluster) {
    if (from_text.contains(object.name)) {
      return Status::Invalid("NodePool " + object.name +
                             " is in the cluster and also in " + ref + " key " +
                             kNodePoolsKey);
    }
    Result<NodePoolSpec> spec = DecodeClusterNodePool(object);
    if (!spec.ok()) {
      refused.insert(object.name);
      LOG(WARNING) << "NodePool " << object.name << " (resourceVersion "
                   << object.resource_version
                   << ") is not planned for: " << spec.status().message();
      continue;
    }
    specs.push_back(std::move(spec).value());
  }
  node_pools_ = {std::move(specs), options_.instance_types};
  pool_groups_ = CatalogueGroups(node_pools_);
  pools_source_ = std::move(source);
  refused_pools_ = std::move(refused);
  return Status::Ok();
}

Result<std::vector<NodeGroup>> KwokProvider::NodeGroups(
    const SharedNodes& nodes) {
  const std::string ref =
      "configmap " + options_.namespace_ + "/" + options_.config_map;
  Result<kube::ConfigMap> config_map = options_.read_config();
  // With NodePools watched in the cluster, the ConfigMap is optional.
  if (!config_map.ok() && config_map.status().code() == StatusCode::kNotFound &&
      options_.cluster_node_pools) {
    config_map = kube::ConfigMap{};
  }
  if (!config_map.ok()) {
    return config_map.status().WithContext("reading node groups from " + ref);
  }
  Result<nodescale::NodeGroupsFile> file = DecodeConfig(*config_map, ref);
  if (!file.ok()) return file.status();
  std::map<std::string, int64_t> sizes;
  std::map<std::string, std::string> still_deleting;
  for (const LiveNode& node : nodes) {
    const std::string& name = node.state.name;
    created_unseen_.erase(name);
    if (deleted_seen_.contains(name)) {
      still_deleting.emplace(name, deleted_seen_[name]);
      continue;
    }
    ++sizes[NodeGroupOf(node.state)];
  }
  deleted_seen_ = std::move(still_deleting);
  for (const auto& [name, group] : created_unseen_) ++sizes[group];
  for (const auto& [name, group] : unregistered_) ++sizes[group];
  for (NodeGroup& group : file->groups) group.target_size = sizes[group.name];
  AddRetiredGroups(nodes, sizes, &file->groups);
  priorities_ = std::move(file->priorities);
  pools_ = std::move(file->pools);
  return std::move(file->groups);
}

// A node of a NodePool whose candidate group is no longer offered (the
// NodePool's requirements or the catalogue changed, or the NodePool was
// deleted) keeps a group of its own, retired: drift replaces its nodes, as
// Karpenter's RequirementsDrifted does, and it never grows. A deleted
// NodePool's nodes go under the default pool's budgets (Karpenter deletes
// them with their NodeClaims at once); a NodePool refused as it reads now
// keeps its nodes as they are.
void KwokProvider::AddRetiredGroups(const SharedNodes& nodes,
                                    const std::map<std::string, int64_t>& sizes,
                                    std::vector<NodeGroup>* groups) const {
  std::set<std::string_view> pools;
  for (const NodePoolSpec& pool : node_pools_.pools) pools.insert(pool.name);
  std::set<std::string_view> offered;
  for (const NodeGroup& group : *groups) offered.insert(group.name);
  std::map<std::string, NodeGroup> retired;
  for (const LiveNode& live : nodes) {
    const NodeState& node = live.state;
    auto pool = node.labels.find(std::string(kNodePoolLabel));
    const std::string group = NodeGroupOf(node);
    auto size = sizes.find(group);  // none when only deleted nodes are left
    if (pool == node.labels.end() || refused_pools_.contains(pool->second) ||
        group.empty() || size == sizes.end() || offered.contains(group) ||
        retired.contains(group)) {
      continue;
    }
    const bool deleted = !pools.contains(pool->second);
    NodeGroup& out = retired[group];
    out.name = group;
    if (!deleted) out.pool = pool->second;
    auto capacity = node.labels.find(std::string(kCapacityTypeLabel));
    if (capacity != node.labels.end()) out.capacity_type = capacity->second;
    out.target_size = out.max_size = size->second;
    out.price = OfferingPrice(options_.instance_types, node.labels);
    out.declared_template =
        NodeTemplate{node.allocatable, node.labels, node.taints, {}, {}};
    out.retired = deleted ? "NodePool " + pool->second + " no longer exists"
                          : "NodePool " + pool->second +
                                " no longer offers group " + group +
                                " (its requirements or the catalogue changed)";
  }
  for (auto& [name, group] : retired) groups->push_back(std::move(group));
}

std::string KwokProvider::NodeGroupOf(const NodeState& node) const {
  return std::string(nodescale::NodeGroupOf(node));
}

NodeTemplate KwokProvider::ShapeOf(const NodeGroup& group,
                                   const std::string& name) const {
  NodeTemplate node = group.declared_template.value_or(NodeTemplate{});
  node.labels[std::string(kNodeGroupLabel)] = group.name;
  node.labels[std::string(kHostnameLabel)] = name;
  if (group.declared_template) {
    node.annotations[std::string(nodescale::kTemplateHashAnnotation)] =
        TemplateHash(*group.declared_template);
  }
  return node;
}

Status KwokProvider::IncreaseSize(const NodeGroup& group, int64_t delta) {
  if (!group.declared_template.has_value()) {
    return Status::Invalid("node group " + group.name +
                           ": no template in its declaration, cannot create "
                           "nodes");
  }
  std::vector<std::string> names;
  const std::string prefix = NodeNamePrefix(group);
  for (int64_t i = 0; i < delta; ++i) {
    names.push_back(prefix + RandomSuffix(&random_));
  }
  if (options_.unregistered_groups.contains(group.name)) {
    for (const std::string& name : names) {
      unregistered_[name] = group.name;
      LOG(INFO) << "kwok: instance " << name << " of group " << group.name
                << " requested; it will never register";
    }
    return Status::Ok();
  }
  const bool ready = !options_.not_ready_groups.contains(group.name);
  // Once a create fails the rest are not sent: a refused one (RBAC, quota)
  // would be refused again, and the next loop retries after its backoff.
  std::atomic<bool> failed{false};
  std::vector<char> sent(names.size(), 0);
  const std::vector<Status> created =
      RunParallelCalls(*clock_, names.size(), kCreatesInFlight, [&](size_t i) {
        if (failed) return Status::Ok();
        sent[i] = 1;
        Status status = api_->CreateSimulatedNode(
            names[i], ShapeOf(group, names[i]), ready);
        if (!status.ok()) failed = true;
        return status;
      });
  Status first_error;
  for (size_t i = 0; i < names.size(); ++i) {
    if (!sent[i]) continue;
    if (!created[i].ok()) {
      if (first_error.ok()) {
        first_error = created[i].WithContext("creating node " + names[i] +
                                             " of group " + group.name);
      }
      continue;
    }
    // Counted even when others failed: the size is what exists.
    created_unseen_[names[i]] = group.name;
    LOG(INFO) << "kwok: created node " << names[i] << " in group "
              << group.name;
  }
  return first_error;
}

Status KwokProvider::DeleteNodes(const NodeGroup& group,
                                 const std::vector<const NodeState*>& nodes) {
  for (const NodeState* node : nodes) {
    const Status deleted = api_->DeleteNode(node->name, node->uid);
    if (!deleted.ok() && deleted.code() != StatusCode::kNotFound) {
      return deleted.WithContext("deleting node " + node->name + " of group " +
                                 group.name);
    }
    deleted_seen_[node->name] = group.name;
    LOG(INFO) << "kwok: deleted node " << node->name << " of group "
              << group.name;
  }
  return Status::Ok();
}

Status KwokProvider::DecreaseTargetSize(const NodeGroup& group, int64_t delta,
                                        const std::vector<const NodeState*>&) {
  std::vector<std::string> never_created;
  std::vector<std::string> unseen;
  for (const auto& [name, of] : unregistered_) {
    if (of == group.name) never_created.push_back(name);
  }
  for (const auto& [name, of] : created_unseen_) {
    if (of == group.name) unseen.push_back(name);
  }
  const auto available =
      static_cast<int64_t>(never_created.size() + unseen.size());
  if (delta > available) {
    return Status::Invalid(
        "decreasing the target of node group " + group.name + " by " +
        std::to_string(delta) + ": only " + std::to_string(available) +
        " of its instances have no node; the rest are registered");
  }
  for (const std::string& name : never_created) {
    if (delta == 0) break;
    unregistered_.erase(name);
    --delta;
    LOG(INFO) << "kwok: gave up instance " << name << " of group " << group.name
              << ", which never registered";
  }
  for (const std::string& name : unseen) {
    if (delta == 0) break;
    const Status deleted = api_->DeleteNode(name, "");
    if (!deleted.ok() && deleted.code() != StatusCode::kNotFound) {
      return deleted.WithContext("deleting node " + name + " of group " +
                                 group.name + ", never seen registered");
    }
    created_unseen_.erase(name);
    deleted_seen_[name] = group.name;
    --delta;
    LOG(INFO) << "kwok: deleted node " << name << " of group " << group.name
              << ", never seen registered";
  }
  return Status::Ok();
}

}  // namespace propscaler::nodescale
