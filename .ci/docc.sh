#!/usr/bin/env bash
# Builds the DocC documentation of URLStubs and URLStubsTesting with the toolchain's
# own `docc` (no package dependency) and fails on any warning: a broken symbol link,
# an undocumented parameter, an unknown article. Symbol graphs come from
# `swift package dump-symbol-graph`, which reuses the debug build; then each
# module's catalog is converted with only that module's graphs.
# Usage: .ci/docc.sh [output directory]   (default: a fresh temporary directory)
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/urlstubs-docc.XXXXXX")}
graphs="$out/symbol-graphs"
rm -rf "$graphs"
mkdir -p "$graphs"

swift package dump-symbol-graph --minimum-access-level public >"$out/dump-symbol-graph.log" 2>&1 || {
    cat "$out/dump-symbol-graph.log" >&2
    exit 1
}
dumped=$(sed -n 's/^Files written to //p' "$out/dump-symbol-graph.log")
if [ -z "$dumped" ] || [ ! -d "$dumped" ]; then
    echo "swift package dump-symbol-graph did not say where it wrote the graphs" >&2
    cat "$out/dump-symbol-graph.log" >&2
    exit 1
fi

# The toolchain's docc: on PATH with a Linux toolchain, through xcrun with Xcode.
if command -v docc >/dev/null; then
    docc=(docc)
else
    docc=(xcrun docc)
fi

status=0
for module in URLStubs URLStubsTesting; do
    mkdir -p "$graphs/$module"
    cp "$dumped/$module.symbols.json" "$graphs/$module/"
    # The module's extensions of other modules' types (Foundation, Testing, URLStubs).
    find "$dumped" -maxdepth 1 -name "$module@*.symbols.json" -exec cp {} "$graphs/$module/" \;
    echo "== docc convert $module"
    if ! "${docc[@]}" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.urlstubs.$module" \
        --output-path "$out/$module.doccarchive" \
        --warnings-as-errors 2>&1 | tee "$out/$module.log"; then
        status=1
    fi
    # Belt and braces: a warning in the log fails the run even if docc exited 0.
    if grep -q "warning:\|error:" "$out/$module.log"; then
        echo "docc reported problems in $module (above)" >&2
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "documentation: $out (no warnings)"
exit "$status"
