#!/bin/busybox sh
# shellcheck shell=dash # busybox ash: checked as the POSIX shell it is
# SPDX-License-Identifier: MIT
#
# /init of the test VM; tests/vm/run.sh packs it with /etc/csf-vm.conf.
#
# CSF_VM_RUN=test: per clock mode, load and mount the module, run the guest
# programs (/tests/test_*), then the guest scripts (/tests/guest_*.sh, with
# busybox sh), then test_lifecycle, unmount and unload.
# Every line meant for the host starts with "csf-vm: ".  Results are
# "csf-vm: [MODE/PROGRAM] <libcheck line>" (a script's PROGRAM is its name
# without .sh); the shell's own checks (load, mount, unmount, unload) are
# reported the same way as program "init".
# The run ends with dmesg between "csf-vm: DMESG BEGIN" and "csf-vm: DMESG
# END", then "csf-vm: END" and a power-off.
# CSF_VM_RUN=demo: csf-demo in the background and csftop on the console.
# CSF_VM_RUN=bench: the benchmarks of tests/bench, as "csf-vm: [bench]"
# lines.

export PATH=/bin:/sbin:/usr/bin:/usr/sbin:/tests HOME=/ TERM=linux
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp

CSF_VM_RUN=test CSF_VM_MODES="mono tsc" CSF_VM_TESTS='' CSF_VM_VIRTIO=''
CSF_VM_COUNTER=tsc
CSF_VM_SLOW=1
CSF_VM_SCRIPTS='' CSF_VM_HAVE_KO=yes CSF_VM_INTERACTIVE=no
CSF_VM_TERM=linux CSF_VM_ROWS='' CSF_VM_COLS=''
. /etc/csf-vm.conf

ROOT=/sys/fs/coarse_stat_fs
KO=/lib/csf/coarse_stat_fs.ko
# The guest programs read their expectations from the environment.
export CSF_ROOT=$ROOT CSF_KO=$KO CSF_VM_DISK=/dev/vda
# A small cap, so that test_thread_exit can fill it: 256 registrations.
export CSF_STAT_PERIOD_MS=10 CSF_MAX_THREADS=256
# libcheck: name every test on the console; TCG is slow, so no 4 s limit,
# and a kernel slower than that (kernels.tab) gets its factor more, and
# tells the programs (vm_slow()) to shorten their long loops.
export CK_VERBOSITY=verbose CK_DEFAULT_TIMEOUT=300
export CK_TIMEOUT_MULTIPLIER=$CSF_VM_SLOW CSF_VM_SLOW

say() { echo "csf-vm: $*"; }

finish() {
	say "DMESG BEGIN"
	dmesg
	say "DMESG END"
	say "END"
	poweroff -f
	sleep 10
}

# ---- shell-level checks, reported like a libcheck program -------------------
# check DESC CMD... of tests/lib.sh (run.sh ships it as /tests/lib.sh), its
# lines tagged "csf-vm: [TAG] "; per phase, not per process: ck_begin TAG
# starts the count afresh, ck_end prints its summary line (none when no
# check ran) and returns; /init must not exit.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
ck_out=/tmp/check.out
ck_begin() { ck_prefix="csf-vm: [$1] "; ck_n=0; ck_f=0; }
ck_end() { ck_report; }

# run_prog TAG PROGRAM: run it with its output tagged, then its exit status.
run_prog() {
	tag=$1
	shift
	t0=$(uptime_cs)
	{
		cd /tmp && timeout -s KILL 900 "$@" 2>&1
		echo "__csf_rc=$?"
	} | while IFS= read -r line; do
		case $line in
		__csf_rc=*)
			say "[$tag] EXIT ${line#__csf_rc=} after $(since_cs "$t0")"
			;;
		*) say "[$tag] $line" ;;
		esac
	done
}

mounted() { grep -q " $ROOT coarse_stat_fs " /proc/mounts; }
loaded() { [ -d /sys/module/coarse_stat_fs ]; }
wait_dev() { wait_for 100 test -b "$1"; }

say "BEGIN $(uname -r) uptime=$(cut -d' ' -f1 /proc/uptime)s cpus=$(cat /sys/devices/system/cpu/possible) clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"

# ---- the virtio disk -----------------------------------------------------
ck_begin boot/init
for m in $CSF_VM_VIRTIO; do
	check "insmod $m" insmod /lib/csf/virtio/$m.ko
