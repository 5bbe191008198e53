#include "nodescale/run/priority_source.h"

#include <glog/logging.h>

#include "nodescale/expander/chain.h"
#include "nodescale/expander/priority_config_yaml.h"

namespace propscaler::nodescale {
void PrioritySource::Note(const std::string& note) {
  if (note == last_note_) return;
  last_note_ = note;
  if (!note.empty()) LOG(WARNING) << "priority expander: " << note;
}

PrioritySource::PrioritySource(const LoopOptions* options,
                               const Provider* provider,
                               const kube::ConfigMapClient* config_maps)
    : options_(options), provider_(provider), config_maps_(config_maps) {}

PriorityConfig PrioritySource::Current() {
  if (!UsesPriorityExpander(options_->expander)) return {};
  std::map<int, std::vector<std::string>> patterns = provider_->Priorities();
  std::string source = "the node groups' \"priorities\"";
  if (patterns.empty()) {
    source = "configmap " + options_->namespace_ + "/" +
             kPriorityExpanderConfigMap + " key " + kPriorityExpanderKey;
    Result<kube::ConfigMap> config_map =
        options_->read_priority_config
            ? options_->read_priority_config()
            : config_maps_->GetConfigMap(options_->namespace_,
                                         kPriorityExpanderConfigMap);
    if (!config_map.ok()) {
      Note(
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
      Note(source + ": " + parsed.status().message() +
           "; every node group passes the priority step");
      return {};
    }
    patterns = std::move(*parsed);
  }
  Result<PriorityConfig> config = CompilePriorities(patterns);
  if (!config.ok()) {
    Note(source + ": " + config.status().message() +
         "; every node group passes the priority step");
    return {};
  }
  Note("");
  return std::move(*config);
}

}  // namespace propscaler::nodescale
