#!/bin/bash
# Folder rules: include graph + symbol graph of the tree, layer order from
# docs/ARCHITECTURE.md (```layers block). See scripts/check_layers.py.
# usage: scripts/check-layers.sh [BUILD_DIR]   (symbols need a build)
here=$(cd "$(dirname "$0")" && pwd)
exec /usr/bin/python3 "$here/check_layers.py" --root "$here/.." ${1:+--build "$1"}
