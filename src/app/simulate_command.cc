#include "app/simulate_command.h"

#include <charconv>
#include <cstdint>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <string_view>

#include "app/shared_flags.h"
#include "app/simulate_output.h"
#include "app/simulate_provisioning.h"
#include "app/subcommand_flags.h"
#include "common/files.h"
#include "common/utc_time.h"
#include "kube/wire/provisioning_request_json.h"
#include "kube/wire/snapshot_json.h"
#include "kube/wire/volumes_json.h"
#include "nodescale/domain/instance_types_json.h"
#include "nodescale/domain/kwok_catalogue.h"
#include "nodescale/domain/node_groups_json.h"
#include "nodescale/domain/node_pools_json.h"
#include "nodescale/expander/chain.h"
#include "nodescale/plan/claims/claim_scheduler.h"
#include "nodescale/plan/disruption/disruption.h"
#include "nodescale/plan/scale_down/scale_down.h"
#include "nodescale/plan/scale_up/scale_up.h"
#include "nodescale/plan/simulation/volume_needs.h"

namespace propscaler {
namespace {

using namespace ::propscaler::nodescale;  // NOLINT: the command is their user

constexpr std::string_view kUsage =
    "usage: propscaler simulate --nodes=nodes.json --pods=pods.json "
    "(--node-groups=groups.json | --node-pools=nodepools.yaml "
    "[--instance-types=instance-types.json]) [--pdbs=pdbs.json] "
    "[--volumes=volumes.json] "
    "[--expander=least-waste] "
    "[--max-nodes-total=N] [--cores-total=MIN:MAX] [--memory-total=MIN:MAX] "
    "[--balance-similar-node-groups] [--enable-csi-node-aware-scheduling] "
    "[--scale-down-utilization-threshold=0.5] [--output=json|table] "
    "[--seed=N] [--now=2026-01-01T00:00:00Z] "
    "[--provisioning-requests=provreqs.json]";

constexpr std::string_view kFlagsHelp = R"(
Prints what node-scale mode would do for a cluster snapshot: the scale-up,
the scale-down and the disruption it would plan, and the answer to each
ProvisioningRequest. Reads files only; talks to no cluster and changes
nothing.

