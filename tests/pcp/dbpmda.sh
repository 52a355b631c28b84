# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/pcp/dbpmda.sh - drive the agent through dbpmda, one command at a
# time, for tests/pcp/run.sh and tests/bench/pmda_cost.sh; to be sourced.
# dbpmda speaks pmcd's pipe protocol to the daemon and flushes after each
# answer.
#
#   db_start DIR PMNSROOT ARGS...   start dbpmda (its files in DIR) and the
#                                   agent: "open pipe ARGS..."
#   db CMD                          send CMD; for fetch and instance, wait
#                                   for its answer (10 s at most), which is
#                                   then in $db_dir/db.last; any other
#                                   command's answer is in $db_dir/db.out
#                                   once db_stop returns
#   db_pid_agent                    the agent's pid
#   db_stop                         close the agent and dbpmda
# Settings: db_pid (dbpmda's pid while running); CSF_ROOT as the agent
# should see it, exported before db_start.

db_pid=
db_start() {
	db_dir=$1
	rm -f "$db_dir/db.in"
	mkfifo "$db_dir/db.in" || return 1
	: > "$db_dir/db.out"
	db_n=0
	dbpmda -n "$2" < "$db_dir/db.in" > "$db_dir/db.out" 2>&1 &
	db_pid=$!
	exec 7> "$db_dir/db.in"
	shift 2
	db "open pipe $*"
}

db() {
	db_before=$(wc -l < "$db_dir/db.out")
	echo "$1" >&7
	case $1 in
	fetch*|instance*) db_n=$((db_n + 1)) ;;
	*) return ;;
	esac
	db_wait 100
	sleep 0.1
	tail -n +"$((db_before + 1))" "$db_dir/db.out" > "$db_dir/db.last"
}

# db_wait TENTHS: until dbpmda has given $db_n answers, TENTHS/10 s at most
db_wait() {
	db_i=0
	while [ "$(grep -c -e 'numpmid:' -e '^pmInDom:' -e 'Error' "$db_dir/db.out")" -lt "$db_n" ] &&
		[ $db_i -lt "$1" ]; do
		sleep 0.1
		db_i=$((db_i + 1))
	done
}

# db_send N CMD: send CMD N times, then wait for the N answers (60 s at most)
db_send() {
	db_k=0
	while [ $db_k -lt "$1" ]; do echo "$2" >&7; db_k=$((db_k + 1)); done
	db_n=$((db_n + $1))
	db_wait 600
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
