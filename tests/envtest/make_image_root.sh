#!/usr/bin/env bash
# Makes ROOT a minimal Debian bookworm (debootstrap --variant=minbase) with
# exactly the runtime packages that deploy/Dockerfile's final stage installs,
# read from the Dockerfile itself, so a test that runs propscaler in ROOT
# proves that list is complete. Kept between runs while the list is the same.
#   make_image_root.sh ROOT
set -euo pipefail
root=$1
here=$(cd "$(dirname "$0")/../.." && pwd)

# The words after "apt-get install" in the stage FROM debian:bookworm-slim,
# up to the next "&&", without options.
packages=$(awk '/^FROM debian:bookworm-slim/{slim=1} slim' "$here/deploy/Dockerfile" |
  tr '\\\n' '  ' | sed -E 's/.*apt-get install//; s/&&.*//' |
  tr ' ' '\n' | grep -E '^[a-z0-9][a-z0-9.+-]+$' | sort | tr '\n' ' ')
if [ -z "$packages" ]; then
  echo "make_image_root: no runtime packages found in deploy/Dockerfile" >&2
  exit 1
fi
if [ -f "$root/.propscaler-packages" ] &&
   [ "$(cat "$root/.propscaler-packages")" = "$packages" ]; then
  exit 0
fi

# The mirror this machine's apt uses; debootstrap's own default otherwise.
mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
rm -rf "$root"
echo "make_image_root: debootstrap bookworm into $root, then: $packages"
debootstrap --variant=minbase bookworm "$root" $mirror >"$root.log" 2>&1 ||
  { tail -20 "$root.log" >&2; exit 1; }
chroot "$root" apt-get install -y -qq --no-install-recommends $packages \
  >>"$root.log" 2>&1 || { tail -20 "$root.log" >&2; exit 1; }
chroot "$root" apt-get clean
echo "$packages" > "$root/.propscaler-packages"