done
check "virtio disk /dev/vda present" wait_dev /dev/vda
ck_end

# ---- demo: csftop over csf-demo on the console ---------------------------
# has_terminfo NAME: ncurses will find NAME's description.
has_terminfo() {
	first=$(echo "$1" | cut -c1)
	for d in /etc/terminfo /lib/terminfo /usr/share/terminfo; do
		[ -f "$d/$first/$1" ] && return 0
	done
	return 1
}
if [ "$CSF_VM_RUN" = demo ]; then
	dmesg -n 1	# no kernel messages over csftop
	insmod $KO && { mounted || mount -t coarse_stat_fs none $ROOT; }
	export CSF_CLOCK=auto
	csf-demo --io-file $CSF_VM_DISK >/tmp/csf-demo.out 2>&1 &
	demo=$!
	wait_for 100 grep -q registered /tmp/csf-demo.out
	if [ "$CSF_VM_INTERACTIVE" = yes ]; then
		# The caller's terminal type when its description is here,
		# else the closest one that is.
		TERM=$CSF_VM_TERM
		if ! has_terminfo "$TERM"; then
			case $TERM in
			*256color*) TERM=xterm-256color ;;
			xterm*|rxvt*|*konsole*|*gnome*|alacritty*|kitty*|foot*) TERM=xterm ;;
			screen*|tmux*) TERM=screen ;;
			*) TERM=vt100 ;;
			esac
		fi
		export TERM
		size=
		[ -n "$CSF_VM_ROWS" ] && [ -n "$CSF_VM_COLS" ] &&
			size="stty rows $CSF_VM_ROWS cols $CSF_VM_COLS;"
		# csftop on the console, its controlling terminal, in a session of
		# its own (^C reaches it); quitting it powers the VM off.
		setsid cttyhack sh -c "$size exec csftop"
	else
		echo "csf-demo: $(cat /tmp/csf-demo.out)"
		csftop -b -n 5 -d 200
	fi
	kill $demo
	poweroff -f
	sleep 10
fi

