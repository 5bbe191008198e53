// `propscaler simulate`: runs the node-scale core once on snapshot files
// (kubectl get nodes/pods -o json, and a node groups file) and prints the
// scale-up and scale-down plan as JSON or as a table.
#ifndef PROPSCALER_APP_SIMULATE_COMMAND_H_
#define PROPSCALER_APP_SIMULATE_COMMAND_H_

namespace propscaler {

// argv[0] is "simulate". Returns the exit code: 0 on success, 2 on a bad
// flag or file (one error line on stderr naming the file and the field).
int RunSimulateCommand(int argc, char** argv);

}  // namespace propscaler

#endif  // PROPSCALER_APP_SIMULATE_COMMAND_H_
