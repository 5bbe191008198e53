#include "nodescale/provider/kwok.h"

#include <glog/logging.h>

#include <atomic>

#include "common/parallel_calls.h"
#include "kube/wire/decode.h"
#include "kube/wire/snapshot_json.h"
#include "nodescale/domain/node_groups_json.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/domain/node_pools_json.h"
#include "nodescale/plan/claim_scale_up.h"
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

}  // namespace

// The groups file (may be absent when NodePools are given) and the
// NodePools' groups after its own.
Result<NodeGroupsFile> KwokProvider::DecodeConfig(
    const kube::ConfigMap& config_map, const std::string& ref) {
  auto groups = config_map.data.find(kGroupsKey);
  auto pools = config_map.data.find(kNodePoolsKey);
  if (groups == config_map.data.end() && pools == config_map.data.end()) {
    return Status::Invalid(ref + ": key " + kGroupsKey + " (or " +
                           kNodePoolsKey + ") missing");
  }
  NodeGroupsFile file;
  if (groups != config_map.data.end()) {
    Result<NodeGroupsFile> decoded = DecodeNodeGroupsJson(groups->second);
    if (!decoded.ok()) {
      return decoded.status().WithContext(ref + " key " + kGroupsKey);
    }
    file = std::move(decoded).value();
  }
  if (pools == config_map.data.end()) {
    node_pools_ = {};
    pools_text_.clear();
    pool_groups_.clear();
    return file;
  }
  // Decoded again only when the text changed: a catalogue makes a group
  // per candidate.
  if (pools->second != pools_text_ || node_pools_.pools.empty()) {
    Result<std::vector<NodePoolSpec>> specs = DecodeNodePools(pools->second);
    if (!specs.ok()) {
      return specs.status().WithContext(ref + " key " + kNodePoolsKey);
    }
    node_pools_ = {std::move(specs).value(), options_.instance_types};
    pool_groups_ = CatalogueGroups(node_pools_);
    pools_text_ = pools->second;
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

Result<std::vector<NodeGroup>> KwokProvider::NodeGroups(
    const SharedNodes& nodes) {
  const std::string ref =
      "configmap " + options_.namespace_ + "/" + options_.config_map;
  Result<kube::ConfigMap> config_map = options_.read_config();
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
  priorities_ = std::move(file->priorities);
  pools_ = std::move(file->pools);
  return std::move(file->groups);
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
  for (int64_t i = 0; i < delta; ++i) {
    names.push_back(group.name + "-" + RandomSuffix(&random_));
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
