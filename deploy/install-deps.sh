#!/usr/bin/env bash
# Installs what propscaler needs to build and test, from Debian's packages
# only. Works on a minimal Debian bookworm as root (or with sudo).
set -euo pipefail
packages=(
  g++ cmake make pkg-config git ca-certificates openssl
  libcurl4-openssl-dev rapidjson-dev libgflags-dev libgoogle-glog-dev
  libcpp-httplib-dev libgtest-dev libyaml-cpp-dev libbenchmark-dev
  chromium  # the /status page test renders the page headless
  curl python3  # deploy/demo/node-scale.sh talks to the simulated cluster
  etcd-server xz-utils  # the real-server stage: etcd beside ../shared/envtest
  buildah podman runc  # ... and the image test: deploy/Containerfile built and run against it
  prometheus  # the e2e tests' real Prometheus; promtool for /metrics and the alerting rules
)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" ||
    missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
