#include "app/node_scale_flags.h"

#include <gflags/gflags.h>

#include <algorithm>
#include <random>
#include <sstream>

#include "app/duration_flags.h"
#include "app/shared_flags.h"
#include "common/duration.h"
#include "common/files.h"
#include "common/object_names.h"
#include "nodescale/domain/instance_types_json.h"
#include "nodescale/domain/kwok_catalogue.h"
#include "nodescale/expander/chain.h"

DEFINE_string(cloud_provider, "kwok",
              "node-scale: where nodes come from: kwok or clusterapi.");
DEFINE_string(cloud_config, "",
              "node-scale, clusterapi: kubeconfig of the Cluster API "
              "management cluster, where MachineDeployments, MachineSets, "
              "MachinePools and Machines are read and written (nodes, pods, "
              "Leases, Events and the status stay in --kubeconfig's "
              "cluster). Empty: --kubeconfig's cluster, unless "
              "--clusterapi-cloud-config-authoritative.");
DEFINE_bool(clusterapi_cloud_config_authoritative, false,
            "node-scale, clusterapi: never fall back to --kubeconfig for "
            "the management cluster: an empty --cloud-config means the "
            "in-cluster config (propscaler runs in the management cluster "
            "with --kubeconfig naming the workload cluster), as Cluster "
            "Autoscaler's flag.");
DEFINE_string(node_group_auto_discovery, "",
              "node-scale, clusterapi: which MachineDeployments and "
              "MachineSets may be node groups, as Cluster Autoscaler's "
              "clusterapi:namespace=NS,clusterName=C,LABEL=VALUE (pairs "
              "ANDed); give the flag again, or separate specs with ';', to "
              "OR them. Empty: every annotated one.");
DEFINE_string(node_group_config, "",
              "node-scale, kwok: ConfigMap (in --namespace) whose key "
              "node-groups.json declares the node groups.");
DEFINE_string(kwok_not_ready_node_groups, "",
              "node-scale, kwok: comma list of groups whose new nodes stay "
              "NotReady (to demo and test backoff).");
DEFINE_string(kwok_unregistered_node_groups, "",
              "node-scale, kwok: comma list of groups whose instances never "
              "register: a scale-up counts them but creates no Node (to "
              "demo and test giving up unregistered capacity).");
DEFINE_string(instance_types_file_path, "",
              "node-scale, kwok: the instance-type catalogue NodePools (the "
              "cluster's, and the ConfigMap's key nodepools.yaml) draw from, "
              "in the format of Karpenter's kwok provider (env "
              "INSTANCE_TYPES_FILE_PATH when unset). Empty: its generated 144 "
              "types.");
DEFINE_string(scan_interval, "10s", "node-scale: time between iterations.");
DEFINE_string(expander, "least-waste",
              "node-scale: random, most-pods, least-waste, price, priority; "
              "a comma list chains them.");
DEFINE_int64(max_nodes_total, 0, "node-scale: most nodes; 0 = no limit.");
DEFINE_string(cores_total, "0:320000", "node-scale: MIN:MAX cores.");
DEFINE_string(memory_total, "0:6400000", "node-scale: MIN:MAX GiB memory.");
DEFINE_bool(scale_down_enabled, true, "node-scale: remove unneeded nodes.");
DEFINE_bool(write_status_configmap, true,
            "node-scale: write Cluster Autoscaler's status YAML to the "
            "status ConfigMap (key status) every loop, as Cluster "
            "Autoscaler's flag.");
DEFINE_bool(emit_per_nodegroup_metrics, false,
            "node-scale: also export Cluster Autoscaler's per-group series "
            "(cluster_autoscaler_node_group_*), as Cluster Autoscaler's "
            "flag.");
DEFINE_string(status_config_map_name, "propscaler-status",
              "node-scale: the status ConfigMap's name, in --namespace "
              "(Cluster Autoscaler's is cluster-autoscaler-status); its "
              "Events go on it too.");
