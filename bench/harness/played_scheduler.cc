#include "harness/played_scheduler.h"

#include <rapidjson/document.h>

#include <map>
#include <vector>

#include "envtest/real_objects.h"
#include "transport/api.h"

namespace propscaler::bench {
namespace {

constexpr char kToBeDeleted[] = "ToBeDeletedByClusterAutoscaler";

bool HasTaint(const rapidjson::Value& node, const std::string& key) {
  const auto spec = node.FindMember("spec");
  if (spec == node.MemberEnd() || !spec->value.HasMember("taints")) {
    return false;
  }
  for (const auto& taint : spec->value["taints"].GetArray()) {
    if (key == taint["key"].GetString()) return true;
  }
  return false;
}

}  // namespace

Result<SchedulerPass> PlayedScheduler::Pass() {
  Result<rapidjson::Document> nodes =
      envtest::AdminList(*cluster_, "/api/v1/nodes?labelSelector=" +
                                        kube::QueryEscape(node_selector_));
  if (!nodes.ok()) return nodes.status();
  Result<rapidjson::Document> pods =
      envtest::AdminList(*cluster_, "/api/v1/namespaces/" + ns_ + "/pods");
  if (!pods.ok()) return pods.status();

  // Node name -> whether a pod may go there.
  std::map<std::string, bool> free;
  for (const auto& node : (*nodes)["items"].GetArray()) {
    const std::string name = node["metadata"]["name"].GetString();
    if (!untainted_.contains(name) &&
        envtest::ClearNotReadyTaint(*cluster_, name).ok()) {
      untainted_.insert(name);
    }
    free[name] = untainted_.contains(name) && !HasTaint(node, kToBeDeleted);
  }
  SchedulerPass pass;
  std::vector<std::string> pending;
  for (const auto& pod : (*pods)["items"].GetArray()) {
    const std::string name = pod["metadata"]["name"].GetString();
    const auto spec = pod.FindMember("spec");
    const auto node_name = spec->value.FindMember("nodeName");
    if (node_name == spec->value.MemberEnd()) {
      pending.push_back(name);
      continue;
    }
    const std::string on = node_name->value.GetString();
    if (free.contains(on)) {
      free[on] = false;
    } else if (envtest::DeletePod(*cluster_, ns_, name).ok()) {
      ++pass.orphans_deleted;
    }
  }
  auto node = free.begin();
  for (const std::string& pod : pending) {
    while (node != free.end() && !node->second) ++node;
    if (node == free.end()) break;
    if (envtest::BindPod(*cluster_, ns_, pod, node->first).ok()) ++pass.bound;
    node->second = false;
  }
  // Forget nodes that are gone, so the set stays the size of the group.
  std::erase_if(untainted_,
                [&](const std::string& name) { return !free.contains(name); });
  return pass;
}

}  // namespace propscaler::bench
