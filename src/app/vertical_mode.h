// `propscaler --mode=vertical`: cluster-proportional-vertical-autoscaler's
// job with its flags (--target, --namespace, --default-config,
// --config-file, --poll-period-seconds, --kubeconfig, --dry-run,
// --version). Wires its parts (app/vertical_parts.h), the Event recorder,
// /healthz, /last-poll, /metrics and /status and the loop, and runs until
// SIGTERM (or one cycle with --once). Returns the exit code: 2 on bad
// flags, 1 when --once's cycle or --max-sync-failures fails.
#ifndef PROPSCALER_APP_VERTICAL_MODE_H_
#define PROPSCALER_APP_VERTICAL_MODE_H_

namespace propscaler {

int RunVerticalMode();

}  // namespace propscaler

#endif  // PROPSCALER_APP_VERTICAL_MODE_H_