  --nodes=FILE              kubectl get nodes -o json (required)
  --pods=FILE               kubectl get pods -A -o json (required)
  --node-groups=FILE        the node groups, as kwok's node-groups.json
                            (this or --node-pools)
  --node-pools=FILE         Karpenter NodePools (karpenter.sh/v1): kubectl
                            get nodepools -o json, or YAML documents; the
                            scale-up is then node claims over the catalogue
  --instance-types=FILE     the catalogue, in the format of Karpenter's kwok
                            provider (--instance-types-file-path); default:
                            its generated 144 types
  --pdbs=FILE               kubectl get pdb -A -o json
  --volumes=FILE            kubectl get pv,pvc,storageclass,csinode,
                            csidriver,csistoragecapacity -A -o json
  --provisioning-requests=FILE
                            kubectl get provisioningrequests,podtemplates
                            -A -o json
  --expander=least-waste    random, most-pods, least-waste, price, priority;
                            a comma list chains them
  --max-nodes-total=N       most nodes; 0: no limit
  --cores-total=MIN:MAX     cores the cluster may have
  --memory-total=MIN:MAX    GiB of memory the cluster may have
  --balance-similar-node-groups
                            spread a scale-up over similar groups
  --enable-csi-node-aware-scheduling
                            plan new nodes with their CSI attach limits
  --scale-down-utilization-threshold=0.5
                            a node below this share of requests is unneeded
  --output=json             json or table
  --seed=N                  of the random expander and random ties
  --now=TIME                the time disruption is previewed at (UTC,
                            2026-01-01T00:00:00Z); default: now
  --help                    this text

Exit 0 on success; 2 on a usage error or a bad file, naming it.
)";

struct SimulateFlags {
  std::string nodes;
  std::string pods;
  std::string node_groups;
  std::string node_pools;      // Karpenter NodePools
  std::string instance_types;  // the kwok provider's catalogue format
  std::string pdbs;            // optional: `kubectl get pdb -A -o json`
  // optional: `kubectl get
  // pv,pvc,storageclass,csinode,csidriver,csistoragecapacity -A -o json`
  std::string volumes;
  // optional: `kubectl get provisioningrequests,podtemplates -A -o json`
  std::string provisioning_requests;
  std::string expander = "least-waste";
  std::string output = "json";
  ScaleUpConfig scale_up;
  ScaleDownConfig scale_down;
  uint64_t seed = 0;  // of the random expander and random ties
  // The time disruption is previewed at (node ages, budgets' schedules).
  TimePoint now = std::chrono::system_clock::now();
};

Status ApplyLimitFlag(const std::string& name, const std::string& value,
                      SimulateFlags* flags) {
  ResourceLimits& limits = flags->scale_up.limits;
  if (name == "max-nodes-total") {
    Result<int64_t> n = ParseNonNegativeFlag(name, value);
    if (!n.ok()) return n.status();
    limits.max_nodes_total = *n;
    return Status::Ok();
  }
  Result<MinMax> range = ParseMinMax(name, value);
  if (!range.ok()) return range.status();
  if (name == "cores-total") {
    limits.min_cores = range->min;
    limits.max_cores = range->max;
  } else {
    limits.min_memory_gib = range->min;
    limits.max_memory_gib = range->max;
  }
  return Status::Ok();
}

Status ApplyThreshold(const std::string& value, SimulateFlags* flags) {
  double threshold = 0;
  auto [ptr, ec] =
      std::from_chars(value.data(), value.data() + value.size(), threshold);
  if (value.empty() || ec != std::errc() ||
      ptr != value.data() + value.size() ||
      !(threshold >= 0 && threshold <= 1)) {  // so that NaN fails too
    return Status::Invalid("--scale-down-utilization-threshold=" + value +
                           ": want a number from 0 to 1");
  }
  flags->scale_down.utilization_threshold = threshold;
  return Status::Ok();
}

Status ApplyFlag(const std::string& name, const std::string& value,
                 bool has_value, SimulateFlags* flags) {
  std::map<std::string, std::string*> strings = {
      {"nodes", &flags->nodes},
      {"pods", &flags->pods},
      {"node-groups", &flags->node_groups},
      {"node-pools", &flags->node_pools},
      {"instance-types", &flags->instance_types},
      {"pdbs", &flags->pdbs},
      {"volumes", &flags->volumes},
      {"provisioning-requests", &flags->provisioning_requests},
      {"expander", &flags->expander},
      {"output", &flags->output}};
  if (auto it = strings.find(name); it != strings.end()) {
    *it->second = value;
    return Status::Ok();
  }
  std::map<std::string, bool*> bools = {
      {"balance-similar-node-groups",
       &flags->scale_up.balance_similar_node_groups},
      {"enable-csi-node-aware-scheduling",
       &flags->scale_up.csi_node_aware_scheduling}};
  if (auto it = bools.find(name); it != bools.end()) {
    if (has_value && value != "true" && value != "false") {
      return Status::Invalid("--" + name + "=" + value +
                             ": want true or false");
    }
    *it->second = !has_value || value == "true";
    return Status::Ok();
  }
  if (name == "max-nodes-total" || name == "cores-total" ||
      name == "memory-total") {
    return ApplyLimitFlag(name, value, flags);
  }
  if (name == "scale-down-utilization-threshold") {
    return ApplyThreshold(value, flags);
  }
  if (name == "seed") {
    Result<int64_t> seed = ParseNonNegativeFlag(name, value);
    if (!seed.ok()) return seed.status();
    flags->seed = static_cast<uint64_t>(*seed);
    return Status::Ok();
  }
  if (name == "now") {
    flags->now = ParseRfc3339(value);
    if (flags->now == TimePoint() || value.size() < 20 || value.back() != 'Z') {
      return Status::Invalid("--now=" + value +
                             ": want a UTC time like 2026-01-01T00:00:00Z");
    }
    return Status::Ok();
  }
  return Status::Invalid("unknown flag --" + name);
}

Result<SimulateFlags> ParseFlags(int argc, char** argv) {
  SimulateFlags flags;
  Result<std::vector<SubcommandFlag>> split = SplitSubcommandFlags(argc, argv);
  if (!split.ok()) return split.status();
  for (const SubcommandFlag& f : *split) {
    if (Status s = ApplyFlag(f.name, f.value, f.has_value, &flags); !s.ok()) {
      return s;
    }
  }
  if (flags.nodes.empty() || flags.pods.empty() ||
      (flags.node_groups.empty() && flags.node_pools.empty())) {
    return Status::Invalid(
        "--nodes, --pods and --node-groups or --node-pools are required");
  }
  if (!flags.instance_types.empty() && flags.node_pools.empty()) {
    return Status::Invalid("--instance-types=" + flags.instance_types +
                           ": the catalogue is for --node-pools");
  }
  if (flags.output != "json" && flags.output != "table") {
    return Status::Invalid("--output=" + flags.output + ": want json or table");
  }
  flags.scale_down.limits = flags.scale_up.limits;
  return flags;
}

// Reads and decodes one file; errors start with its path.
template <typename T>
Result<T> LoadFile(const std::string& path,
                   Result<T> (*decode)(std::string_view)) {
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  Result<T> decoded = decode(*text);
  if (!decoded.ok()) return decoded.status().WithContext(path);
  return decoded;
}

struct Inputs {
  ClusterSnapshot snapshot;
  nodescale::NodeGroupsFile groups;
  std::vector<NodePoolSpec> pools;  // with --node-pools
  std::vector<InstanceType> catalogue;
  std::optional<kube::ProvisioningRequestsFile> requests;
};

Status LoadNodePools(const SimulateFlags& flags, Inputs* inputs) {
  if (flags.node_pools.empty()) return Status::Ok();
  Result<std::vector<NodePoolSpec>> pools = LoadFile<std::vector<NodePoolSpec>>(
      flags.node_pools, &nodescale::DecodeNodePools);
  if (!pools.ok()) return pools.status();
  inputs->pools = std::move(pools).value();
  if (flags.instance_types.empty()) {
    inputs->catalogue = nodescale::KwokDefaultInstanceTypes();
    return Status::Ok();
  }
  Result<std::vector<InstanceType>> catalogue =
      LoadFile<std::vector<InstanceType>>(flags.instance_types,
                                          &nodescale::DecodeInstanceTypes);
  if (!catalogue.ok()) return catalogue.status();
  inputs->catalogue = std::move(catalogue).value();
  return Status::Ok();
}

Result<Inputs> LoadInputs(const SimulateFlags& flags) {
  Inputs inputs;
  Result<std::vector<NodeState>> nodes =
      LoadFile<std::vector<NodeState>>(flags.nodes, &kube::DecodeNodeListJson);
  if (!nodes.ok()) return nodes.status();
  Result<std::vector<PodState>> pods =
      LoadFile<std::vector<PodState>>(flags.pods, &kube::DecodePodListJson);
  if (!pods.ok()) return pods.status();
  Result<nodescale::NodeGroupsFile> groups = nodescale::NodeGroupsFile{};
  if (!flags.node_groups.empty()) {
    groups = LoadFile<nodescale::NodeGroupsFile>(
        flags.node_groups, &nodescale::DecodeNodeGroupsJson);
    if (!groups.ok()) return groups.status();
  }
  if (Status s = LoadNodePools(flags, &inputs); !s.ok()) return s;
  if (!flags.pdbs.empty()) {
    Result<std::vector<PdbState>> pdbs =
        LoadFile<std::vector<PdbState>>(flags.pdbs, &kube::DecodePdbListJson);
    if (!pdbs.ok()) return pdbs.status();
    inputs.snapshot.pdbs = std::move(pdbs).value();
  }
  inputs.snapshot.nodes = std::move(nodes).value();
  inputs.snapshot.pods = PodList(std::move(pods).value());
  // Without the file, claims are not looked at (a dump taken without its
  // volumes would otherwise have every claim "not found").
  if (!flags.volumes.empty()) {
    Result<kube::VolumeObjects> volumes = LoadFile<kube::VolumeObjects>(
        flags.volumes, &kube::DecodeVolumeObjectsJson);
    if (!volumes.ok()) return volumes.status();
    ResolveSnapshotVolumes(*volumes, &inputs.snapshot);
  }
  inputs.groups = std::move(groups).value();
  if (!flags.provisioning_requests.empty()) {
    Result<kube::ProvisioningRequestsFile> requests =
        LoadFile<kube::ProvisioningRequestsFile>(
            flags.provisioning_requests, &kube::DecodeProvisioningRequestsFile);
    if (!requests.ok()) return requests.status();
    inputs.requests = std::move(requests).value();
  }
  return inputs;
}

Result<std::unique_ptr<ExpanderChain>> BuildExpander(
    const SimulateFlags& flags, const nodescale::NodeGroupsFile& groups,
    std::mt19937_64* rng) {
  Result<PriorityConfig> priorities = CompilePriorities(groups.priorities);
  if (!priorities.ok()) {
    return priorities.status().WithContext(flags.node_groups + ": priorities");
  }
  if (flags.expander.find("priority") != std::string::npos &&
      groups.priorities.empty()) {
    return Status::Invalid("--expander=" + flags.expander + ": " +
                           flags.node_groups +
                           " has no \"priorities\" for the priority expander");
  }
  return MakeExpanderChain(flags.expander, *priorities, rng);
}

// The first command each disruption method would issue now, with the
// file's pools (or the default pool) and its priorities.
DisruptionPlan PreviewDisruption(const Inputs& inputs,
                                 const SimulateFlags& flags) {
  DisruptionInput input;
  input.snapshot = &inputs.snapshot;
  input.life = NodeLivesFromSnapshot(inputs.snapshot);
  input.groups = inputs.groups.groups;
  input.pools = inputs.groups.pools;
  if (Result<PriorityConfig> priorities =
          CompilePriorities(inputs.groups.priorities);
      priorities.ok()) {
    input.group_priority = GroupPriorities(input.groups, *priorities);
  }
  input.csi_node_aware_scheduling = flags.scale_up.csi_node_aware_scheduling;
  input.now = flags.now;
  DisruptionOptions options;
  options.preview = true;
  return PlanDisruption(input, options);
}

int Fail(const Status& status) {
  std::cerr << "propscaler simulate: " << status.message() << "\n";
  return kExitUsage;
}

}  // namespace

