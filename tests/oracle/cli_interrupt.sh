#!/usr/bin/env bash
# Ctrl-C (SIGINT): every command flushes the complete lines it has, prints
# nothing partial, exits 130 with "interrupted"; reading stdin, the first
# SIGINT lets the writer's last records through to EOF (perf record -o - |
# tracekit print -). No timing: each signal is sent at a point the test
# reaches deterministically (tests/support/interrupt_check.py says how).
set -u
: "${TK:?}" "${TK_TESTDATA:?}" "${TK_SOURCE_DIR:?}"
exec /usr/bin/python3 "$TK_SOURCE_DIR/tests/support/interrupt_check.py" "$TK" "$TK_TESTDATA"
