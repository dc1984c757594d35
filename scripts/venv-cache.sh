# shellcheck shell=bash
# Sourced by scripts/fetch-framework-venvs.sh and scripts/fetch-sdk-venvs.sh: the pinned venvs
# they install (the training frameworks, the SDKs: about 100 s of CPU on a fresh clone, most of it
# unpacking and compiling wheels pip already has in its cache) are kept once per machine, as pip
# keeps the wheels, so a fresh clone links them instead of installing them again.
#   $TRAINER_VENV_CACHE: where (default ~/.cache/trainer-v2-explorer/venvs); set it empty to
#   install into .tools as before.
# A cached venv is named by the venv's name and a hash of its pins and of the Python that runs it,
# is written under a lock, and counts only once its .complete marker names the same pins, so two
# clones installing at once, or an install that failed halfway, never share a broken venv.

# The venv being filled, for the INSTALL command (set by cached_venv around each install).
new_venv=
venv_cache_root=${TRAINER_VENV_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/trainer-v2-explorer/venvs}

# cached_venv DIR PIN... -- INSTALL...: makes DIR a venv holding PIN..., installed by running
# INSTALL... with $new_venv set to the venv's path; a symbolic link to the machine's cached copy when
# there is a cache. Returns at once when DIR already holds these pins.
cached_venv() {
  local dir=$1 pins=()
  shift
  while [[ $1 != -- ]]; do pins+=("$1"); shift; done
  shift
  if [[ -f $dir/.complete ]] && [[ "$(cat "$dir/.complete")" == "${pins[*]}" ]]; then
    return 0
  fi
  if [[ -z $venv_cache_root ]]; then
    rm -rf "$dir"
    new_venv=$dir fill_venv "${pins[*]}" "$@"
    return
  fi
  local key cached
  key=$(printf '%s\n' "${pins[*]}" "$(python3 -c 'import sys; print(sys.version)')" | sha256sum | cut -c1-16)
  cached=$venv_cache_root/$(basename "$dir")-$key
  mkdir -p "$venv_cache_root"
  (
    flock 9
    if ! { [[ -f $cached/.complete ]] && [[ "$(cat "$cached/.complete")" == "${pins[*]}" ]]; }; then
      rm -rf "$cached"
      new_venv=$cached fill_venv "${pins[*]}" "$@"
    fi
  ) 9>"$cached.lock"
  echo "  ($dir: a link to $cached)"
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  ln -s "$cached" "$dir"
}

# fill_venv PINS INSTALL...: a new venv at $new_venv, INSTALL... run in it, then its .complete marker.
fill_venv() {
  local marker=$1
  shift
  python3 -m venv "$new_venv"
  "$@"
  echo "$marker" >"$new_venv/.complete"
}
