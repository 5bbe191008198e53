#!/usr/bin/env bash
# The main job on the built-in simulated cluster: starts propscaler-apiserver
# with a few nodes and a "coredns" Deployment, keeps adding, cordoning and
# removing nodes, and runs propscaler against it, so that the replica count
# it sets follows the cluster. Runs for DEMO_SECONDS (default 40), then stops.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
seconds=${DEMO_SECONDS:-40}
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

"$build/propscaler-apiserver" --port=0 \
  --nodes-file="$root/deploy/demo/nodes.json" \
  --workload=deployment/kube-system/coredns=1 \
  --churn-interval-seconds=3 \
  > >(tee "$work/sim.log" | grep --line-buffered "sim:" | sed -u 's/^/[cluster]    /') 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  grep -q "listening on" "$work/sim.log" 2>/dev/null && break
  sleep 0.1
done
url=$(grep -o "listening on [^ ]*" "$work/sim.log" | head -1 | cut -d' ' -f3)
[ -n "$url" ] || { echo "demo: the simulated API server did not start:"; cat "$work/sim.log"; exit 1; }
cat >"$work/kubeconfig" <<YAML
apiVersion: v1
kind: Config
current-context: sim
clusters: [{name: sim, cluster: {server: "$url"}}]
contexts: [{name: sim, context: {cluster: sim, namespace: kube-system}}]
YAML

echo "demo: simulated cluster at $url; propscaler scales deployment/coredns"
echo "demo: params $(cat "$root/params/demo-linear.json")"
echo "demo: running for ${seconds}s (DEMO_SECONDS to change)"
"$build/propscaler" --kubeconfig="$work/kubeconfig" \
  --configmap=coredns-autoscaler --target=deployment/coredns \
  --default-params="$(cat "$root/params/demo-linear.json")" \
  --healthz-port=0 \
  > >(sed -u 's/^[IWEF][0-9]* [0-9:.]* *[0-9]* [a-z_.]*:[0-9]*\] /[propscaler] /') 2>&1 &
pids+=($!)
sleep "$seconds"
echo "demo: done"
