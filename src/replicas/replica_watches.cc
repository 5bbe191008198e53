#include "replicas/replica_watches.h"

#include "cluster/node_store_sink.h"
#include "runtime/watched_config_map.h"

namespace propscaler {

ReplicaWatches::ReplicaWatches(Clients api, const Clock* clock,
                               const AutoscalerOptions& options,
                               const Notify& notify)
    : node_watch(
          clock,
          [node_api = api.nodes, selector = options.node_selector,
           taints = options.excluded_taints] {
            return node_api->CountedNodes(selector, taints,
                                          kube::CountedCpu::kAllocatable);
          },
          NodeStoreSink(&nodes, [notify] { notify("nodes changed"); }),
          {"nodes", "Grant list and watch on nodes."}, notify),
      config_map(runtime::WatchConfigMap(clock, api.config_maps,
                                         options.namespace_, options.configmap,
                                         "params changed", notify)),
      selected(
          options.target_selector.has_value()
              ? std::make_unique<SelectedTargetStore>(*options.target_selector)
              : nullptr),
      target_scales(api.scales, clock, options.namespace_, options.targets,
                    selected.get(), notify),
      hpa_check(clock, api.hpas, options.namespace_,
                options.hpa_floor.has_value() ? options.hpa_floor->name : "",
                options.hpa_floor.has_value() && options.hpa_floor->automatic,
                notify) {
  if (selected != nullptr) {
    const kube::TargetSelector& selector = *options.target_selector;
    const std::string kind = selector.Named("").ApiKind();
    selected_watch = std::make_unique<runtime::WatchedCollection<kube::Scale>>(
        clock,
        [scales = api.scales, ns = options.namespace_, selector] {
          return scales->TargetsSelected(ns, selector);
        },
        selected->Sink(notify),
        runtime::WatchedCollection<kube::Scale>::Options{
            "the " + kind + "s --target-selector=" + selector.ToString() +
                " picks",
            "Grant list and watch on the " + kind +
                "s (deploy/replicas-target-selector/rbac.yaml)."},
        notify);
  }
  if (options.hpa_floor.has_value() && !options.hpa_floor->automatic) {
    const std::string ns = options.namespace_;
    const AutoscalerOptions::HpaFloor floor = *options.hpa_floor;
    const std::string what =
        "horizontalpodautoscaler " + ns + "/" + floor.name + " (--hpa-floor)";
    hpa_floor = std::make_unique<runtime::WatchedObject<kube::HpaRef>>(
        clock, api.hpas->HpaNamed(ns, floor.name, floor.version),
        [hpas = api.hpas, ns, floor] {
          return hpas->GetHpa(ns, floor.name, floor.version);
        },
        runtime::WatchedObject<kube::HpaRef>::Options{
            .name = floor.name,
            .what = what,
            .grant_hint = "Grant list and watch on it to follow its edits "
                          "within a second and read nothing at rest",
            .changed_cause = what + " changed",
            .differs =
                [](const kube::HpaRef& before, const kube::HpaRef& after) {
                  return before.min_replicas != after.min_replicas ||
                         before.max_replicas != after.max_replicas ||
                         before.target_kind != after.target_kind ||
                         before.target_name != after.target_name;
                },
        },
        notify);
  }
  if (options.pod_selector.empty()) return;
  pods = std::make_unique<PodCountStore>();
  pod_watch = std::make_unique<runtime::WatchedCollection<kube::CountedPod>>(
      clock,
      [pod_api = api.pods, ns = options.pod_namespace,
       selector = options.pod_selector] {
        return pod_api->CountedPods(ns, selector);
      },
      pods->Sink([notify] { notify("pods changed"); }),
      runtime::WatchedCollection<kube::CountedPod>::Options{
          "pods", "Grant list and watch on pods (deploy/replicas/rbac.yaml)."},
      notify);
}

void ReplicaWatches::AddTo(runtime::WatchSet* set) {
  set->Add(&node_watch);
  if (pod_watch) set->Add(pod_watch.get());
  if (selected_watch) set->Add(selected_watch.get());
  set->Add(config_map.get());
  set->Add(&target_scales);
  set->Add(&hpa_check);
  if (hpa_floor) set->Add(hpa_floor.get());
}

}  // namespace propscaler
