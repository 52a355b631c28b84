// SPDX-License-Identifier: MIT
/*
 * app.c - a program outside the tree, built by tests/install/staged_install.sh
 * against the INSTALLED library with
 *   cc app.c $(pkg-config --cflags --libs coarse_stat_fs)
 * in the installed include form.  It snapshots itself twice and prints the
 * difference, the CPU count and the registered threads; without the
 * filesystem it prints the library's explanation and exits 3.
 */
#include <errno.h>
#include <stdio.h>

#include <coarse_stat_fs/coarse_stat_fs.h>

int main(void)
{
	struct csf_snap before, after;
	char buf[CSF_DIFF_BUFSZ];
	int err, n;

	err = csf_thread_snap(&before);
	if (err) {
		printf("csf_thread_snap: %s\n", csf_strerror(err));
		return err == -ENOENT ? 3 : 1;
	}
	err = csf_thread_snap(&after);
	if (!err)
		err = csf_format_diff(buf, sizeof(buf), &before, &after);
	if (err < 0) {
		printf("csf_format_diff: %s\n", csf_strerror(err));
		return 1;
	}
	printf("tid %u comm %s state %s abi %d.%d\n", after.tid, after.comm,
	       csf_state_name(after.state), CSF_ABI_MAJOR, CSF_ABI_MINOR);
	printf("diff: %s\n", buf);
	n = csf_cpu_count();
	printf("cpus %d threads %d\n", n, csf_threads_list(NULL, 0));
	return n > 0 ? 0 : 1;
}
