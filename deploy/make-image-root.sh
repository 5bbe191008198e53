#!/usr/bin/env bash
# Stages the image's root filesystem from a built propscaler binary, for
# deploy/Containerfile (FROM scratch) to copy whole, distroless-style:
#   - the binary, stripped, at /usr/local/bin/propscaler, and the paths
#     CPA's and CPVA's manifests run (/cluster-proportional-autoscaler,
#     /cpvpa; /cpvpa starts vertical mode);
#   - exactly the shared libraries it loads (ldd) and the dynamic loader,
#     at the paths the loader looks them up by;
#   - Debian's CA bundle, passwd and group entries for root and nonroot
#     (65532), an empty /tmp, and params/;
#   - no shell, no package manager, nothing else.
#
#   deploy/make-image-root.sh build/propscaler build/image-root
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 BINARY ROOT" >&2
  exit 2
fi
binary=$1
root=$2
here=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$binary" ] || { echo "make-image-root: $binary: not an executable" >&2; exit 1; }
bundle=/etc/ssl/certs/ca-certificates.crt
[ -s "$bundle" ] || { echo "make-image-root: $bundle missing (install ca-certificates)" >&2; exit 1; }

rm -rf "$root"
mkdir -p "$root/usr/local/bin" "$root/etc/ssl/certs" "$root/tmp" \
  "$root/usr/share/propscaler"
strip --strip-all -o "$root/usr/local/bin/propscaler" "$binary"
ln -s /usr/local/bin/propscaler "$root/cluster-proportional-autoscaler"
ln -s /usr/local/bin/propscaler "$root/cpvpa"

# "libfoo.so.1 => /lib/x86_64-linux-gnu/libfoo.so.1 (0x...)" and the
# loader's own "/lib64/ld-linux-x86-64.so.2 (0x...)"; linux-vdso has no file.
libraries=$(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}')
if grep -q "not found" <(ldd "$binary"); then
  echo "make-image-root: ldd cannot resolve every library of $binary" >&2
  exit 1
fi
for library in $libraries; do
  mkdir -p "$root$(dirname "$library")"
  cp -L "$library" "$root$library"
done

cp -L "$bundle" "$root/etc/ssl/certs/ca-certificates.crt"
cat > "$root/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/sbin/nologin
nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin
PASSWD
cat > "$root/etc/group" <<'GROUP'
root:x:0:
nonroot:x:65532:
GROUP
chmod 1777 "$root/tmp"
cp -r "$here/params" "$root/usr/share/propscaler/params"
echo "make-image-root: $root: $(echo "$libraries" | wc -w) libraries, $(du -sh --apparent-size "$root" | cut -f1)"
