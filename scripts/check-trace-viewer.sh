#!/usr/bin/env bash
# Installs a trace viewer when missing (Debian's chromium and nodejs/npm;
# speedscope and playwright-core from npm, versions in
# test/TraceViewer/package-lock.json) and runs the test that opens a real
# layer's trace in it.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
for package in chromium; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" \
    || missing+=("$package")
done
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "check-trace-viewer: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q "${missing[@]}"
fi
[ -d test/TraceViewer/node_modules/speedscope ] || (cd test/TraceViewer && npm ci --no-audit --no-fund)
exec /usr/lib/llvm-22/bin/lit -v build/test/TraceViewer