int RunSimulateCommand(int argc, char** argv) {
  if (AsksForHelp(argc, argv)) {
    std::cout << kUsage << "\n" << kFlagsHelp;
    return 0;
  }
  Result<SimulateFlags> flags = ParseFlags(argc, argv);
  if (!flags.ok()) {
    std::cerr << kUsage << "\n";
    return Fail(flags.status());
  }
  Result<Inputs> inputs = LoadInputs(*flags);
  if (!inputs.ok()) return Fail(inputs.status());
  std::mt19937_64 rng(flags->seed);
  Result<std::unique_ptr<ExpanderChain>> expander =
      BuildExpander(*flags, inputs->groups, &rng);
  if (!expander.ok()) return Fail(expander.status());
  const bool pools = !flags->node_pools.empty();
  const ScaleUpPlan up =
      pools ? ScaleUpPlan{}
            : PlanScaleUp(inputs->snapshot, inputs->groups.groups,
                          ScaleUpMemory{}, flags->scale_up, expander->get());
  ClaimPlan claims;
  ClaimPreview claim_preview{&claims, &inputs->snapshot, &inputs->pools,
                             &inputs->catalogue};
  if (pools) {
    claims =
        ScheduleClaims({&inputs->snapshot, &inputs->pools, &inputs->catalogue});
  }
  const ScaleDownPlan down =
      PlanScaleDown(inputs->snapshot, inputs->groups.groups, flags->scale_down);
  const DisruptionPlan disruption = PreviewDisruption(*inputs, *flags);
  std::optional<std::vector<ProvReqPreview>> requests;
  if (inputs->requests) {
    requests = PreviewProvisioningRequests(
        *inputs->requests, inputs->snapshot, flags->now,
        {&inputs->groups.groups, &flags->scale_up, expander->get()});
  }
  const ClaimPreview* preview = pools ? &claim_preview : nullptr;
  std::cout << (flags->output == "json"
                    ? SimulationJson(up, down, disruption, requests, preview)
                    : SimulationTable(up, down, disruption, requests, preview));
  return 0;
}

}  // namespace propscaler
