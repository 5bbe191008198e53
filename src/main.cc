// propscaler: a subcommand (plan, simulate) or a mode (replicas, the
// default, or node-scale), chosen from the command line.
#include <gflags/gflags.h>
#include <glog/logging.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "app/flag_help.h"
#include "app/flag_spelling.h"
#include "app/mode_choice.h"
#include "app/node_scale_mode.h"
#include "app/plan_command.h"
#include "app/replica_mode.h"
#include "app/shared_flags.h"
#include "app/simulate_command.h"
#include "app/vertical_mode.h"
#include "common/free_heap_pages.h"
#include "server/build_revision.h"

// gflags' hook for ending the process on a bad flag (an illegal value, an
// unknown flag); exported by libgflags though not in its header. It exits 1,
// which propscaler keeps for failed cycles: bad usage is 2.
namespace google {
extern void (*gflags_exitfunc)(int);
}  // namespace google

namespace propscaler {
namespace {

// gflags also ends the process this way after --help and its kin (with 1)
// and --version (with 0): those asked for what they got.
void ExitOnBadFlag(int code) {
  for (const char* help : {"help", "helpfull", "helpshort", "helpon",
                           "helpmatch", "helppackage", "helpxml"}) {
    std::string value;
    if (gflags::GetCommandLineOption(help, &value) && !value.empty() &&
        value != "false") {
      std::exit(0);
    }
  }
  std::exit(code == 0 ? 0 : kExitUsage);
}

constexpr char kUsage[] =
    "sizes Kubernetes workloads and node groups to the cluster.\n"
    "  propscaler --target=deployment/coredns --configmap=dns-autoscaler "
    "[--namespace=NS] [--default-params=JSON] [--kubeconfig=FILE]\n"
    "      replica mode (the default): cluster-proportional-autoscaler\n"
    "  propscaler --mode=vertical --target=daemonset/calico-typha "
    "--default-config=JSON|--config-file=FILE [--namespace=NS]\n"
    "      vertical mode: cluster-proportional-vertical-autoscaler\n"
    "  propscaler --mode=node-scale [--cloud-provider=kwok|clusterapi] "
    "[--node-group-config=CONFIGMAP]\n"
    "      node-scale mode: node groups up for unschedulable pods, down "
    "when unneeded\n"
    "  propscaler plan --params=FILE|--configmap-json=FILE [--nodes=FILE]\n"
    "      the replicas params give for 1 to N nodes, as a table or SVG\n"
    "  propscaler simulate --nodes=FILE --pods=FILE --node-groups=FILE\n"
    "      what node-scale mode would do for a cluster snapshot";

// --help, -help and -h: propscaler's own flags by mode (gflags' --helpfull
// lists glog's too).
bool AsksForOwnHelp(const std::vector<std::string>& args) {
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-help" || args[i] == "-h" ||
        args[i] == "--help=true") {
      return true;
    }
  }
  return false;
}

std::string OwnFlagsHelp() {
  std::vector<gflags::CommandLineFlagInfo> all;
  gflags::GetAllFlags(&all);
  std::vector<FlagDescription> flags;
  for (const gflags::CommandLineFlagInfo& flag : all) {
    flags.push_back({flag.name, flag.type, flag.default_value, flag.description,
                     flag.filename});
  }
  return FlagsHelp(std::string("propscaler ") + kUsage, flags);
}

}  // namespace
}  // namespace propscaler

int main(int argc, char** argv) {
  propscaler::UseOneHeapArena();
  if (argc > 1 && std::string_view(argv[1]) == "simulate") {
    return propscaler::RunSimulateCommand(argc - 1, argv + 1);
  }
  if (argc > 1 && std::string_view(argv[1]) == "plan") {
    return propscaler::RunPlanCommand(argc - 1, argv + 1);
  }
  std::vector<std::string> args = propscaler::JoinRepeatedFlag(
      propscaler::NormalizeFlagSpelling(
          std::vector<std::string>(argv, argv + argc)),
      "node_group_auto_discovery", ';');
  std::vector<char*> arg_pointers;
  for (std::string& arg : args) arg_pointers.push_back(arg.data());
  int normalized_argc = static_cast<int>(arg_pointers.size());
  char** normalized_argv = arg_pointers.data();

  FLAGS_logtostderr = true;  // as Kubernetes components log
  gflags::SetVersionString(std::string(PROPSCALER_VERSION) + " (commit " +
                           std::string(propscaler::BuildRevision()) + ") " +
                           std::string(propscaler::BuildType()));
  gflags::SetUsageMessage(propscaler::kUsage);
  if (propscaler::AsksForOwnHelp(args)) {
    std::fputs(propscaler::OwnFlagsHelp().c_str(), stdout);
    return 0;
  }
  google::gflags_exitfunc = &propscaler::ExitOnBadFlag;
  gflags::ParseCommandLineFlags(&normalized_argc, &normalized_argv, true);
  FLAGS_mode = propscaler::ChooseMode(
      {argv[0], !gflags::GetCommandLineFlagInfoOrDie("mode").is_default,
       FLAGS_mode,
       !gflags::GetCommandLineFlagInfoOrDie("default_config").is_default ||
           !gflags::GetCommandLineFlagInfoOrDie("config_file").is_default});
  google::InitGoogleLogging(argv[0]);
  if (normalized_argc > 1) {
    LOG(ERROR) << "unexpected argument \"" << normalized_argv[1] << "\"";
    return propscaler::kExitUsage;
  }
  if (propscaler::Status flags = propscaler::CheckSharedFlags(); !flags.ok()) {
    LOG(ERROR) << flags.message();
    return propscaler::kExitUsage;
  }
  if (FLAGS_mode == "node-scale") return propscaler::RunNodeScaleMode();
  if (FLAGS_mode == "vertical") return propscaler::RunVerticalMode();
  return propscaler::RunReplicaMode();
}
