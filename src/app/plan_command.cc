#include "app/plan_command.h"

#include <iostream>
#include <map>
#include <string>
#include <string_view>

#include "app/node_list_counts.h"
#include "app/plan_output.h"
#include "app/plan_svg.h"
#include "app/shared_flags.h"
#include "app/subcommand_flags.h"
#include "common/files.h"
#include "common/label_selector.h"
#include "common/quantity.h"
#include "common/taint_filter.h"
#include "kube/wire/decode.h"
#include "replicas/arithmetic.h"
#include "replicas/params.h"
#include "replicas/params_svg.h"
#include "replicas/plan_table.h"
#include "vertical/vertical_config.h"
#include "vertical/vertical_plan.h"

namespace propscaler {
namespace {

constexpr int64_t kMaxPlanNodes = 1'000'000;
constexpr int64_t kMaxCpuMillisPerNode = 1'000'000'000;  // a million cores
constexpr int64_t kMaxPodsPerNode = 1'000'000;

constexpr std::string_view kUsage =
    "usage: propscaler plan --params=FILE|--configmap-json=FILE "
    "[--nodes=nodes.json] [--nodelabels=SELECTOR] "
    "[--exclude-node-taints=KEY[:EFFECT],...] [--cores-per-node=4] "
    "[--max-nodes=5000] [--pods-per-node=N] [--format=table|svg]\n"
    "       propscaler plan --vertical-config=FILE [--cores-per-node=4] "
    "[--max-nodes=5000] [--format=table|svg]";

constexpr std::string_view kFlagsHelp = R"(
Previews the replicas (or, with --vertical-config, the requests) a params
file gives for cluster sizes, or for a node list. Reads files only; talks to
no cluster.

  --params=FILE            params as --default-params takes them (JSON)
  --configmap-json=FILE    the ConfigMap: kubectl get configmap X -o json
  --vertical-config=FILE   vertical mode's config (CPVA's JSON)
  --nodes=FILE             a node list: kubectl get nodes -o json; counted
                           as replica mode counts it (one row)
  --nodelabels=SELECTOR    with --nodes: only the nodes it matches
  --exclude-node-taints=KEY[:EFFECT],...
                           with --nodes: leave out nodes with these taints
  --cores-per-node=4       cores of each node in the drawn sizes
  --max-nodes=5000         the largest cluster size drawn (1 to 1000000)
  --pods-per-node=N        pods counted per node (for podsPerReplica params)
  --format=table           table, or svg (a chart of the curve)
  --help                   this text

Exit 0 on success; 2 on a usage error or a bad file, naming it.
)";

struct PlanFlags {
  std::string params;           // a --default-params style JSON file
  std::string configmap_json;   // kubectl get configmap X -o json
  std::string vertical_config;  // vertical mode's config (CPVA's JSON)
  std::string nodes;            // kubectl get nodes -o json
  std::string nodelabels;
  std::string exclude_node_taints;
  std::string format = "table";
  PlanRange range;
};

Status ApplyRangeFlag(const SubcommandFlag& flag, PlanRange* range) {
  if (flag.name == "pods-per-node") {
    Result<int64_t> n = ParseNonNegativeFlag(flag.name, flag.value);
    if (!n.ok()) return n.status();
    if (*n > kMaxPodsPerNode) {
      return Status::Invalid("--pods-per-node=" + flag.value + ": want 0 to " +
                             std::to_string(kMaxPodsPerNode));
    }
    range->pods_per_node = *n;
    return Status::Ok();
  }
  if (flag.name == "max-nodes") {
    Result<int64_t> n = ParseNonNegativeFlag(flag.name, flag.value);
    if (!n.ok()) return n.status();
    if (*n < 1 || *n > kMaxPlanNodes) {
      return Status::Invalid("--max-nodes=" + flag.value + ": want 1 to " +
                             std::to_string(kMaxPlanNodes));
    }
    range->max_nodes = *n;
    return Status::Ok();
  }
  Result<int64_t> millis = ParseMilliQuantity(flag.value);
  if (!millis.ok()) {
    return millis.status().WithContext("--cores-per-node=" + flag.value);
  }
  if (*millis <= 0 || *millis > kMaxCpuMillisPerNode) {
    return Status::Invalid("--cores-per-node=" + flag.value +
                           ": want a CPU quantity above 0 and at most 1000000");
  }
  range->cpu_millis_per_node = *millis;
  return Status::Ok();
}

Status ApplyFlag(const SubcommandFlag& flag, PlanFlags* flags) {
  std::map<std::string, std::string*> strings = {
      {"params", &flags->params},
      {"configmap-json", &flags->configmap_json},
      {"vertical-config", &flags->vertical_config},
      {"nodes", &flags->nodes},
      {"nodelabels", &flags->nodelabels},
      {"exclude-node-taints", &flags->exclude_node_taints},
      {"format", &flags->format}};
  if (auto it = strings.find(flag.name); it != strings.end()) {
    if (!flag.has_value) {
      return Status::Invalid("--" + flag.name + " needs a value");
    }
    *it->second = flag.value;
    return Status::Ok();
  }
  if (flag.name == "max-nodes" || flag.name == "cores-per-node" ||
      flag.name == "pods-per-node") {
    return ApplyRangeFlag(flag, &flags->range);
  }
  return Status::Invalid("unknown flag --" + flag.name);
}

