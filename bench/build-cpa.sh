#!/bin/bash
# Builds cluster-proportional-autoscaler from a checkout of it, for the scale
# harness's side-by-side runs (`propscaler_scale_harness --cpa=BINARY`, see
# bench/README.md). Debian packages only: Go 1.23 from bookworm-backports
# (deb.debian.org) and CPA's own vendor/ tree (client-go 0.32.3); nothing is
# downloaded from the Go module proxy.
#
#   bench/build-cpa.sh CPA_CHECKOUT [OUT]    (OUT default: build-perf/cpa)
#
# Needs root (apt-get). The one change to CPA's sources: go.mod's `go 1.24`
# directive is lowered to 1.23 (every vendored module asks for 1.23 at most
# and CPA's code uses nothing newer), in a copy; the checkout is not touched.
set -euo pipefail
CPA=${1:?usage: $0 CPA_CHECKOUT [OUT]}
OUT=${2:-build-perf/cpa}
GO=/usr/lib/go-1.23/bin/go
export DEBIAN_FRONTEND=noninteractive GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=vendor CGO_ENABLED=0

[ -f "$CPA/cmd/cluster-proportional-autoscaler/autoscaler.go" ] ||
  { echo "$CPA: not a cluster-proportional-autoscaler checkout" >&2; exit 2; }
[ -d "$CPA/vendor" ] || { echo "$CPA: has no vendor/ tree (its HEAD has one)" >&2; exit 2; }

if [ ! -x "$GO" ]; then
  list=/etc/apt/sources.list.d/bookworm-backports.sources
  if [ ! -f "$list" ]; then
    printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' >"$list"
    apt-get update -q
  fi
  apt-get install -y -q --no-install-recommends -t bookworm-backports golang-1.23-go
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -a "$CPA/." "$work/"
rm -rf "$work/.git"
sed -i 's/^go 1\.2[4-9].*$/go 1.23/' "$work/go.mod"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
version=$(git -C "$CPA" describe --always --dirty 2>/dev/null || echo unknown)
(cd "$work" && GOCACHE=${GOCACHE:-/var/tmp/cpa-gocache} "$GO" build \
  -ldflags "-s -w -X github.com/kubernetes-sigs/cluster-proportional-autoscaler/pkg/version.VERSION=$version" \
  -o "$OUT/cluster-proportional-autoscaler" ./cmd/cluster-proportional-autoscaler)
echo "$OUT/cluster-proportional-autoscaler ($version, $("$GO" version | awk '{print $3}'))"
