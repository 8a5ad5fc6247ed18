# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the sweep tests, after tests/lib.sh: the real program (not
# libtool's wrapper script), trace-cmd, the sweep driver, jobs, time limit,
# where failing inputs are kept.
for tool in "${SWEEP:-}" "${TRACE_CMD:-}"; do
	if [ -z "$tool" ] || [ ! -x "$tool" ]; then
		skip "the sweep driver and trace-cmd are needed"
	fi
done
if [ -x "$(dirname "$PERF2DAT")/.libs/perf2dat" ]; then
	PERF2DAT="$(dirname "$PERF2DAT")/.libs/perf2dat"
	LD_LIBRARY_PATH="$(dirname "$PERF2DAT")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export PERF2DAT LD_LIBRARY_PATH
fi
REGRESS=${REGRESS:-$(dirname "$0")/../fuzz/regress}
jobs=${SWEEP_JOBS:-$(nproc 2> /dev/null || echo 2)}
timeout=${SWEEP_TIMEOUT:-10}
keep=${SWEEP_KEEP:-$PWD/sweep-failures}

# twins DIR NAME...: big-endian (be-NAME) and 32-bit (l32-NAME) twins of
# recordings of $DATA, made by tests/tools/perf-rewrite.py when python3 is
# there; prints their paths. Fails (status 1, the reason on stderr) when one
# cannot be made: a sweep does not go on without it unsaid.
twins() {
	dir=$1
	shift
	tool="$DATA/../tools/perf-rewrite.py"
	[ -n "${PYTHON3:-}" ] && [ -x "$PYTHON3" ] && [ -f "$tool" ] || return 0
	for name in "$@"; do
		"$PYTHON3" "$tool" --big-endian "$DATA/$name" "$dir/be-$name" 2> "$dir/twin.err" ||
			{ echo "big-endian twin of $name: $(cat "$dir/twin.err")" >&2; return 1; }
		echo "$dir/be-$name"
	done
	"$PYTHON3" "$tool" --long32 "$DATA/$1" "$dir/l32-$1" 2> "$dir/twin.err" ||
		{ echo "32-bit twin of $1: $(cat "$dir/twin.err")" >&2; return 1; }
	echo "$dir/l32-$1"
}
