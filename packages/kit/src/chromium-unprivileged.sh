#!/bin/sh
# Debian's Chromium with its sandbox on, never as root. Started as root (the usual container),
# it gives the browser's fresh profile directory to an unprivileged user (SIGNET_CHROMIUM_USER,
# default nobody) and runs Chromium as that user with no capabilities; Chromium then sandboxes
# each renderer in user, pid and network namespaces with seccomp-bpf. Chromium refuses its
# sandbox as root, which is why this wrapper exists: attacker HTML is rendered here.
set -eu
CHROMIUM=/usr/bin/chromium
if [ "$(id -u)" != 0 ]; then
  exec "$CHROMIUM" "$@"
fi
user=${SIGNET_CHROMIUM_USER:-nobody}
group=$(id -gn "$user")
profile=
for arg in "$@"; do
  case "$arg" in
    --user-data-dir=*) profile=${arg#--user-data-dir=} ;;
  esac
done
if [ -z "$profile" ]; then
  echo "chromium-unprivileged: no --user-data-dir given; refusing to run Chromium as root" >&2
  exit 2
fi
chown -R "$user:$group" "$profile"
exec setpriv --reuid="$user" --regid="$group" --clear-groups --inh-caps=-all --bounding-set=-all \
  env HOME="$profile" XDG_CONFIG_HOME="$profile" XDG_CACHE_HOME="$profile" "$CHROMIUM" "$@"
