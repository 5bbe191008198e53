#include "nodescale/run/node_actions.h"

#include <algorithm>

#include "kube/model/node_taint_edit.h"
#include "nodescale/domain/node_marks.h"

namespace propscaler::nodescale {
namespace {

std::string UnixSeconds(TimePoint now) {
  return std::to_string(
      std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch())
          .count());
}

Status Edit(const kube::NodeActionClient& api, const NodeState& node,
            const kube::NodeTaintEdit& edit, const std::string& what) {
  Status status = api.EditNodeTaints(node.name, edit);
  return status.WithContext(what + " on node " + node.name);
}

}  // namespace

Status SetDeletionCandidate(const kube::NodeActionClient& api,
                            const NodeState& node, bool candidate,
                            TimePoint now) {
  kube::NodeTaintEdit edit;
  if (candidate) {
    edit.add = kube::TaintToAdd{std::string(kDeletionCandidateTaint),
                                UnixSeconds(now), "PreferNoSchedule"};
  } else {
    edit.remove_keys = {std::string(kDeletionCandidateTaint)};
  }
  return Edit(api, node, edit,
              std::string(candidate ? "adding" : "removing") + " taint " +
                  std::string(kDeletionCandidateTaint));
}

Status MarkToBeDeleted(const kube::NodeActionClient& api, const NodeState& node,
                       TimePoint now) {
  kube::NodeTaintEdit edit;
  edit.add = kube::TaintToAdd{std::string(kToBeDeletedTaint), UnixSeconds(now),
                              "NoSchedule"};
  edit.cordon = kube::NodeTaintEdit::Cordon::kCordon;
  return Edit(api, node, edit,
              "adding taint " + std::string(kToBeDeletedTaint));
}

Status UnmarkToBeDeleted(const kube::NodeActionClient& api,
                         const NodeState& node) {
  kube::NodeTaintEdit edit;
  edit.remove_keys = {std::string(kToBeDeletedTaint),
                      std::string(kDeletionCandidateTaint)};
  edit.cordon = kube::NodeTaintEdit::Cordon::kUncordonOwn;
  return Edit(api, node, edit,
              "removing taint " + std::string(kToBeDeletedTaint));
}

Status EvictPod(const kube::NodeActionClient& api, const PodState& pod,
                int64_t grace_seconds) {
  Status evicted = api.EvictPod(pod.namespace_, pod.name, grace_seconds);
  if (!evicted.ok() && evicted.code() != StatusCode::kNotFound) {
    return evicted.WithContext("evicting pod " + pod.Key());
  }
  return Status::Ok();
}

}  // namespace propscaler::nodescale
