// Where the priority expander's patterns come from, read every loop (from a
// watched copy where app/ has one): the
// provider's own config (kwok's node-groups.json "priorities"), else Cluster
// Autoscaler's cluster-autoscaler-priority-expander ConfigMap in the
// namespace. Without either, or with a bad one, every group passes the
// priority step; the reason is logged once.
#include <glog/logging.h>

#include "nodescale/expander/priority_config_yaml.h"
#include "nodescale/run/loop.h"

namespace propscaler::nodescale {
namespace {

bool UsesPriorityExpander(const std::string& spec) {
  return spec.find("priority") != std::string::npos;
}

}  // namespace

void NodeScaleLoop::NotePriorities(const std::string& note) {
  if (note == last_priority_note_) return;
  last_priority_note_ = note;
  if (!note.empty()) LOG(WARNING) << "priority expander: " << note;
}

PriorityConfig NodeScaleLoop::CurrentPriorities() {
  if (!UsesPriorityExpander(options_.expander)) return {};
  std::map<int, std::vector<std::string>> patterns = provider_->Priorities();
  std::string source = "the node groups' \"priorities\"";
  if (patterns.empty()) {
    source = "configmap " + options_.namespace_ + "/" +
             kPriorityExpanderConfigMap + " key " + kPriorityExpanderKey;
    Result<kube::ConfigMap> config_map =
        options_.read_priority_config
            ? options_.read_priority_config()
            : api_.config_maps->GetConfigMap(options_.namespace_,
                                             kPriorityExpanderConfigMap);
    if (!config_map.ok()) {
      NotePriorities(
          (config_map.status().code() == StatusCode::kNotFound
               ? "no priorities (neither in the node groups nor " + source + ")"
               : "reading " + source + ": " + config_map.status().message()) +
          "; every node group passes the priority step");
      return {};
    }
    auto text = config_map->data.find(kPriorityExpanderKey);
    Result<std::map<int, std::vector<std::string>>> parsed =
        text == config_map->data.end()
            ? Result<std::map<int, std::vector<std::string>>>(
                  Status::Invalid("key missing"))
            : ParsePriorityExpanderYaml(text->second);
    if (!parsed.ok()) {
      NotePriorities(source + ": " + parsed.status().message() +
                     "; every node group passes the priority step");
      return {};
    }
    patterns = std::move(*parsed);
  }
  Result<PriorityConfig> config = CompilePriorities(patterns);
  if (!config.ok()) {
    NotePriorities(source + ": " + config.status().message() +
                   "; every node group passes the priority step");
    return {};
  }
  NotePriorities("");
  return std::move(*config);
}

}  // namespace propscaler::nodescale
