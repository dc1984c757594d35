#!/usr/bin/env bash
# make e2e-run: the end-to-end tests (all but the host and consumer sites') on what `make examples` built,
# against two servers of dist/ on free ports: one plain, one with the post's strict CSP.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/serving.sh
serve base --dir dist
serve csp_base --dir dist --csp
# shellcheck disable=SC2154 # serve (scripts/serving.sh) sets base and csp_base with printf -v
export BASE_URL=$base CSP_BASE_URL=$csp_base
export PLAYWRIGHT_CORE=$PWD/.tools/node/node_modules/playwright-core AXE_CORE=$PWD/.tools/node/node_modules/axe-core/axe.min.js
# Not exec: the EXIT trap must run to stop the servers.
tests=()
for test in tests/e2e/*.test.mjs; do
  [[ $test == */hosts.test.mjs || $test == */consumers.test.mjs ]] || tests+=("$test")
done
# Two files at a time (E2E_JOBS): node's default on 2 cores is one, and a file mostly waits on its
# pages, so one file at a time left a core idle (89 core-seconds of a fresh make test's e2e).
node --test --test-concurrency="${E2E_JOBS:-2}" "${tests[@]}"
