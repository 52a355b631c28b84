#!/bin/busybox sh
# SPDX-License-Identifier: MIT
#
# /init of the test VM; tests/vm/run.sh packs it with /etc/csf-vm.conf.
#
# Every line meant for the host starts with "csf-vm: ".  Results are
# "csf-vm: [MODE/PROGRAM] <libcheck line>"; the shell's own checks (load,
# mount, unmount, unload) are reported the same way as program "init".
# The run ends with dmesg between "csf-vm: DMESG BEGIN" and "csf-vm: DMESG
# END", then "csf-vm: END" and a power-off.

export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/ TERM=linux
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp

CSF_VM_RUN=test CSF_VM_MODES="mono tsc" CSF_VM_TESTS= CSF_VM_VIRTIO=
CSF_VM_HAVE_KO=yes CSF_VM_INTERACTIVE=no
. /etc/csf-vm.conf

ROOT=/sys/fs/coarse_stat_fs
KO=/lib/csf/coarse_stat_fs.ko
# The guest programs read their expectations from the environment.
export CSF_ROOT=$ROOT CSF_KO=$KO CSF_VM_DISK=/dev/vda
# A small cap, so that test_thread_exit can fill it: 256 registrations.
export CSF_STAT_PERIOD_MS=10 CSF_MAX_THREADS=256
# libcheck: name every test on the console; TCG is slow, so no 4 s limit.
export CK_VERBOSITY=verbose CK_DEFAULT_TIMEOUT=300

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
ck_n=0
ck_f=0
ck_tag=
ck_begin() { ck_tag=$1; ck_n=0; ck_f=0; }
check() {
	desc=$1
	shift
	ck_n=$((ck_n + 1))
	if "$@" >/tmp/check.out 2>&1; then
		say "[$ck_tag] ok: $desc"
	else
		ck_f=$((ck_f + 1))
		say "[$ck_tag] FAIL: $desc: $(tr '\n' ' ' </tmp/check.out)"
	fi
}
ck_end() {
	[ $ck_n -gt 0 ] || return 0
	say "[$ck_tag] $(((ck_n - ck_f) * 100 / ck_n))%: Checks: $ck_n, Failures: $ck_f, Errors: 0"
}

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
			t1=$(uptime_cs)
			say "[$tag] EXIT ${line#__csf_rc=} after $(((t1 - t0) / 100)).$(((t1 - t0) % 100 / 10))s"
			;;
		*) say "[$tag] $line" ;;
		esac
	done
}

# /proc/uptime in centiseconds.
uptime_cs() {
	awk '{ printf "%d\n", $1 * 100 }' /proc/uptime
}

mounted() { grep -q " $ROOT coarse_stat_fs " /proc/mounts; }
loaded() { [ -d /sys/module/coarse_stat_fs ]; }
wait_dev() {
	i=0
	while [ ! -b "$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -b "$1" ]
}

say "BEGIN $(uname -r) uptime=$(cut -d' ' -f1 /proc/uptime)s cpus=$(cat /sys/devices/system/cpu/possible) clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"

# ---- the virtio disk -----------------------------------------------------
ck_begin boot/init
for m in $CSF_VM_VIRTIO; do
	check "insmod $m" insmod /lib/csf/virtio/$m.ko
done
check "virtio disk /dev/vda present" wait_dev /dev/vda
ck_end

# ---- demo ------------------------------------------------------------------
if [ "$CSF_VM_RUN" = demo ]; then
	insmod $KO && { mounted || mount -t coarse_stat_fs none $ROOT; }
	export CSF_CLOCK=auto
	# Something to see: CPU 0 runs a busy loop, CPU 1 idles.
	taskset 1 sh -c 'while :; do :; done' &
	spin=$!
	echo "demo: a shell loop spins on CPU 0; CPU 1 is idle"
	/tests/cpu_table
	kill $spin
	if [ "$CSF_VM_INTERACTIVE" = yes ]; then
		echo
		echo "coarse_stat_fs is mounted at $ROOT; /tests/cpu_table shows the cpu page."
		echo "Exit the shell (exit or ^D) to power the VM off."
		setsid cttyhack sh -l
	fi
	poweroff -f
	sleep 10
fi

# ---- tests, once per clock mode --------------------------------------------
# test_lifecycle unloads and reloads the module: it runs last.
tests=
last=
for t in $CSF_VM_TESTS; do
	case $t in
	test_lifecycle) last=$t ;;
	*) tests="$tests $t" ;;
	esac
done
tests="$tests $last"

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
