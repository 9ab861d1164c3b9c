#!/usr/bin/env bash
# Installs the system tools `npm test` needs that this machine lacks (the list is scripts/test-tools.txt), from
# Debian's or Ubuntu's packages. Run as root (CI does) or it asks for sudo.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
while read -r command package _; do
  [[ -z "$command" || "$command" == \#* ]] && continue
  command -v "$command" >/dev/null || need+=("$package")
done < scripts/test-tools.txt
[ ${#need[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
  echo "Install these packages with your system's package manager, then run npm test again: ${need[*]}" >&2
  exit 1
fi
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
echo "Installing ${need[*]} from the distribution's packages…"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