# ---- bench: figures, no judging (tests/bench/run.sh prints them) ----------
bsay() { echo "csf-vm: [bench] $*"; }
# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# pingpong ARGS: ns per round trip, both threads on CPU 0 (a switch per
# hop, no IPI: the steadiest figure TCG gives)
pingpong_ns() {
	taskset 1 pingpong -n 20000 "$@" 2>&1 | sed -nE 's/.* ([0-9]+) ns per round trip/\1/p'
}
# forkloop ARGS: ns per fork+exit+wait, on CPU 0
forkloop_ns() {
	taskset 1 forkloop -n 2000 "$@" 2>&1 | sed -nE 's/.* ([0-9]+) ns per fork.*/\1/p'
}
bench_load() {	# bench_load CLOCK: the module loaded and mounted
	insmod $KO clock=$1 && { mounted || mount -t coarse_stat_fs none $ROOT; }
}
bench_unload() {
	mounted && umount $ROOT
	loaded && rmmod coarse_stat_fs
}
# bench_rounds FIGURE FLAG LABEL1 LABEL2: the ns FIGURE prints with the
# module not loaded, loaded (LABEL1) and loaded with FIGURE FLAG (LABEL2),
# in turn over 9 rounds, so that a host's slow spell hits all three; the
# medians and every run
bench_rounds() {
	r0='' r1='' r2=''
	# shellcheck disable=SC2034 # i counts the rounds
	for i in 1 2 3 4 5 6 7 8 9; do
		r0="$r0 $($1)"
		bench_load "$CSF_VM_COUNTER"
		r1="$r1 $($1)"
		r2="$r2 $($1 "$2")"
		bench_unload
	done
	bench_table "not loaded:$r0" "$3:$r1" "$4:$r2"
}
# bench_table "LABEL:RUNS"...: a row per case, its median and its runs
bench_table() {
	bsay "$(printf '%-38s %8s  %s' "module" "median" "runs")"
	for row in "$@"; do
		runs=${row#*:}
		med=$(echo $runs | tr ' ' '\n' | grep -E '^[0-9]+$' | median)
		bsay "$(printf '%-38s %8s  %s' "${row%%:*}" "${med:-?}" "$runs")"
	done
}
# What reading the scheduler's own stamp at each switch would cost the
# hook: pingpong -r without and with tests/vm/skew's probe, which reads
# local_clock() and next->se.exec_start (coarse_stat_fs(7), "Each
# switch"), in turn over 9 rounds.
bench_skew() {
	r1='' r2=''
	# shellcheck disable=SC2034 # i counts the rounds
	for i in 1 2 3 4 5 6 7 8 9; do
		bench_load "$CSF_VM_COUNTER"
		r1="$r1 $(pingpong_ns -r)"
		insmod /lib/csf/csf_skew.ko
		r2="$r2 $(pingpong_ns -r)"
		rmmod csf_skew
		bench_unload
	done
	bench_table "loaded, both registered (-r):$r1" \
		"and csf_skew's probe:$r2"
}
if [ "$CSF_VM_RUN" = bench ]; then
	dmesg -n 1
	bsay "guest: $(uname -r), $(nproc) vCPUs (qemu TCG, single-threaded), clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	bsay ""
	bsay "== pingpong: two threads on CPU 0 bounce a byte over pipes (ns per round trip; 9 rounds, the three cases in turn) =="
	bench_rounds pingpong_ns -r "loaded, no thread registered" \
		"loaded, both threads registered (-r)"
	bsay ""
	bsay "== pingpong -r with and without a probe that reads the scheduler's stamp (tests/vm/skew) =="
	bench_skew
	bsay ""
	bsay "== forkloop: fork, child exits, wait (ns per fork; 9 rounds, the three cases in turn) =="
	bench_rounds forkloop_ns -i "loaded, nothing registered" \
		"loaded, inheriting registration (-i)"
	for clock in "$CSF_VM_COUNTER" mono; do
		bsay ""
		bsay "== bench_snap: the real module, clock=$clock (ns per call) =="
		bench_load $clock
		bench_snap -n 200000 2>&1 | while IFS= read -r line; do bsay "$line"; done
		bench_unload
	done
	bsay ""
	bsay "== csftop_cost.sh: the real module (clock=$CSF_VM_COUNTER), csf-demo threads, vs procps top -H -b =="
	bench_load "$CSF_VM_COUNTER"
	(cd /tmp && TOP=/usr/bin/top TOP_FRAMES=${CSF_BENCH_TOP_FRAMES:-5} sh /tests/csftop_cost.sh ${CSF_BENCH_FRAMES:-100} 2>&1) |
		while IFS= read -r line; do bsay "$line"; done
	bench_unload
	finish
fi

# ---- tests, once per clock mode --------------------------------------------
# test_lifecycle unloads and reloads the module: it runs last, after the
# guest scripts.
tests=
last=
for t in $CSF_VM_TESTS; do
	case $t in
	test_lifecycle) last=$t ;;
	*) tests="$tests $t" ;;
	esac
done

# the programs' vm_once_per_boot(): the first mode is CSF_VM_MODES' first
export CSF_VM_MODES
# what the kernel logs before this line is its own (tests/vm/run.sh)
[ "$CSF_VM_HAVE_KO" = yes ] && echo "csf-vm: the module loads after this line" >/dev/kmsg
for mode in $CSF_VM_MODES; do
	export CSF_CLOCK=$mode
	ck_begin $mode/init
	if [ "$CSF_VM_HAVE_KO" = yes ]; then
		check "insmod coarse_stat_fs.ko clock=$mode max_threads=$CSF_MAX_THREADS" \
			insmod $KO clock=$mode max_threads=$CSF_MAX_THREADS
		check "$ROOT exists after loading" test -d $ROOT
		if ! mounted; then
			check "mount -t coarse_stat_fs none $ROOT" mount -t coarse_stat_fs none $ROOT
		fi
		check "$ROOT/cpu is there" test -f $ROOT/cpu
	fi
	for t in $tests; do
		run_prog $mode/$t /tests/$t
	done
	# guest scripts: after the programs, with the module still loaded in
	# this mode (test_lifecycle unloads it: it comes after them)
	for s in $CSF_VM_SCRIPTS; do
		run_prog $mode/${s%.sh} sh /tests/$s
	done
	[ -n "$last" ] && run_prog $mode/$last /tests/$last
	if [ "$CSF_VM_HAVE_KO" = yes ]; then
		check "umount $ROOT" umount $ROOT
		check "rmmod coarse_stat_fs after umount" rmmod coarse_stat_fs
		check "$ROOT gone after rmmod" test ! -e $ROOT
	fi
	ck_end
	# Leave a clean slate for the next mode whatever happened.
	mounted && umount -l $ROOT
	loaded && rmmod coarse_stat_fs
done

finish
