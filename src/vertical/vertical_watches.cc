#include "vertical/vertical_watches.h"

#include "cluster/node_store_sink.h"
#include "common/taint_filter.h"
#include "runtime/watched_config_map.h"
#include "vertical/target_pod_source.h"

namespace propscaler {

VerticalWatches::VerticalWatches(Clients api, const Clock* clock,
                                 const VerticalOptions& options,
                                 const Notify& notify)
    : node_watch(
          clock,
          [node_api = api.nodes, selector = options.node_selector,
           cpu = options.schedulable_nodes_only ? kube::CountedCpu::kAllocatable
                                                : kube::CountedCpu::kCapacity] {
            return node_api->CountedNodes(selector, TaintFilter(), cpu);
          },
          NodeStoreSink(&nodes, [notify] { notify("nodes changed"); }),
          {"nodes", "Grant watch on nodes to react within a second."}, notify),
      target(
          clock,
          api.workloads->PodTemplateNamed(options.namespace_, options.target),
          [workloads = api.workloads, ns = options.namespace_,
           ref = options.target] { return workloads->GetPodTemplate(ns, ref); },
          {.name = options.target.name,
           .what = options.TargetRef(),
           .grant_hint = "Grant list and watch on it to read nothing at rest "
                         "and set back other writers' changes within a second",
           .changed_cause = "target changed",
           .get_fallback =
               "patching " + options.TargetRef() +
               " whenever the computed resources change, as "
               "cluster-proportional-vertical-autoscaler does (grant get on "
               "it to compare with its current resources first)"},
          notify) {
  if (!options.configmap.empty()) {
    config_map =
        runtime::WatchConfigMap(clock, api.config_maps, options.namespace_,
                                options.configmap, "config changed", notify);
  } else if (!options.config_file.empty()) {
    config_file.emplace(clock, options.config_file, notify);
  }
  if (options.InPlace()) {
    pod_watch = std::make_unique<runtime::WatchedCollection<kube::ResizedPod>>(
        clock,
        [this, pod_api = api.pods, ns = options.namespace_,
         ref = options.TargetRef()] {
          return std::make_unique<TargetPodSource>(
              pod_api, ns, [this, ref]() -> Result<std::string> {
                Result<kube::PodTemplateWorkload> read = target.Read();
                if (!read.ok()) {
                  return read.status().WithContext(
                      "reading the pod selector of " + ref);
                }
                if (read->pod_selector.empty()) {
                  return Status::Invalid(ref + " has no spec.selector");
                }
                return read->pod_selector;
              });
        },
        pods.Sink([notify] { notify("pods changed"); }),
        runtime::WatchedCollection<kube::ResizedPod>::Options{
            "the target's pods",
            "Grant list and watch on pods to resize them in place."},
        notify);
  }
}

void VerticalWatches::AddTo(runtime::WatchSet* set) {
  set->Add(&node_watch);
  set->Add(&target);
  if (config_map) set->Add(config_map.get());
  if (config_file) set->Add(&*config_file);
  if (pod_watch) set->Add(pod_watch.get());
}

}  // namespace propscaler
