#!/usr/bin/env bash
# Installs a trace viewer when missing (Debian's chromium and nodejs/npm;
# speedscope and playwright-core from npm, versions in
# test/TraceViewer/package-lock.json) and runs the test that opens a real
# layer's trace in it.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's nodejs brings npm on a fresh machine; a machine with
# NodeSource's nodejs has npm already.
if command -v npm >/dev/null; then
  scripts/setup.sh chromium
else
  scripts/setup.sh chromium npm
fi
[ -d test/TraceViewer/node_modules/speedscope ] || (cd test/TraceViewer && npm ci --no-audit --no-fund)
exec /usr/lib/llvm-22/bin/lit -v build/test/TraceViewer