DEFINE_string(scale_down_unneeded_time, "10m",
              "node-scale: how long a node is unneeded before removal.");
DEFINE_bool(scale_down_unready_enabled, true,
            "node-scale: remove unneeded Unready nodes too (after "
            "--scale-down-unready-time).");
DEFINE_string(scale_down_unready_time, "20m",
              "node-scale: how long an Unready node is unneeded before "
              "removal.");
DEFINE_string(scale_down_delay_after_add, "10m",
              "node-scale: no scale-down this long after a scale-up.");
DEFINE_string(scale_down_delay_after_delete, "0s",
              "node-scale: no scale-down this long after a removal.");
DEFINE_string(scale_down_delay_after_failure, "3m",
              "node-scale: no scale-down this long after a failed removal.");
DEFINE_double(scale_down_utilization_threshold, 0.5,
              "node-scale: nodes below this utilization may go.");
DEFINE_bool(ignore_daemonsets_utilization, false,
            "node-scale: leave DaemonSet pods out of a node's utilization, "
            "as Cluster Autoscaler's flag.");
DEFINE_bool(ignore_mirror_pods_utilization, false,
            "node-scale: leave mirror (static) pods out of a node's "
            "utilization, as Cluster Autoscaler's flag.");
DEFINE_int32(max_empty_bulk_delete, 10,
             "node-scale: empty nodes removed at once (deprecated in Cluster "
             "Autoscaler: given alone, it sets --max-scale-down-parallelism "
             "too).");
DEFINE_int32(max_scale_down_parallelism, 10,
             "node-scale: nodes a scale-down pass removes at most, empty and "
             "drained together (given alone, it sets "
             "--max-empty-bulk-delete too).");
DEFINE_int32(max_drain_parallelism, 1,
             "node-scale: non-empty nodes a scale-down pass drains at once; "
             "counted within --max-scale-down-parallelism.");
DEFINE_int32(max_bulk_soft_taint_count, 10,
             "node-scale: unneeded nodes given or cleared of the "
             "DeletionCandidateOfClusterAutoscaler (PreferNoSchedule) taint "
             "in one pass, at most (0: no such taint), as Cluster "
             "Autoscaler's flag.");
DEFINE_string(max_bulk_soft_taint_time, "3s",
              "node-scale: how long one pass may spend on those taints, as "
              "Cluster Autoscaler's flag.");
DEFINE_int32(max_graceful_termination_sec, 600,
             "node-scale: how long a drained node waits for its evicted pods "
             "to go before it is deleted; after it, the removal fails.");
DEFINE_string(disruption, "auto",
              "node-scale: how nodes go away: scale-down (Cluster "
              "Autoscaler's unneeded-node removal), karpenter (emptiness, "
              "drift, expiry, consolidation by delete or cheaper "
              "replacement, within pool budgets) or auto (karpenter when the "
              "node groups file declares pools, else scale-down).");
DEFINE_bool(spot_to_spot_consolidation, false,
            "node-scale: with --disruption=karpenter, let consolidation "
            "replace spot nodes by a cheaper spot node (Karpenter's "
            "SpotToSpotConsolidation gate).");
DEFINE_bool(balance_similar_node_groups, false,
            "node-scale: split scale-ups across similar groups.");
DEFINE_string(max_node_provision_time, "15m",
              "node-scale: a scale-up whose nodes are not Ready by then "
              "failed; the group is backed off.");
DEFINE_string(max_node_startup_time, "15m",
              "node-scale: a node not Ready this long after its creation is "
              "Unready: no longer counted as capacity coming (one its group "
              "was asked for waits --max-node-provision-time instead).");
DEFINE_double(max_total_unready_percentage, 45,
              "node-scale: with more Unready nodes than this share of all "
              "registered nodes (and more than --ok-total-unready-count), "
              "nothing is scaled up or down.");
DEFINE_int32(ok_total_unready_count, 3,
             "node-scale: Unready nodes that never stop autoscaling, "
             "whatever their share.");
