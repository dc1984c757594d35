#!/bin/sh
# make lint: the builds that render snippets only (the widget, the core without features) compile
# no CEL, no YAML parser and none of explain's other heavy crates, and the explain module none of
# the YAML parser (ARCHITECTURE.md, crates/core/Cargo.toml's features). A dependency that turns
# one of them on for every build (a missing `optional`, a feature on in `[workspace.dependencies]`)
# compiles, links and passes every test; only the dependency graph shows it, so it is read here.
set -eu
cd "$(dirname "$0")/.."

# Crate names as `cargo tree --prefix none` starts its lines.
heavy='^(cel|cel-[a-z-]+|antlr4rust|yaml_serde|serde_yaml|yaml-rust2?|libyaml-rs|unsafe-libyaml|serde_path_to_error|regex|regex-lite|regex-syntax|jsonschema|clap|pulldown-cmark) '
yaml='^(yaml_serde|serde_yaml|yaml-rust2?|libyaml-rs|unsafe-libyaml) '
status=0

# refuse LABEL PATTERN CARGO-TREE-ARGS...: fails when the tree names a crate PATTERN matches.
refuse() {
	label=$1
	pattern=$2
	shift 2
	found=$(cargo tree --locked -e normal --prefix none "$@" | grep -E "$pattern" | sort -u || true)
	if [ -n "$found" ]; then
		printf '%s pulls in crates it must not compile:\n%s\n' "$label" "$found" >&2
		status=1
	fi
}

refuse "explorer-core --no-default-features" "$heavy" -p explorer-core --no-default-features
refuse "explorer-core --no-default-features --features js-floats (wasm32)" "$heavy" \
	-p explorer-core --no-default-features --features js-floats --target wasm32-unknown-unknown
refuse "explorer-html --no-default-features" "$heavy" -p explorer-html --no-default-features
refuse "the widget (trainer-v2-explorer, wasm32)" "$heavy" -p trainer-v2-explorer --target wasm32-unknown-unknown
refuse "explorer-core --features explain" "$yaml" -p explorer-core --no-default-features --features explain
refuse "the explain module (trainer-v2-explain, wasm32)" "$yaml" -p trainer-v2-explain --target wasm32-unknown-unknown
# The upgrade notes read YAML but explain nothing: no CEL or regex in their module.
refuse "the upgrade module (trainer-v2-upgrade, wasm32)" '^(cel|cel-[a-z-]+|antlr4rust|regex|regex-lite|regex-syntax) ' \
  -p trainer-v2-upgrade --target wasm32-unknown-unknown

# The tests' judges (crates/judges: claims checks, the reference CEL evaluation, test helpers)
# are a dev-dependency only: no product build compiles them.
judges='^explorer-judges '
refuse "the CLI (explorer-cli)" "$judges" -p explorer-cli
refuse "the converter module (trainer-v2-migrate)" "$judges" -p trainer-v2-migrate
refuse "the explain module (trainer-v2-explain)" "$judges" -p trainer-v2-explain
refuse "the widget (trainer-v2-explorer)" "$judges" -p trainer-v2-explorer
refuse "explorer-core, explorer-html" "$judges" -p explorer-core -p explorer-html

# The light core's own dependencies, each named here on purpose: a new one is weighed first.
direct=$(cargo tree --locked -e normal --prefix none --depth 1 -p explorer-core --no-default-features |
	awk 'NR > 1 { print $1 }' | sort -u | tr '\n' ' ')
if [ "$direct" != "explorer-data serde serde_json " ]; then
	printf 'explorer-core --no-default-features depends on: %s(expected explorer-data serde serde_json)\n' "$direct" >&2
	status=1
fi

[ "$status" = 0 ] && echo "light core: no CEL, YAML or other heavy crate where none belongs"
exit "$status"
