# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/pcp/dbpmda.sh - drive the agent through dbpmda, one command at a
# time, for tests/pcp/run.sh and tests/bench/pmda_cost.sh; to be sourced.
# dbpmda speaks pmcd's pipe protocol to the daemon. It answers one command
# after the other, part on stdout and part on stderr, so an answer is
# whole once the "status" sent after it has been answered: each command is
# followed by one, and its last line (the profile) is waited for.
#
#   db_start DIR PMNSROOT ARGS...   start dbpmda (its files in DIR) and the
#                                   agent: "open pipe ARGS..."
#   db CMD                          send CMD and wait for its answer (10 s
#                                   at most), which is then in
#                                   $db_dir/db.last
#   db_send N CMD                   send CMD N times and wait for the N
#                                   answers (60 s at most)
#   db_pid_agent                    the agent's pid
#   db_stop                         close the agent and dbpmda
# Settings: db_pid (dbpmda's pid while running); CSF_ROOT as the agent
# should see it, exported before db_start.  Needs tests/lib.sh (wait_for),
# sourced first.

db_pid=
db_start() {
	db_dir=$1
	rm -f "$db_dir/db.in"
	mkfifo "$db_dir/db.in" || return 1
	: > "$db_dir/db.out"
	db_n=0
	# -q: the agent's first answer may take longer than dbpmda's default
	# 3 s under valgrind (make check-valgrind) on a loaded host
	dbpmda -q 60 -n "$2" < "$db_dir/db.in" > "$db_dir/db.out" 2>&1 &
	db_pid=$!
	exec 7> "$db_dir/db.in"
	shift 2
	db "open pipe $*"
}

db() {
	db_before=$(wc -l < "$db_dir/db.out")
	db_send 1 "$1" 100
	tail -n +"$((db_before + 1))" "$db_dir/db.out" > "$db_dir/db.last"
}

# db_send N CMD [TENTHS]: send CMD N times and a status, then wait until
# that status is answered, TENTHS/10 s at most (default 600)
db_send() {
	db_k=0
	while [ $db_k -lt "$1" ]; do echo "$2" >&7; db_k=$((db_k + 1)); done
	echo status >&7
	db_n=$((db_n + 1))
	wait_for "${3:-600}" db_answered
}

db_answered() {
	[ "$(grep -c '^Dump Instance Profile' "$db_dir/db.out")" -ge "$db_n" ]
}

db_pid_agent() {
	pgrep -P "$db_pid" | head -n 1
}

db_stop() {
	[ -n "$db_pid" ] || return 0
	echo close >&7
	exec 7>&-
	wait "$db_pid" 2>/dev/null
	db_pid=
}
