#!/usr/bin/env bash
# Builds the DocC catalog with the toolchain's docc: symbol graphs from the compiler, then
# `docc convert`. The output lands in .build/docs (ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=.build/symbol-graphs
rm -rf "$graphs" && mkdir -p "$graphs"
swift build --target OfflineEngine \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" >/dev/null
docc convert Sources/OfflineEngine/OfflineEngine.docc \
    --fallback-display-name OfflineEngine --fallback-bundle-identifier dev.offlineengine \
    --additional-symbol-graph-dir "$graphs" --output-path .build/docs --warnings-as-errors
echo "documentation: .build/docs"
