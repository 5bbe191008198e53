// `propscaler --mode=node-scale`: a node autoscaler for a real cluster. Wires
// the pod and node reflectors, the provider (--cloud-provider), leader
// election, the Event recorder, /healthz and the loop, and runs until
// SIGTERM. Returns the exit code (2 on bad flags).
#ifndef PROPSCALER_APP_NODE_SCALE_MODE_H_
#define PROPSCALER_APP_NODE_SCALE_MODE_H_

namespace propscaler {

int RunNodeScaleMode();

}  // namespace propscaler

#endif  // PROPSCALER_APP_NODE_SCALE_MODE_H_
