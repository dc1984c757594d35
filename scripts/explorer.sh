#!/usr/bin/env bash
# Runs the trainer-explorer CLI for the build scripts: $TRAINER_EXPLORER when the caller has one
# built, else through cargo. make test passes the one `cargo test` built: a plain cargo build
# would compile our crate and a few dependencies again, since the dev-dependencies turn on more
# features of crates we share with them (serde_json, hashbrown).
set -euo pipefail
if [[ -n ${TRAINER_EXPLORER:-} ]]; then
  exec "$TRAINER_EXPLORER" "$@"
fi
cd "$(dirname "$0")/.."
exec cargo run -q --bin trainer-explorer -- "$@"
