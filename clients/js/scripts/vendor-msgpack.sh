#!/usr/bin/env bash
# Re-vendor @msgpack/msgpack's ES-module build into vendor/msgpack/, so a browser page or
# a Foundry module can import it without a bundler.  Pinned: VERSION and INTEGRITY are
# the registry's; a tarball that does not match is refused.
#   clients/js/scripts/vendor-msgpack.sh            (needs npm and network)
set -euo pipefail
VERSION=3.1.3
INTEGRITY=sha512-47XIizs9XZXvuJgoaJUIE2lFoID8ugvc0jzSHP+Ptfk8nTbnR8g788wv48N03Kx0UkAv559HWRQ3yzOgzlRNUA==
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent "@msgpack/msgpack@$VERSION" >/dev/null
tarball="msgpack-msgpack-$VERSION.tgz"
got="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
if [ "$got" != "$INTEGRITY" ]; then
  echo "integrity mismatch for @msgpack/msgpack@$VERSION: $got" >&2
  exit 1
fi
tar xzf "$tarball"
dest="$here/vendor/msgpack"
rm -rf "$dest"
mkdir -p "$dest/utils"
# The ES-module build only: not the source maps (they point at sources not shipped) nor
# the type declarations (they import the TypeScript sources, so they do not stand alone).
(cd package/dist.esm && for f in *.mjs utils/*.mjs; do cp "$f" "$dest/$f"; done)
cp package/LICENSE "$dest/LICENSE"
printf '@msgpack/msgpack %s (%s)\nhttps://github.com/msgpack/msgpack-javascript\nVendored by scripts/vendor-msgpack.sh; do not edit.\n' \
  "$VERSION" "$INTEGRITY" > "$dest/VERSION"
echo "vendored @msgpack/msgpack $VERSION into $dest"
