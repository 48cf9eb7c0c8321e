#!/usr/bin/env bash
# Merges a target's stored corpus with new finds into a small set to store.
#
#   tests/robustness/corpus_merge.sh FUZZ_BINARY OUT_DIR INPUT_DIR...
#
# OUT_DIR is emptied first. The cap is MAX_FILES files (default 150) and
# MAX_BYTES bytes (default 1 MiB). Steps, each into a fresh directory, the
# first result under the cap wins:
#   1. -set_cover_merge=1: a small set with every feature (edges and hit
#      counts) of the inputs;
#   2. a greedy cover under the cap (corpus_cover.py): the inputs that add
#      the most new edges first, then with the room left the ones that add
#      the most new hit-count features; the shares kept are printed.
set -u
bin=$1 out=$2
shift 2
max_files=${MAX_FILES:-150}
max_bytes=${MAX_BYTES:-1048576}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

under_cap()
{
	local n bytes
	n=$(find "$1" -type f | wc -l)
	bytes=$(find "$1" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
	echo "   $2: $n files, $bytes bytes" >&2
	[ "$n" -le "$max_files" ] && [ "$bytes" -le "$max_bytes" ]
}

merge()
{
	local dir=$1
	shift
	mkdir -p "$dir"
	nice -n 10 "$bin" -set_cover_merge=1 -timeout=10 -rss_limit_mb=2048 \
		-merge_control_file="$dir.control" "$@" "$dir" \
		"${inputs[@]}" >"$dir.log" 2>&1 || { tail -5 "$dir.log" >&2; return 1; }
	grep -E 'MERGE-OUTER: [0-9]+ new files' "$dir.log" | sed 's/^/   /' >&2
}

# The stored corpus never holds a verbatim copy of a test data file (seeds
# come from there): those are left out of the merge's inputs.
data=${TK_TESTDATA:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/testdata}
find "$data" -type f -exec sha1sum {} + | cut -d' ' -f1 | sort -u >"$tmp/testdata.sha1"
mkdir -p "$tmp/in"
for d in "$@"; do
	find "$d" -type f -exec sha1sum {} + | while read -r sum path; do
		grep -qx "$sum" "$tmp/testdata.sha1" || cp -n "$path" "$tmp/in/$sum"
	done
done
inputs=("$tmp/in")
rm -rf "$out"
mkdir -p "$out"
if merge "$tmp/features" && under_cap "$tmp/features" "set cover, all features"; then
	cp "$tmp/features"/* "$out"/
	exit 0
fi
# Over the cap: a greedy cover under the cap from the per-input features of
# a merge's control file, counted without hit counts (-use_counters=0), so
# a feature is an edge (its COV lines only list edges new to the run).
mkdir -p "$tmp/all"
nice -n 10 "$bin" -set_cover_merge=1 -use_counters=0 -timeout=10 -rss_limit_mb=2048 -merge_control_file="$tmp/control" \
	"$tmp/all" "${inputs[@]}" >"$tmp/all.log" 2>&1 || { tail -5 "$tmp/all.log" >&2; exit 1; }
python3 "$(dirname "$0")/corpus_cover.py" "$tmp/control" "$out" --max-files "$max_files" \
	--max-bytes "$max_bytes" --features "$tmp/features.control"
under_cap "$out" "greedy cover"