DEFINE_string(startup_taint, "",
              "node-scale: comma list of taint keys that mark a node still "
              "starting, besides those prefixed "
              "startup-taint.cluster-autoscaler.kubernetes.io/.");
DEFINE_string(ignore_taint, "",
              "node-scale: deprecated spelling of --startup-taint (merged "
              "with it), as in Cluster Autoscaler.");
DEFINE_bool(force_delete_unregistered_nodes, false,
            "node-scale: replicas that never became nodes within "
            "--max-node-provision-time are taken off their group's target "
            "even below its minimum size.");
DEFINE_bool(enable_csi_node_aware_scheduling, false,
            "node-scale: new and upcoming nodes take the CSI attach limits "
            "(CSINode allocatable counts) of the live node their group's "
            "template is taken from, as Cluster Autoscaler's flag.");
DEFINE_string(startup_taint_prefix, "",
              "node-scale: comma list of taint key prefixes that mark a node "
              "still starting, besides "
              "startup-taint.cluster-autoscaler.kubernetes.io/.");
DEFINE_string(status_taint, "",
              "node-scale: comma list of taint keys that report a healthy "
              "node's status (pods that do not tolerate them go elsewhere; "
              "left out of templates), besides those prefixed "
              "status-taint.cluster-autoscaler.kubernetes.io/.");
DEFINE_string(batch_idle_duration, "1s",
              "node-scale: a batch of pending pods is scaled up for once "
              "no new pending pod has come for this long.");
DEFINE_string(batch_max_duration, "10s",
              "node-scale: a batch of pending pods is scaled up for at the "
              "latest this long after its first pod.");
DEFINE_int32(expendable_pods_priority_cutoff, -10,
             "node-scale: pods with a lower priority neither trigger a "
             "scale-up nor keep a node.");
DEFINE_string(new_pod_scale_up_delay, "0s",
              "node-scale: ignore unschedulable pods younger than this.");
DEFINE_int64(max_nodes_per_scaleup, 1000,
             "node-scale: most nodes one scale-up adds.");
DEFINE_string(max_failing_time, "",
              "node-scale: /healthz answers 500 once a watch the loop reads "
              "(nodes, pods, ...) has failed this long; empty: the loop's "
              "stall limit, the longer of 2m and 5 x --scan-interval.");
DEFINE_string(initial_node_group_backoff_duration, "5m",
              "node-scale: first backoff of a failed group.");
DEFINE_string(max_node_group_backoff_duration, "30m",
              "node-scale: longest backoff of a failed group.");

DEFINE_bool(enable_provisioning_requests, false,
            "node-scale: serve ProvisioningRequests (autoscaling.x-k8s.io/v1) "
            "of classes check-capacity.autoscaling.x-k8s.io and "
            "best-effort-atomic-scale-up.autoscaling.x-k8s.io, as Cluster "
            "Autoscaler's flag of that name (see docs/node-scale/"
            "provisioning-requests.md).");
DEFINE_string(provisioning_request_initial_backoff_time, "1m",
              "node-scale: first wait before a ProvisioningRequest that found "
              "no capacity is checked again (doubled at each retry).");
DEFINE_string(provisioning_request_max_backoff_time, "10m",
              "node-scale: longest such wait.");
DEFINE_int32(provisioning_request_max_backoff_cache_size, 1000,
             "node-scale: ProvisioningRequests whose backoff is remembered "
             "(the oldest is forgotten first and starts again at the first "
             "wait).");
DEFINE_bool(check_capacity_batch_processing, false,
            "node-scale: check several check-capacity ProvisioningRequests "
            "in one loop (at most "
            "--check-capacity-provisioning-request-max-batch-size).");
DEFINE_int32(check_capacity_provisioning_request_max_batch_size, 10,
             "node-scale: with --check-capacity-batch-processing, the most "
             "requests checked in one loop (1 or less: one).");
DEFINE_string(check_capacity_provisioning_request_batch_timebox, "10s",
              "node-scale: with --check-capacity-batch-processing, no "
              "further request is checked in a loop once this has passed "
              "since its batch began (0: one a loop).");
