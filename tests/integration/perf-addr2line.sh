# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by the tests that compare user frame names with perf script's on
# --call-graph dwarf recordings. perf names those frames through its inline
# resolution, an addr2line process it asks address by address, and perf
# 6.12 (Debian 13) waits one second for each answer: the first question on
# libc's debug file (4 MB, compressed) takes longer than that on a busy
# machine (1.5 s measured with binutils 2.44 at load 49), and perf then
# names the frame from the symbol table instead (glibc's ifunc resolver of
# __mempcpy_chk: "__mempcpy_chk", not its DWARF function
# "__mempcpy_chk_ifunc"), and prints "could not read first record". perf's
# names so depend on the machine's load. The tests give perf's addr2line all
# the time it needs (core.addr2line-timeout: perf 6.12 and 7.2 read it;
# perf 6.1 has no timeout and ignores the key), and a test whose perf
# script still reports an addr2line that gave up fails: its names are not
# perf's rule's.
#
# perf_addr2line_config DIR: writes DIR/perfconfig and exports PERF_CONFIG
perf_addr2line_config() {
	printf '[core]\n\taddr2line-timeout = 600000\n' > "$1/perfconfig"
	PERF_CONFIG="$1/perfconfig"
	export PERF_CONFIG
}

# perf_addr2line_gave_up FILE: perf script's stderr in FILE says an addr2line
# query was given up (prints those lines; status 0 then)
perf_addr2line_gave_up() {
	grep -E 'addr2line.*(could not read (first|sentinel) record|could not send request|subprocess_init failed)' \
		"$1" | head -n 3 | grep .
}