Status CheckFlags(const PlanFlags& flags) {
  const int sources = !flags.params.empty() + !flags.configmap_json.empty() +
                      !flags.vertical_config.empty();
  if (sources != 1) {
    return Status::Invalid(
        "want exactly one of --params, --configmap-json and "
        "--vertical-config");
  }
  if (!flags.vertical_config.empty() && !flags.nodes.empty()) {
    return Status::Invalid(
        "--vertical-config draws cluster sizes; it does not take --nodes");
  }
  if (flags.format != "table" && flags.format != "svg") {
    return Status::Invalid("--format=" + flags.format + ": want table or svg");
  }
  if (!flags.nodes.empty() && flags.format == "svg") {
    return Status::Invalid(
        "--format=svg draws cluster sizes; it does not take --nodes");
  }
  if (flags.nodes.empty() && !flags.nodelabels.empty()) {
    return Status::Invalid("--nodelabels=" + flags.nodelabels +
                           " selects nodes of --nodes, which is not given");
  }
  if (flags.nodes.empty() && !flags.exclude_node_taints.empty()) {
    return Status::Invalid(
        "--exclude-node-taints=" + flags.exclude_node_taints +
        " excludes nodes of --nodes, which is not given");
  }
  return Status::Ok();
}

Result<PlanFlags> ParseFlags(int argc, char** argv) {
  Result<std::vector<SubcommandFlag>> split = SplitSubcommandFlags(argc, argv);
  if (!split.ok()) return split.status();
  PlanFlags flags;
  for (const SubcommandFlag& flag : *split) {
    if (Status s = ApplyFlag(flag, &flags); !s.ok()) return s;
  }
  if (Status s = CheckFlags(flags); !s.ok()) return s;
  return flags;
}

// The ConfigMap data the params come from: the --params file as
// --default-params would turn it into data, or the data of the ConfigMap.
Result<std::map<std::string, std::string>> LoadParamsData(
    const PlanFlags& flags) {
  if (!flags.params.empty()) {
    Result<std::string> text = ReadFile(flags.params);
    if (!text.ok()) return text.status();
    return DefaultParamsToData(*text);
  }
  Result<std::string> text = ReadFile(flags.configmap_json);
  if (!text.ok()) return text.status();
  Result<kube::ConfigMap> config_map = kube::DecodeConfigMap(*text);
  if (!config_map.ok()) return config_map.status();
  return config_map->data;
}

Result<Params> LoadParams(const PlanFlags& flags) {
  const std::string& path =
      flags.params.empty() ? flags.configmap_json : flags.params;
  Result<std::map<std::string, std::string>> data = LoadParamsData(flags);
  if (!data.ok()) return data.status().WithContext(path);
  Result<Params> params = ParseParams(*data);
  if (!params.ok()) return params.status().WithContext(path);
  return params;
}

Result<NodeListPlan> PlanNodeList(const PlanFlags& flags,
                                  const Params& params) {
  Result<LabelSelector> selector = LabelSelector::Parse(flags.nodelabels);
  if (!selector.ok()) return selector.status().WithContext("--nodelabels");
  Result<TaintFilter> excluded = TaintFilter::Parse(flags.exclude_node_taints);
  if (!excluded.ok()) {
    return excluded.status().WithContext("--exclude-node-taints");
  }
  Result<std::string> text = ReadFile(flags.nodes);
  if (!text.ok()) return text.status();
  Result<NodeListCounts> counts =
      CountNodeListJson(*text, *selector, *excluded);
  if (!counts.ok()) return counts.status().WithContext(flags.nodes);
  return NodeListPlan{flags.nodes,
                      flags.nodelabels,
                      *counts,
                      DesiredReplicas(params, counts->counts),
                      BoundAt(params, counts->counts),
                      excluded->ToString()};
}

int Fail(const Status& status) {
  std::cerr << "propscaler plan: " << status.message() << "\n";
  return kExitUsage;
}

int PlanVertical(const PlanFlags& flags) {
  Result<std::string> text = ReadFile(flags.vertical_config);
  if (!text.ok()) return Fail(text.status());
  Result<VerticalConfig> config =
      ParseVerticalConfig(*text, flags.vertical_config);
  if (!config.ok()) return Fail(config.status());
  const VerticalPlan plan = VerticalPlanCurve(
      *config, flags.range.cpu_millis_per_node, flags.range.max_nodes);
  std::cout << (flags.format == "svg" ? VerticalPlanSvg(*config, plan)
                                      : VerticalPlanTableText(*config, plan));
  return 0;
}

}  // namespace

int RunPlanCommand(int argc, char** argv) {
  if (AsksForHelp(argc, argv)) {
    std::cout << kUsage << "\n" << kFlagsHelp;
    return 0;
  }
  Result<PlanFlags> flags = ParseFlags(argc, argv);
  if (!flags.ok()) {
    std::cerr << kUsage << "\n";
    return Fail(flags.status());
  }
  if (!flags->vertical_config.empty()) return PlanVertical(*flags);
  Result<Params> params = LoadParams(*flags);
  if (!params.ok()) return Fail(params.status());
  if (UsesPods(*params) &&
      (!flags->nodes.empty() || !flags->range.pods_per_node.has_value())) {
    return Fail(Status::Invalid(
        "the params count pods (podsPerReplica or podsToReplicas): preview "
        "them over cluster sizes with --pods-per-node=N (the pods counted "
        "per node), without --nodes"));
  }
  if (!flags->nodes.empty()) {
    Result<NodeListPlan> plan = PlanNodeList(*flags, *params);
    if (!plan.ok()) return Fail(plan.status());
    std::cout << NodeListPlanText(*params, *plan);
    return 0;
  }
  const std::vector<PlanRow> curve = PlanCurve(*params, flags->range);
  std::cout << (flags->format == "svg"
                    ? PlanSvg(*params, flags->range, curve)
                    : PlanTableText(*params, flags->range, PlanSteps(curve)));
  return 0;
}

}  // namespace propscaler