DEFINE_string(check_capacity_processor_instance, "",
              "node-scale: serve only the check-capacity ProvisioningRequests "
              "whose processorInstance parameter equals this (and then no "
              "best-effort-atomic-scale-up ones).");

namespace propscaler {
namespace {

// The non-empty items of `text` between `separator`s, in order.
std::vector<std::string> SplitOn(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, separator);) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::set<std::string, std::less<>> SplitComma(const std::string& text) {
  const std::vector<std::string> items = SplitOn(text, ',');
  return {items.begin(), items.end()};
}

Status ApplyLimits(nodescale::ResourceLimits* limits) {
  if (FLAGS_max_nodes_total < 0) {
    return Status::Invalid(
        "--max-nodes-total=" + std::to_string(FLAGS_max_nodes_total) +
        ": want >= 0");
  }
  Result<nodescale::MinMax> cores =
      nodescale::ParseMinMax("cores-total", FLAGS_cores_total);
  if (!cores.ok()) return cores.status();
  Result<nodescale::MinMax> memory =
      nodescale::ParseMinMax("memory-total", FLAGS_memory_total);
  if (!memory.ok()) return memory.status();
  *limits = {FLAGS_max_nodes_total, cores->min,  cores->max,
             memory->min,           memory->max, FLAGS_max_nodes_per_scaleup};
  return Status::Ok();
}

Status AtLeast(const char* flag, int64_t value, int64_t min) {
  if (value >= min) return Status::Ok();
  return Status::Invalid("--" + std::string(flag) + "=" +
                         std::to_string(value) + ": want at least " +
                         std::to_string(min));
}

// Counts that make no sense at zero or below, and the expander chain.
Status CheckCounts() {
  for (Status s :
       {AtLeast("max-nodes-per-scaleup", FLAGS_max_nodes_per_scaleup, 1),
        AtLeast("max-empty-bulk-delete", FLAGS_max_empty_bulk_delete, 1),
        AtLeast("max-scale-down-parallelism", FLAGS_max_scale_down_parallelism,
                1),
        AtLeast("max-drain-parallelism", FLAGS_max_drain_parallelism, 1),
        AtLeast("max-bulk-soft-taint-count", FLAGS_max_bulk_soft_taint_count,
                0),
        AtLeast("max-graceful-termination-sec",
                FLAGS_max_graceful_termination_sec, 0)}) {
    if (!s.ok()) return s;
  }
  // Built once here only to check the names; the loop builds its own.
  std::mt19937_64 rng;
  Result<std::unique_ptr<nodescale::ExpanderChain>> chain =
      nodescale::MakeExpanderChain(FLAGS_expander, {}, &rng);
  return chain.status();
}

bool Given(const char* flag) {
  return !gflags::GetCommandLineFlagInfoOrDie(flag).is_default;
}

// Cluster Autoscaler's rule for its deprecated flag: either of the two
// given alone sets the other.
nodescale::ScaleDownParallelism ScaleDownParallelismFromFlags() {
  nodescale::ScaleDownParallelism p{FLAGS_max_empty_bulk_delete,
                                    FLAGS_max_scale_down_parallelism,
                                    FLAGS_max_drain_parallelism};
  const bool bulk = Given("max_empty_bulk_delete");
  const bool parallel = Given("max_scale_down_parallelism");
  if (bulk && !parallel) p.max_scale_down_parallelism = p.max_empty_bulk_delete;
  if (parallel && !bulk) p.max_empty_bulk_delete = p.max_scale_down_parallelism;
  return p;
}

Status CheckProvider(const NodeScaleSettings& s) {
  if (s.cloud_provider != "kwok" && s.cloud_provider != "clusterapi") {
    return Status::Invalid("--cloud-provider=" + s.cloud_provider +
                           ": want kwok or clusterapi");
  }
  if (s.cloud_provider == "kwok" && s.node_group_config.empty()) {
    return Status::Invalid(
        "--node-group-config is required with --cloud-provider=kwok");
  }
  if (s.cloud_provider == "kwok") {
    Status name =
        CheckDns1123Subdomain("node-group-config", s.node_group_config);
    if (!name.ok()) return name;
  }
  // Written so that NaN fails too.
  if (!(FLAGS_scale_down_utilization_threshold >= 0 &&
        FLAGS_scale_down_utilization_threshold <= 1)) {
    return Status::Invalid(
        "--scale-down-utilization-threshold=" +
        std::to_string(FLAGS_scale_down_utilization_threshold) +
        ": want a number from 0 to 1");
  }
  return Status::Ok();
}

// Cluster Autoscaler's health gate and startup taints (the durations are
// parsed with the others).
Status ApplyNodeHealth(nodescale::NodeHealthConfig* health) {
  // Written so that NaN fails too.
  if (!(FLAGS_max_total_unready_percentage >= 0 &&
        FLAGS_max_total_unready_percentage <= 100)) {
    return Status::Invalid("--max-total-unready-percentage=" +
                           std::to_string(FLAGS_max_total_unready_percentage) +
                           ": want a number from 0 to 100");
  }
  if (Status s =
          AtLeast("ok-total-unready-count", FLAGS_ok_total_unready_count, 0);
      !s.ok()) {
    return s;
  }
  health->max_total_unready_percentage = FLAGS_max_total_unready_percentage;
  health->ok_total_unready_count = FLAGS_ok_total_unready_count;
  nodescale::TaintKinds& taints = health->taints;
  for (const std::string& flag : {FLAGS_startup_taint, FLAGS_ignore_taint}) {
    for (const std::string& key : SplitComma(flag)) {
      taints.startup_keys.push_back(key);
    }
  }
  for (const std::string& prefix : SplitComma(FLAGS_startup_taint_prefix)) {
    taints.startup_prefixes.push_back(prefix);
  }
  for (const std::string& key : SplitComma(FLAGS_status_taint)) {
    taints.status_keys.push_back(key);
  }
  return Status::Ok();
}

// Scale-down's and disruption's choices.
Status ApplyScaleDownFlags(nodescale::LoopOptions* loop) {
  loop->scale_down_enabled = FLAGS_scale_down_enabled;
  loop->force_delete_unregistered_nodes = FLAGS_force_delete_unregistered_nodes;
  loop->scale_down_parallelism = ScaleDownParallelismFromFlags();
  loop->soft_taints.max_count = FLAGS_max_bulk_soft_taint_count;
  loop->max_graceful_termination =
      std::chrono::seconds(FLAGS_max_graceful_termination_sec);
  Result<nodescale::DisruptionPolicy> disruption =
      nodescale::ParseDisruptionPolicy(FLAGS_disruption);
  if (!disruption.ok()) return disruption.status();
  loop->disruption = *disruption;
  loop->disruption_options.spot_to_spot = FLAGS_spot_to_spot_consolidation;
  loop->scale_down.utilization_threshold =
      FLAGS_scale_down_utilization_threshold;
  loop->scale_down.unready_enabled = FLAGS_scale_down_unready_enabled;
  loop->scale_down.ignore_daemonsets_utilization =
      FLAGS_ignore_daemonsets_utilization;
  loop->scale_down.ignore_mirror_pods_utilization =
      FLAGS_ignore_mirror_pods_utilization;
  return Status::Ok();
}

// --instance-types-file-path (or INSTANCE_TYPES_FILE_PATH), read once as
// Karpenter's kwok provider does; the provider's generated catalogue
// without one.
Status LoadInstanceTypes(NodeScaleSettings* s) {
  std::string path = FLAGS_instance_types_file_path;
  const bool from_flag = !path.empty();
  if (path.empty()) path = EnvOrEmpty("INSTANCE_TYPES_FILE_PATH");
  if (path.empty()) {
    if (s->cloud_provider == "kwok") {
      s->kwok_instance_types = nodescale::KwokDefaultInstanceTypes();
    }
    return Status::Ok();
  }
  const std::string flag = from_flag ? "--instance-types-file-path=" + path
                                     : "INSTANCE_TYPES_FILE_PATH=" + path;
  if (s->cloud_provider != "kwok") {
    return Status::Invalid(flag +
                           ": only --cloud-provider=kwok makes nodes "
                           "from instance types");
  }
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status().WithContext(flag);
  Result<std::vector<nodescale::InstanceType>> types =
      nodescale::DecodeInstanceTypes(*text);
  if (!types.ok()) return types.status().WithContext(flag);
  s->kwok_instance_types = std::move(types).value();
  return Status::Ok();
}

// --cloud-provider and what only one provider takes.
Status ApplyProviderFlags(NodeScaleSettings* s) {
  s->cloud_provider = FLAGS_cloud_provider;
  s->node_group_config = FLAGS_node_group_config;
  s->kwok_not_ready_groups = SplitComma(FLAGS_kwok_not_ready_node_groups);
  s->kwok_unregistered_groups = SplitComma(FLAGS_kwok_unregistered_node_groups);
  if (Status st = CheckProvider(*s); !st.ok()) return st;
  if (Status st = LoadInstanceTypes(s); !st.ok()) return st;
  if ((!FLAGS_cloud_config.empty() ||
       FLAGS_clusterapi_cloud_config_authoritative) &&
      s->cloud_provider != "clusterapi") {
    return Status::Invalid(
        "--cloud-config and --clusterapi-cloud-config-authoritative name "
        "the Cluster API management cluster: they need "
        "--cloud-provider=clusterapi");
  }
  s->cloud_config = FLAGS_cloud_config;
  s->cloud_config_authoritative = FLAGS_clusterapi_cloud_config_authoritative;
  if (!FLAGS_node_group_auto_discovery.empty() &&
      s->cloud_provider != "clusterapi") {
    return Status::Invalid(
        "--node-group-auto-discovery=" + FLAGS_node_group_auto_discovery +
        ": only --cloud-provider=clusterapi discovers "
        "node groups (kwok's are in --node-group-config)");
  }
  Result<std::vector<nodescale::ClusterApiDiscoverySpec>> discovery =
      nodescale::ParseClusterApiDiscovery(
          SplitOn(FLAGS_node_group_auto_discovery, ';'));
  if (!discovery.ok()) return discovery.status();
  s->cluster_api_discovery = *std::move(discovery);
  return Status::Ok();
}

Status ApplyDurations(nodescale::LoopOptions* loop) {
  return ParseDurationFlags({
      {"scan_interval", &loop->scan_interval},
      {"new_pod_scale_up_delay", &loop->new_pod_scale_up_delay},
      {"batch_idle_duration", &loop->batch.idle},
      {"batch_max_duration", &loop->batch.max},
      {"max_node_provision_time", &loop->max_node_provision_time},
      {"max_node_startup_time", &loop->node_health.max_node_startup_time},
      {"initial_node_group_backoff_duration", &loop->initial_backoff},
      {"max_node_group_backoff_duration", &loop->max_backoff},
      {"scale_down_unneeded_time", &loop->delays.unneeded_time},
      {"scale_down_unready_time", &loop->delays.unready_time},
      {"scale_down_delay_after_add", &loop->delays.delay_after_add},
      {"scale_down_delay_after_delete", &loop->delays.delay_after_delete},
      {"scale_down_delay_after_failure", &loop->delays.delay_after_failure},
      {"max_bulk_soft_taint_time", &loop->soft_taints.max_time},
      {"provisioning_request_initial_backoff_time",
       &loop->provreq_initial_backoff},
      {"provisioning_request_max_backoff_time", &loop->provreq_max_backoff},
      {"check_capacity_provisioning_request_batch_timebox",
       &loop->check_capacity.timebox},
  });
}

Status ApplyProvisioningRequestFlags(nodescale::LoopOptions* loop) {
  loop->provisioning_requests = FLAGS_enable_provisioning_requests;
  loop->provisioning.processor_instance =
      FLAGS_check_capacity_processor_instance;
  if (Status st = AtLeast("provisioning-request-max-backoff-cache-size",
                          FLAGS_provisioning_request_max_backoff_cache_size, 0);
      !st.ok()) {
    return st;
  }
  loop->provreq_backoff_cache =
      static_cast<size_t>(FLAGS_provisioning_request_max_backoff_cache_size);
  loop->check_capacity.size =
      FLAGS_check_capacity_batch_processing
          ? std::max(1,
                     FLAGS_check_capacity_provisioning_request_max_batch_size)
          : 1;
  return Status::Ok();
}

// The durations that must be positive, and those that bound one another;
// --max-failing-time into `s`.
Status CheckDurations(const nodescale::LoopOptions& loop,
                      NodeScaleSettings* s) {
  Status positive = CheckPositiveDurations({
      {"scan_interval", loop.scan_interval},
      {"max_node_provision_time", loop.max_node_provision_time},
      {"max_node_startup_time", loop.node_health.max_node_startup_time},
      {"batch_idle_duration", loop.batch.idle},
      {"batch_max_duration", loop.batch.max},
  });
  if (!positive.ok()) return positive;
  if (!FLAGS_max_failing_time.empty()) {
    Duration limit{};
    Status parsed = ParseDurationFlags({{"max_failing_time", &limit}});
    if (parsed.ok())
      parsed = CheckPositiveDurations({{"max_failing_time", limit}});
    if (!parsed.ok()) return parsed;
    s->max_failing_time = limit;
  }
  if (loop.batch.idle > loop.batch.max) {
    return Status::Invalid(
        "--batch-idle-duration must not be longer than "
        "--batch-max-duration");
  }
  if (loop.initial_backoff > loop.max_backoff) {
    return Status::Invalid(
        "--initial-node-group-backoff-duration must not be longer than "
        "--max-node-group-backoff-duration");
  }
  return Status::Ok();
}

}  // namespace

