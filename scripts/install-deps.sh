#!/usr/bin/env bash
# Installs the Debian packages tracekit needs to build and test (when root),
# or prints the exact command to run. Usage: install-deps.sh [build|test|demo|bench]
set -euo pipefail
what=${1:-test}
pkgs=(cmake make gcc clang clang-format pkg-config libzstd-dev libelf-dev libtraceevent-dev libcmocka-dev zstd zlib1g-dev libdw-dev libiberty-dev
      liblzma-dev libbz2-dev)
case $what in
  test) pkgs+=(linux-perf babeltrace2 lttng-tools liblttng-ust-dev python3
        python3-dev python3-numpy python3-pandas python3-pytest python3-distributed
        libsqlite3-dev sqlite3 golang-go g++ libc6-dbg chromium jq libdeflate-dev) ;;
  demo) pkgs+=(linux-perf) ;;
  bench) pkgs+=(linux-perf babeltrace2 lttng-tools liblttng-ust-dev python3 hyperfine time bc chromium) ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "install-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "install-deps: missing packages; run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
