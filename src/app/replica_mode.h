// `propscaler` (--mode=replicas, the default): cluster-proportional-
// autoscaler's job with its flags. Wires its parts (app/replica_parts.h),
// the Event recorder, /healthz, /last-poll, /metrics and /status and the
// loop, and runs until SIGTERM (or one cycle with --once). Returns the exit
// code: 2 on bad flags, 1 when --once's cycle or --max-sync-failures fails.
#ifndef PROPSCALER_APP_REPLICA_MODE_H_
#define PROPSCALER_APP_REPLICA_MODE_H_

namespace propscaler {

int RunReplicaMode();

}  // namespace propscaler

#endif  // PROPSCALER_APP_REPLICA_MODE_H_
