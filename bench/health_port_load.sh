#!/usr/bin/env bash
# Asks propscaler's health port many times, as Prometheus and a kubelet do
# (one kept-alive connection for /metrics, a new connection for each
# /healthz), with replica mode running on the built-in simulated cluster
# (nodes churning every second), and prints the heap in use, the heap's free
# space and RSS from /metrics every 500 requests: whether serving the port
# leaves memory behind.
#   bench/health_port_load.sh [REQUESTS] (default 3000 of each)
# BUILD_DIR picks the build (default build/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
requests=${1:-3000}
# shellcheck source=deploy/demo/sim_cluster.sh
. "$root/deploy/demo/sim_cluster.sh"
start_sim_cluster --nodes-file="$root/deploy/demo/nodes.json" \
  --workload=deployment/kube-system/coredns=1 --churn-interval-seconds=1
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$build/propscaler" --kubeconfig="$work/kubeconfig" \
  --configmap=coredns-autoscaler --target=deployment/coredns \
  --default-params="$(cat "$root/params/demo-linear.json")" \
  --healthz-port="$port" >"$work/propscaler.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done

python3 - "$port" "$requests" <<'PY'
import http.client, re, sys, time
port, requests = int(sys.argv[1]), int(sys.argv[2])
series = ("propscaler_heap_in_use_bytes", "propscaler_heap_free_bytes",
          "process_resident_memory_bytes")

def get(conn, path):
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read().decode()
    if response.status != 200:
        sys.exit(f"GET {path}: HTTP {response.status}")
    return body

def sample():
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    body = get(conn, "/metrics")
    conn.close()
    return [int(float(re.search("^" + s + r" (\S+)", body, re.M).group(1)) / 1024)
            for s in series]

print("requests  seconds  heap in use KiB  heap free KiB  RSS KiB")
kept = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
start = time.time()
for i in range(requests + 1):
    if i % 500 == 0:
        in_use, free, rss = sample()
        print(f"{2 * i:8d}  {time.time() - start:7.1f}  {in_use:15d}  {free:13d}  {rss:7d}",
              flush=True)
    try:
        get(kept, "/metrics")
    except (http.client.HTTPException, OSError):
        kept.close()  # the server closed the kept-alive connection: reopen
        kept = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    get(probe, "/healthz")
    probe.close()
PY
