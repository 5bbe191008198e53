#!/usr/bin/env bash
# Node-scale demo on the built-in simulated cluster with the kwok provider:
# six pending pods make nodes appear (exactly the three they need), a tiny
# "scheduler" here binds them, then the pods are deleted and the nodes are
# tainted and removed after the (shortened) unneeded time. Its status page
# draws the run; DEMO_STATUS_PORT picks its port (default: a free one) and
# DEMO_HOLD_SECONDS keeps it up that long at the end (default 0).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
# shellcheck source=deploy/demo/sim_cluster.sh
. "$root/deploy/demo/sim_cluster.sh"
start_sim_cluster
api() { curl -sf -X "$1" -H 'Content-Type: application/json' "$url$2" ${3:+-d "$3"}; }
# No node is an empty list, not a failure (grep finds nothing then).
nodes() { api GET /api/v1/nodes | { grep -o '"name":"small-[a-z0-9]*"' || true; } | cut -d'"' -f4 | sort | tr '\n' ' '; }
pod() {  # name [node]
  local sched='{"type":"PodScheduled","status":"False","reason":"Unschedulable"}' phase=Pending
  [ -n "${2:-}" ] && sched='{"type":"PodScheduled","status":"True"}' && phase=Running
  api POST /api/v1/namespaces/default/pods "{\"metadata\":{\"name\":\"$1\",\"ownerReferences\":[{\"kind\":\"ReplicaSet\",\"name\":\"web\",\"controller\":true}]},\"spec\":{\"nodeName\":\"${2:-}\",\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1500m\",\"memory\":\"1Gi\"}}}]},\"status\":{\"phase\":\"$phase\",\"conditions\":[$sched]}}" >/dev/null
}

groups='{"nodeGroups":[{"name":"small","minSize":0,"maxSize":10,"template":{"allocatable":{"cpu":"4","memory":"16Gi","pods":"110"},"labels":{},"taints":[]}}]}'
api POST /api/v1/namespaces/kube-system/configmaps \
  "{\"metadata\":{\"name\":\"node-groups\"},\"data\":{\"node-groups.json\":$(printf '%s' "$groups" | python3 -c 'import json,sys;print(json.dumps(sys.stdin.read()))')}}" >/dev/null

port=$(status_port)
"$build/propscaler" --mode=node-scale --kubeconfig="$work/kubeconfig" \
  --cloud-provider=kwok --node-group-config=node-groups --leader-elect=false \
  --scan-interval=1s --scale-down-unneeded-time=5s \
  --scale-down-delay-after-add=5s --healthz-port="$port" \
  > >(grep --line-buffered -E "scale-up|kwok:|unneeded|removed" |
    sed -u 's/^[IWEF][0-9]* [0-9:.]* *[0-9]* [a-z_.]*:[0-9]*\] /[propscaler] /') 2>&1 &
# propscaler itself, so that it is stopped at the end (the last command of a
# pipeline would be, and propscaler would outlive it).
pids+=($!)

echo "demo: simulated cluster at $url, node group small (4 cores, 0..10 nodes)"
echo "demo: open http://127.0.0.1:$port/status to watch the nodes come and go"
echo "demo: creating 6 pending pods of 1.5 cores: they need 3 nodes"
for i in 1 2 3 4 5 6; do pod "web-$i"; done
for _ in $(seq 100); do [ "$(nodes | wc -w)" -ge 3 ] && break; sleep 0.2; done
echo "demo: nodes now: $(nodes)"
echo "demo: binding the pods, two per node (the scheduler's job)"
read -r -a names <<<"$(nodes)"
for i in 1 2 3 4 5 6; do
  api DELETE "/api/v1/namespaces/default/pods/web-$i" >/dev/null
  pod "web-$i" "${names[$(((i - 1) / 2))]}"
done
sleep 3
echo "demo: nodes still: $(nodes)"
echo "demo: deleting all pods: the nodes become unneeded, are tainted, then removed"
for i in 1 2 3 4 5 6; do api DELETE "/api/v1/namespaces/default/pods/web-$i" >/dev/null; done
for _ in $(seq 150); do [ -z "$(nodes)" ] && break; sleep 0.2; done
left=$(nodes)
echo "demo: nodes now: ${left:-none}"
api GET /api/v1/namespaces/kube-system/configmaps/propscaler-status |
  python3 -c 'import json,sys;print(json.load(sys.stdin)["data"]["status"])' | sed 's/^/[status]     /'
hold=${DEMO_HOLD_SECONDS:-0}
if [ "$hold" -gt 0 ]; then
  echo "demo: the status page stays up for ${hold}s: http://127.0.0.1:$port/status"
  sleep "$hold"
fi
echo "demo: done"
