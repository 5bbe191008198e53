#!/usr/bin/env bash
# Builds the image (deploy/Containerfile) from a built binary and writes its
# sizes as a result file for bench/tables.py ("image" tables): the image as
# podman reports it, the stripped binary, the shared libraries and loader.
# Fails (exit 1, the result file saying why) past the ceiling, the same one
# the real-server stage's ImageRealServerTest holds the image to.
#
#   bench/image_size.sh build/propscaler bench/results/FILE.json
#
# Needs buildah and podman (root).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 BINARY RESULT.json" >&2
  exit 2
fi
binary=$1
out=$2
here=$(cd "$(dirname "$0")/.." && pwd)
ceiling=$(sed -n 's/^constexpr int64_t kImageBytesCeiling = \([0-9'"'"']*\);/\1/p' \
  "$here/tests/envtest/image_real_server_test.cc" | tr -d "'")
[ -n "$ceiling" ] || { echo "image_size: no kImageBytesCeiling in the image test" >&2; exit 1; }

work=$(mktemp -d)
tag=localhost/propscaler:size-$$
trap 'podman rmi -f "$tag" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
"$here/deploy/make-image-root.sh" "$binary" "$work/root" >&2
buildah build --quiet -f "$here/deploy/Containerfile" -t "$tag" "$work/root" >/dev/null
image=$(podman image inspect --format '{{.Size}}' "$tag")
stripped=$(stat -c %s "$work/root/usr/local/bin/propscaler")
libraries=$(find "$work/root" -type f \( -name '*.so' -o -name '*.so.*' \) -printf '%s\n' |
  awk '{n++; s+=$1} END {print n+0, s+0}')

passed=true
failures='[]'
if [ "$image" -gt "$ceiling" ]; then
  passed=false
  failures="[\"image: $image bytes, over the ceiling of $ceiling\"]"
fi
commit=$(git -C "$here" rev-parse HEAD)
changed=false
[ -z "$(git -C "$here" status --porcelain --untracked-files=no)" ] || changed=true
# The binary measured names the commit it was built from (harness/result_file.h).
version=$("$binary" --version 2>&1 | head -n 1)
built_from=$(printf '%s' "$version" | sed -n 's/.*(commit \([^)]*\)).*/\1/p')
[ -n "$built_from" ] || built_from=unknown
cat > "$out" <<JSON
{"command":"bench/image_size.sh $*","commit":{"id":"$commit","changed":$changed},"binary":{"path":"$binary","version":"$version","commit":"$built_from"},"at":"$(date -u +%Y-%m-%dT%H:%M:%SZ)","machine":{"cores":$(nproc),"memory_mib":$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 )),"load_1m":$(cut -d' ' -f1 /proc/loadavg)},"passed":$passed,"failures":$failures,"figures":{"image_bytes":$image,"binary_stripped_bytes":$stripped,"library_count":${libraries% *},"libraries_bytes":${libraries#* },"ceiling_bytes":$ceiling}}
JSON
echo "image: $image bytes (ceiling $ceiling); binary $stripped; ${libraries% *} libraries ${libraries#* } bytes -> $out"
[ "$passed" = true ]
