#!/usr/bin/env bash
# Builds the DocC catalog with the toolchain's docc: symbol graphs from the compiler, then
# `docc convert`. The output lands in .build/docs (ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
# A build of its own, whose graphs are kept between runs: a build with nothing to compile writes
# no symbol graph, and the graphs of the last one that compiled describe the same module.
scratch=.build/docs-build
graphs="$scratch/symbol-graphs"
mkdir -p "$graphs"
swift build --target OfflineEngine --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" >/dev/null
docc convert Sources/OfflineEngine/OfflineEngine.docc \
    --fallback-display-name OfflineEngine --fallback-bundle-identifier dev.offlineengine \
    --additional-symbol-graph-dir "$graphs" --output-path .build/docs --warnings-as-errors
echo "documentation: .build/docs"
