#include "nodescale/plan/simulation/taint_kinds.h"

#include <algorithm>

#include "nodescale/domain/node_marks.h"

namespace propscaler::nodescale {
namespace {

bool Listed(const std::vector<std::string>& keys, const std::string& key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

}  // namespace

bool IsStartupTaint(const Taint& taint, const TaintKinds& kinds) {
  return taint.key.starts_with(kStartupTaintPrefix) ||
         taint.key.starts_with(kIgnoreTaintPrefix) ||
         std::ranges::any_of(kinds.startup_prefixes,
                             [&](const std::string& prefix) {
                               return taint.key.starts_with(prefix);
                             }) ||
         Listed(kinds.startup_keys, taint.key);
}

bool IsStatusTaint(const Taint& taint, const TaintKinds& kinds) {
  return taint.key.starts_with(kStatusTaintPrefix) ||
         Listed(kinds.status_keys, taint.key);
}

bool IsNodeStateTaint(const Taint& taint, const TaintKinds& kinds) {
  return taint.key.starts_with("node.kubernetes.io/") ||
         taint.key.starts_with("node.cloudprovider.kubernetes.io/") ||
         IsStartupTaint(taint, kinds) || IsStatusTaint(taint, kinds) ||
         taint.key == kToBeDeletedTaint ||
         taint.key == kDeletionCandidateTaint ||
         taint.key == "cloud.google.com/impending-node-termination" ||
         taint.key == "NodeWithImpairedVolumes";
}

}  // namespace propscaler::nodescale
