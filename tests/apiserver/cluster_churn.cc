#include "apiserver/cluster_churn.h"

#include <rapidjson/document.h>

#include <algorithm>

#include "apiserver/json_util.h"
#include "apiserver/node_generator.h"
#include "common/quantity.h"

namespace propscaler::sim {
namespace {

constexpr char kPrefix[] = "sim-node-";

struct NodeTotals {
  int nodes = 0;
  int schedulable = 0;
  int64_t cpu_millis = 0;
};

// The member, or null when absent or `object` is not an object.
const rapidjson::Value& Member(const rapidjson::Value& object,
                               const char* key) {
  static const rapidjson::Value kNull;
  if (!object.IsObject()) return kNull;
  auto it = object.FindMember(key);
  return it == object.MemberEnd() ? kNull : it->value;
}

NodeTotals CountNodes(FakeApiServer& server) {
  NodeTotals totals;
  for (const std::string& name : server.NodeNames()) {
    std::optional<std::string> json = server.GetObject("/api/v1/nodes/" + name);
    if (!json) continue;
    rapidjson::Document node;
    node.Parse(json->data(), json->size());
    ++totals.nodes;
    if (!Member(Member(node, "spec"), "unschedulable").IsTrue()) {
      ++totals.schedulable;
    }
    const rapidjson::Value& capacity =
        Member(Member(node, "status"), "capacity");
    Result<int64_t> millis = ParseMilliQuantity(GetString(capacity, "cpu"));
    if (millis.ok()) totals.cpu_millis += *millis;
  }
  return totals;
}

int HighestIndex(const std::vector<std::string>& names) {
  int highest = 0;
  for (const std::string& name : names) {
    if (name.rfind(kPrefix, 0) != 0) continue;
    highest = std::max(highest, std::atoi(name.c_str() + sizeof(kPrefix) - 1));
  }
  return highest;
}

}  // namespace

ClusterChurn::ClusterChurn(FakeApiServer* server, int cpu_cores,
                           int max_extra_nodes)
    : server_(server),
      cpu_cores_(cpu_cores > 0 ? cpu_cores : 4),
      max_extra_nodes_(std::max(max_extra_nodes, 1)),
      next_index_(HighestIndex(server->NodeNames()) + 1) {}

std::string ClusterChurn::Step() {
  if (!removing_ && static_cast<int>(extra_nodes_.size()) < max_extra_nodes_) {
    return AddNode();
  }
  if (!removing_) {
    removing_ = true;
    return CordonNewest();
  }
  std::string line = RemoveNewest();
  if (extra_nodes_.empty()) removing_ = false;
  return line;
}

std::string ClusterChurn::AddNode() {
  NodeShape shape = GeneratedNodeShape(kPrefix, next_index_++, cpu_cores_);
  Status s = server_->CreateNode(MakeNodeJson(shape));
  if (!s.ok()) return "sim: cannot add node " + shape.name + ": " + s.message();
  extra_nodes_.push_back(shape.name);
  return "sim: added node " + shape.name + " " + Summary();
}

std::string ClusterChurn::CordonNewest() {
  const std::string& name = extra_nodes_.back();
  Status s = server_->PatchNode(name, R"({"spec":{"unschedulable":true}})");
  if (!s.ok()) return "sim: cannot cordon node " + name + ": " + s.message();
  return "sim: cordoned node " + name + " " + Summary();
}

std::string ClusterChurn::RemoveNewest() {
  std::string name = extra_nodes_.back();
  extra_nodes_.pop_back();
  Status s = server_->DeleteNode(name);
  if (!s.ok()) return "sim: cannot remove node " + name + ": " + s.message();
  return "sim: removed node " + name + " " + Summary();
}

std::string ClusterChurn::Summary() const {
  NodeTotals totals = CountNodes(*server_);
  std::string line = "(" + std::to_string(totals.nodes) + " nodes, " +
                     std::to_string(MilliToUnitsRoundUp(totals.cpu_millis)) +
                     " cores";
  if (totals.schedulable != totals.nodes) {
    line += ", " + std::to_string(totals.schedulable) + " schedulable";
  }
  return line + ")";
}

}  // namespace propscaler::sim
