# Sourced by the demos and bench/health_port_load.sh (with $root and $build
# set): a work folder and background processes, both cleaned up on exit, and
# start_sim_cluster, which starts the built-in simulated cluster.
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# start_sim_cluster [propscaler-apiserver flag...]: starts it on a free port,
# logging to $work/sim.log; sets $url and writes $work/kubeconfig for it
# (namespace kube-system).
start_sim_cluster() {
  "$build/propscaler-apiserver" --port=0 "$@" >"$work/sim.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do
    grep -q "listening on" "$work/sim.log" 2>/dev/null && break
    sleep 0.1
  done
  url=$(grep -o "listening on [^ ]*" "$work/sim.log" | head -1 | cut -d' ' -f3)
  if [ -z "$url" ]; then
    echo "the simulated API server did not start:"
    cat "$work/sim.log"
    exit 1
  fi
  cat >"$work/kubeconfig" <<YAML
apiVersion: v1
kind: Config
current-context: sim
clusters: [{name: sim, cluster: {server: "$url"}}]
contexts: [{name: sim, context: {cluster: sim, namespace: kube-system}}]
YAML
}

# status_port: $DEMO_STATUS_PORT, or a free port on this machine, for
# propscaler's /status page (and /healthz, /metrics).
status_port() {
  if [ -n "${DEMO_STATUS_PORT:-}" ]; then
    echo "$DEMO_STATUS_PORT"
    return
  fi
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
