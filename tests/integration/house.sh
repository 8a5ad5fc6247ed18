#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The house rules a reviewer would otherwise check by hand:
# - no source file over 800 lines, no C or C++ function over 60;
# - no message of the library names a flag of the programs (the library
#   names its option fields, "the kallsyms option"; the programs say
#   "--kallsyms", cli-flags.c): perf's own flags ("perf record --threads")
#   are the recording's, not ours;
# - no Python function over 60 lines either (with python3);
# - the map matches the tree: README's list of files by stage names every
#   file of src/lib, src/cmd and plugin/, and src/lib/p2d-local.h's stage
#   list every file of src/lib;
# - every shell test of Makefile.am's HOSTILE_TESTS and INTEGRATION_TESTS
#   sources tests/lib.sh first (tests/README).
. "$TOP_SRCDIR/tests/lib.sh"
cd "$TOP_SRCDIR" || fail "no $TOP_SRCDIR"

find src plugin tests bench contrib -type f \
	\( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' -o -name '*.py' \
	-o -name '*.sh' \) ! -path 'tests/data/*' ! -path '*/.libs/*' | sort > "$tmp/sources"
checked "$(wc -l < "$tmp/sources")" "no source file found under $TOP_SRCDIR"
xargs wc -l < "$tmp/sources" | awk '$2 != "total" && $1 > 800 { print $2 " has " $1 " lines" }' \
	> "$tmp/long-files"
[ -s "$tmp/long-files" ] && fail "over 800 lines: $(tr '\n' ' ' < "$tmp/long-files")"

# a function's body: from a "{" in column 0 to the next "}" in column 0
grep -E '\.(c|h|cpp|hpp)$' "$tmp/sources" | xargs awk '
	FNR == 1 { inf = 0 }
	/^\{/ { inf = 1; start = FNR; next }
	inf && /^\}/ { n++; if (FNR - start - 1 > 60) print FILENAME ":" start ": " FNR - start - 1; inf = 0 }
	END { print n > "/dev/stderr" }' > "$tmp/long-fns" 2> "$tmp/nfns"
checked "$(cat "$tmp/nfns")" "no function found in the C and C++ sources"
[ -s "$tmp/long-fns" ] && fail "functions over 60 lines: $(tr '\n' ' ' < "$tmp/long-fns")"

# the programs' long flags, from cli.h's option tables
sed -n 's/^[[:space:]]*{ "\([a-z-]*\)",.*_argument.*/\1/p' src/cmd/cli.h src/cmd/perf2dat.c \
	src/cmd/trace-cmd-front.c | sort -u > "$tmp/flags"
checked "$(wc -l < "$tmp/flags")" "no flag found in src/cmd"
grep -qx kallsyms "$tmp/flags" || fail "the flag list lacks kallsyms: $(tr '\n' ' ' < "$tmp/flags")"
lib=$(find src/lib -maxdepth 1 -name '*.c')
# the strings of the library's sources, joined as C joins adjacent literals
for f in $lib; do
	awk '{ line = $0; while (match(line, /"([^"\\]|\\.)*"/)) {
		printf "%s", substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH) }
		if (line ~ /[;,)]/) print "" }' "$f" | sed "s|^|$f: |"
done > "$tmp/strings"
checked "$(grep -c 'offset 0x' "$tmp/strings")" "no message found in the library's sources"
while read -r flag; do
	grep -E -e "--$flag([^a-z-]|\$)" "$tmp/strings" | grep -v -E "perf( record)? --$flag"
done < "$tmp/flags" > "$tmp/named"
[ -s "$tmp/named" ] && fail "library messages name the programs' flags: $(head -5 "$tmp/named")"
# README's list: from "The files, by stage" to the next line that is not
# indented after the list began
awk '/^The files, by stage/ { on = 1; next } on && /^    / { seen = 1; print; next }
     on && seen && /^[^ ]/ { exit }' README > "$tmp/readme-list"
checked "$(wc -l < "$tmp/readme-list")" "README has no list of the files by stage"
# p2d-local.h's stage list, in its comment
awk '/The stages, in the order/ { on = 1 } on { print } on && /\*\// { exit }' \
	src/lib/p2d-local.h > "$tmp/stage-list"
n=0
for f in $(find src/lib src/cmd plugin -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \
		-o -name '*.cpp' -o -name '*.hpp' -o -name '*.sh' \) | sort); do
	b=${f##*/}
	tr -s ' \t;:,()' '\n' < "$tmp/readme-list" | grep -qxF "$b" ||
		echo "$f is not in README's list of the files by stage" >> "$tmp/unlisted"
	case $f in
	src/lib/*)
		tr -s ' \t;:,()*' '\n' < "$tmp/stage-list" | grep -qxF "$b" ||
			echo "$f is not in p2d-local.h's stage list" >> "$tmp/unlisted" ;;
	esac
	n=$((n + 1))
done
checked "$n" "no file in src/lib, src/cmd and plugin/"
[ -s "$tmp/unlisted" ] && fail "$(tr '\n' ' ' < "$tmp/unlisted")"

# the shell tests of those lists (VAR = or += and its continuation lines),
# each with tests/lib.sh as its first command
awk '/^(HOSTILE|INTEGRATION)_TESTS[ \t]*[+]?=/ { on = 1 } on { print; if (!/\\$/) on = 0 }' \
	Makefile.am | tr -s ' \t\\' '\n\n\n' | grep '\.sh$' | sort -u > "$tmp/shell-tests"
checked "$(wc -l < "$tmp/shell-tests")" "no shell test in Makefile.am's HOSTILE_TESTS and INTEGRATION_TESTS"
while read -r f; do
	awk '!/^#/ && NF { print; exit }' "$f" 2> /dev/null |
		grep -q '^\. ".*/tests/lib\.sh"$' || echo "$f"
done < "$tmp/shell-tests" > "$tmp/no-lib"
[ -s "$tmp/no-lib" ] &&
	fail "shell tests that do not source tests/lib.sh first: $(tr '\n' ' ' < "$tmp/no-lib")"

# Python functions (the .py files and the Python programs of bench/), by
# their syntax tree: no more than 60 lines either
[ -n "${PYTHON3:-}" ] && [ -x "$PYTHON3" ] ||
	skip "python3 is needed for the Python functions (the other rules passed)"
{ grep '\.py$' "$tmp/sources"; grep -l '^#!.*python' bench/* 2> /dev/null; } > "$tmp/python"
"$PYTHON3" - "$tmp/python" > "$tmp/long-py" 2> "$tmp/npy" <<'PY'
import ast, sys
n = 0
for path in open(sys.argv[1]).read().split():
    for f in ast.walk(ast.parse(open(path).read(), path)):
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
            n += 1
            if f.end_lineno - f.lineno + 1 > 60:
                print("%s:%d: %s %d" % (path, f.lineno, f.name, f.end_lineno - f.lineno + 1))
print(n, file=sys.stderr)
PY
checked "$(cat "$tmp/npy")" "no Python function found: $(head -c 300 "$tmp/npy")"
[ -s "$tmp/long-py" ] && fail "Python functions over 60 lines: $(tr '\n' ' ' < "$tmp/long-py")"

echo "house: $(wc -l < "$tmp/sources") source files, $(cat "$tmp/nfns") functions," \
	"$(wc -l < "$tmp/strings") library strings against $(wc -l < "$tmp/flags") flags," \
	"$n files of src/lib, src/cmd and plugin/ in the maps," \
	"$(wc -l < "$tmp/shell-tests") shell tests on tests/lib.sh," \
	"$(cat "$tmp/npy") Python functions of $(wc -l < "$tmp/python") files"
exit 0
