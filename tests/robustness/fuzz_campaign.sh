#!/usr/bin/env bash
# Runs libFuzzer targets one after the other (niced), each for
# $FUZZ_SECONDS, seeded from ../shared/testdata and the stored corpus, then
# merges what they found into a fresh copy of the stored corpus.
#
#   tests/robustness/fuzz_campaign.sh BUILD_FUZZ_DIR WORK_DIR TARGET...
#
# BUILD_FUZZ_DIR holds bin/fuzz_<target> (CC=clang, -DTK_FUZZ=ON).
# For each target, WORK_DIR/<target>/ receives:
#   new/      inputs the run found       log       libFuzzer's output
#   merged/   stored corpus + new, merged with -merge=1 (candidates to keep)
#   crash-*   any crash, reproduced with: bin/fuzz_<target> crash-<sha1>
# The seeds are read in place from the test data and never copied into the
# repository (symlinks in WORK_DIR/<target>/seeds).
set -u
build=$(cd "$1" && pwd) work=$2
shift 2
src=$(cd "$(dirname "$0")/../.." && pwd)
data=${TK_TESTDATA:-$src/../shared/testdata}
secs=${FUZZ_SECONDS:-600}
# libtraceevent's own parse-error leak is not ours (see lsan.supp).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$src/tests/robustness/lsan.supp}

# seeds TARGET DIR: symlinks to the test data files that suit TARGET.
seeds()
{
	local t=$1 dir=$2 f i=0
	mkdir -p "$dir"
	case $t in
	perf_file | perf_pipe | perf_script_events | perfw_roundtrip | perf_sample)
		for f in "$data"/perf/*/*; do ln -sf "$f" "$dir/$(basename "$(dirname "$f")")_$(basename "$f")"; done ;;
	ctf_tsdl | ctf_metadata_packets)
		find "$data/ctf" -name metadata -type f | while read -r f; do
			i=$((i + 1)); ln -sf "$f" "$dir/metadata_$i"; done ;;
	ctf_stream)
		# "metadata text \0 stream bytes" for the small text-metadata traces.
		find "$data/ctf/barectf" "$data/ctf/babeltrace/succeed" -name metadata -size -64k |
			while read -r f; do
				head -c 7 "$f" | grep -q '/\* CTF' || continue
				s=$(find "$(dirname "$f")" -maxdepth 1 -type f ! -name metadata ! -name '*.idx' -size -32k | head -1)
				[ -n "$s" ] || continue
				i=$((i + 1))
				{ cat "$f"; printf '\0'; cat "$s"; } >"$dir/trace_$i"
			done ;;
	ctf2_metadata)
		find "$data/ctf2" -name metadata -type f | while read -r f; do
			i=$((i + 1)); ln -sf "$f" "$dir/metadata_$i"; done ;;
	ctf2_stream)
		# "CTF 2 metadata \0 stream bytes" for the small CTF 2 traces.
		find "$data/ctf2" -name metadata -size -64k | while read -r f; do
			s=$(find "$(dirname "$f")" -maxdepth 1 -type f ! -name metadata -size -32k | head -1)
			[ -n "$s" ] || continue
			i=$((i + 1))
			{ cat "$f"; printf '\0'; cat "$s"; } >"$dir/trace_$i"
		done ;;
	cpel) for f in "$data"/cpel/*.cpel; do ln -sf "$f" "$dir/"; done ;;
	elog) for f in "$data"/cpel/*.elog; do ln -sf "$f" "$dir/"; done ;;
	dcpi) for f in "$data"/dcpi/*.prof; do ln -sf "$f" "$dir/"; done ;;
	esac
}

for t in "$@"; do
	bin=$build/bin/fuzz_$t
	[ -x "$bin" ] || { echo "no $bin" >&2; continue; }
	d=$work/$t
	rm -rf "$d/new" "$d/merged" "$d/seeds"
	mkdir -p "$d/new" "$d/merged"
	seeds "$t" "$d/seeds"
	echo "== $t: $(date -u +%H:%M:%S) fuzzing ${secs}s"
	(cd "$d" && nice -n 10 "$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 "$d/new" "$src/tests/fuzz/corpus/$t" \
		"$d/seeds" >"$d/log" 2>&1)
	grep -E '^stat::number_of_executed_units|^stat::peak_rss|^#[0-9]+ +DONE' "$d/log" | tr '\n' ' '
	echo
	ls "$d" | grep -E '^(crash|leak|timeout|oom)-' && echo "!! $t found failures in $d"
	# Plain merge of stored corpus + new finds (corpus_merge.sh then picks
	# what to store under the cap).
	(cd "$d" && nice -n 10 "$bin" -merge=1 -max_len=65536 -timeout=10 "$d/merged" \
		"$src/tests/fuzz/corpus/$t" "$d/new" >"$d/merge.log" 2>&1)
	echo "   merged: $(ls "$d/merged" | wc -l) files, $(du -sb "$d/merged" | cut -f1) bytes"
done