Result<NodeScaleSettings> NodeScaleSettingsFromFlags(const std::string& ns) {
  // It would act on real nodes while the user believes it only looks.
  if (FLAGS_dry_run) {
    return Status::Invalid(
        "--dry-run: node-scale mode has no dry run (it would add and remove "
        "nodes); preview its decisions with `propscaler simulate`");
  }
  NodeScaleSettings s;
  nodescale::LoopOptions& loop = s.loop;
  loop.namespace_ = ns;
  loop.expander = FLAGS_expander;
  loop.expendable_pods_priority_cutoff = FLAGS_expendable_pods_priority_cutoff;
  loop.scale_up.balance_similar_node_groups = FLAGS_balance_similar_node_groups;
  if (Status st = ApplyScaleDownFlags(&loop); !st.ok()) return st;
  if (Status st = ApplyProviderFlags(&s); !st.ok()) return st;
  if (Status st = ApplyNodeHealth(&loop.node_health); !st.ok()) return st;
  loop.scale_up.taints = loop.node_health.taints;
  loop.scale_up.csi_node_aware_scheduling =
      FLAGS_enable_csi_node_aware_scheduling;
  if (Status st = CheckCounts(); !st.ok()) return st;
  if (Status st = ApplyLimits(&loop.scale_up.limits); !st.ok()) return st;
  loop.scale_down.limits = loop.scale_up.limits;
  if (Status st = ApplyDurations(&loop); !st.ok()) return st;
  if (Status st = ApplyProvisioningRequestFlags(&loop); !st.ok()) return st;
  if (Status st = CheckDurations(loop, &s); !st.ok()) return st;
  if (Status st = CheckDns1123Subdomain("--status-config-map-name",
                                        FLAGS_status_config_map_name);
      !st.ok()) {
    return st;
  }
  s.status_map = {FLAGS_write_status_configmap, FLAGS_status_config_map_name};
  s.ca_metrics = {FLAGS_emit_per_nodegroup_metrics, FLAGS_max_nodes_total};
  return s;
}

}  // namespace propscaler
