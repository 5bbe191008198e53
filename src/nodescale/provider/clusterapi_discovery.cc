#include "nodescale/provider/clusterapi_discovery.h"

#include <algorithm>

#include "common/split.h"

namespace propscaler::nodescale {
namespace {

constexpr std::string_view kDiscoverer = "clusterapi";

std::string ClusterNameOf(const kube::ClusterApiObject& object,
                          const std::string& cluster_name_label) {
  if (!object.cluster_name.empty()) return object.cluster_name;
  auto it = object.labels.find(cluster_name_label);
  return it == object.labels.end() ? "" : it->second;
}

}  // namespace

Result<ClusterApiDiscoverySpec> ParseClusterApiDiscoverySpec(
    std::string_view spec) {
  const std::string what =
      "--node-group-auto-discovery \"" + std::string(spec) + "\"";
  const std::vector<std::string_view> tokens = Split(spec, ':');
  if (tokens.size() != 2) {
    return Status::Invalid(what + ": want clusterapi:key=value,key=value");
  }
  if (tokens[0] != kDiscoverer) {
    return Status::Invalid(what + ": unsupported discoverer \"" +
                           std::string(tokens[0]) +
                           "\" (the clusterapi provider takes clusterapi:)");
  }
  ClusterApiDiscoverySpec parsed;
  std::vector<LabelRequirement> labels;
  for (std::string_view pair : Split(tokens[1], ',')) {
    if (pair.empty()) continue;
    const std::vector<std::string_view> kv = Split(pair, '=');
    if (kv.size() != 2 || kv[0].empty()) {
      return Status::Invalid(what + ": \"" + std::string(pair) +
                             "\" is not key=value");
    }
    const std::string key(kv[0]);
    const std::string value(kv[1]);
    if (key == "namespace") {
      parsed.namespace_ = value;
    } else if (key == "clusterName") {
      parsed.cluster_name = value;
    } else if (const std::string problem = LabelKeyProblem(key);
               !problem.empty()) {
      return Status::Invalid(what + ": label key \"" + key + "\": " + problem);
    } else {
      labels.push_back({key, LabelRequirement::Op::kEquals, {value}});
    }
  }
  parsed.labels = LabelSelector(std::move(labels));
  return parsed;
}

Result<std::vector<ClusterApiDiscoverySpec>> ParseClusterApiDiscovery(
    const std::vector<std::string>& specs) {
  std::vector<ClusterApiDiscoverySpec> parsed;
  for (const std::string& spec : specs) {
    if (spec.empty()) continue;
    Result<ClusterApiDiscoverySpec> one = ParseClusterApiDiscoverySpec(spec);
    if (!one.ok()) return one.status();
    parsed.push_back(*std::move(one));
  }
  return parsed;
}

bool AllowedByDiscovery(const std::vector<ClusterApiDiscoverySpec>& specs,
                        const kube::ClusterApiObject& object,
                        const std::string& cluster_name_label) {
  if (specs.empty()) return true;
  return std::any_of(specs.begin(), specs.end(),
                     [&](const ClusterApiDiscoverySpec& spec) {
                       return (spec.namespace_.empty() ||
                               spec.namespace_ == object.namespace_) &&
                              (spec.cluster_name.empty() ||
                               spec.cluster_name ==
                                   ClusterNameOf(object, cluster_name_label)) &&
                              spec.labels.Matches(object.labels);
                     });
}

}  // namespace propscaler::nodescale
