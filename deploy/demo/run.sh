#!/usr/bin/env bash
# The main job on the built-in simulated cluster: starts propscaler-apiserver
# with a few nodes and a "coredns" Deployment, keeps adding, cordoning and
# removing nodes, and runs propscaler against it, so that the replica count
# it sets follows the cluster; its status page draws the run. Runs for
# DEMO_SECONDS (default 40), then stops. DEMO_STATUS_PORT picks the page's
# port (default: a free one).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
seconds=${DEMO_SECONDS:-40}
# shellcheck source=deploy/demo/sim_cluster.sh
. "$root/deploy/demo/sim_cluster.sh"
start_sim_cluster --nodes-file="$root/deploy/demo/nodes.json" \
  --workload=deployment/kube-system/coredns=1 \
  --churn-interval-seconds=3
tail -n +1 --pid="${pids[0]}" -f "$work/sim.log" | grep --line-buffered "sim:" |
  sed -u 's/^/[cluster]    /' &
pids+=($!)

port=$(status_port)
echo "demo: simulated cluster at $url; propscaler scales deployment/coredns"
echo "demo: open http://127.0.0.1:$port/status to watch replicas follow nodes"
echo "demo: params $(cat "$root/params/demo-linear.json")"
echo "demo: running for ${seconds}s (DEMO_SECONDS to change)"
"$build/propscaler" --kubeconfig="$work/kubeconfig" \
  --configmap=coredns-autoscaler --target=deployment/coredns \
  --default-params="$(cat "$root/params/demo-linear.json")" \
  --healthz-port="$port" \
  > >(sed -u 's/^[IWEF][0-9]* [0-9:.]* *[0-9]* [a-z_.]*:[0-9]*\] /[propscaler] /') 2>&1 &
pids+=($!)
sleep "$seconds"
echo "demo: done"
