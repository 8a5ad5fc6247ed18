#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Bash completion: perf2dat's options, their values and the recording's
# events; the trace-cmd front end's completion of convert --from-perf, which
# hands the other commands to trace-cmd's own completion (a stand-in here).
. "$TOP_SRCDIR/tests/lib.sh"
if ! command -v bash > /dev/null; then
	skip "bash is needed"
fi
mkdir -p "$tmp/share/bash-completion/completions"
cat > "$tmp/share/bash-completion/completions/trace-cmd.bash" <<'EOF2'
_trace_cmd_complete() { COMPREPLY=(trace-cmd-own-completion); }
complete -F _trace_cmd_complete trace-cmd
EOF2
cat > "$tmp/t.bash" <<'EOF2'
# complete LINE: what the completion offers for the last word of LINE
complete_line() {
	# as bash splits, at COMP_WORDBREAKS (":" is one)
	read -r -a COMP_WORDS <<< "$(sed 's/:/ : /g' <<< "$1")"
	[[ $1 == *[' :'] ]] && COMP_WORDS+=('')
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$1 COMP_POINT=${#1}
	COMPREPLY=()
	local fn
	fn=$(complete -p "${COMP_WORDS[0]}" | sed 's/.*-F \([^ ]*\) .*/\1/')
	"$fn" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
	echo "${COMPREPLY[*]}"
}
check() {
	local got
	got=$(complete_line "$1")
	if [[ " $got " != *" $2 "* ]]; then
		echo "FAIL: completion: '$1' offers '$got', not '$2'"
		exit 1
	fi
	echo "'$1' -> $2"
}
COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'
. "$SRC/completion/perf2dat"
check "perf2dat --comp" --compression
check "perf2dat --compression z" zstd
check "perf2dat --file-version " 7
check "perf2dat -i $DATA/sample.data --ti" --time
if [[ -x ${PERF:-} ]]; then
	check "perf2dat $DATA/sample.data -e sched:sched_sw" sched_switch
	check "perf2dat $DATA/sample.data -e sched:" sched_wakeup
fi
XDG_DATA_DIRS=$TMPSHARE
. "$SRC/completion/trace-cmd"
check "trace-cmd convert --from-perf --comp" --compression
check "trace-cmd convert --from-perf -e sched_switch --c" --cpu
check "trace-cmd convert --fr" --from-perf
check "trace-cmd report -" trace-cmd-own-completion
check "trace-cmd convert -" trace-cmd-own-completion
EOF2
SRC=$TOP_SRCDIR TMPSHARE=$tmp/share PERF=${PERF:-} DATA=$DATA bash "$tmp/t.bash" || exit 1
echo "PASS: completion"
