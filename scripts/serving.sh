# shellcheck shell=bash
# Sourced by the scripts that serve a folder to a browser (scripts/e2e-run.sh, scripts/bench.sh).
#   serve VAR ARGS...  starts scripts/serve.py ARGS on a free port, waits for the line it prints
#                      once its socket listens, and sets VAR to its URL (http://127.0.0.1:PORT/).
# Each server runs in a process group of its own, and an EXIT trap ends every group started
# here, so no server (nor anything it started) outlives the script, however the script ends.

served_groups=()
stop_served() {
  local group
  for group in "${served_groups[@]}"; do kill -- "-$group" 2>/dev/null || true; done
}
trap stop_served EXIT

serve() {
  local var=$1 fifo line
  shift
  fifo=$(mktemp -u) && mkfifo "$fifo"
  set -m # job control: the background job gets its own process group, whose id is its pid
  QUIET=1 python3 scripts/serve.py --port 0 "$@" >"$fifo" &
  served_groups+=("$!")
  set +m
  # EOF (the server exited before listening) or 60 s without the line is a failure.
  if ! read -r -t 60 line <"$fifo"; then
    rm -f "$fifo"
    echo "error: scripts/serve.py $* did not start listening" >&2
    return 1
  fi
  rm -f "$fifo"
  printf -v "$var" '%s' "${line##* on }"
}
