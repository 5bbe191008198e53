// `propscaler plan`: shows what replica params give before they are
// applied. For a node list (`kubectl get nodes -o json` output) it prints the
// counts and the replicas; without one, the replicas over cluster sizes of 1
// to N nodes as a table of the steps or as an SVG chart.
#ifndef PROPSCALER_APP_PLAN_COMMAND_H_
#define PROPSCALER_APP_PLAN_COMMAND_H_

namespace propscaler {

// argv[0] is "plan". Returns the exit code: 0 on success, 2 on a bad flag,
// file or params (one error line on stderr naming the file and the field).
int RunPlanCommand(int argc, char** argv);

}  // namespace propscaler

#endif  // PROPSCALER_APP_PLAN_COMMAND_H_
