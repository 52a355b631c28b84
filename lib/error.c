// SPDX-License-Identifier: MIT
/*
 * error.c - where the filesystem is (csf_root) and what an error means
 * (csf_strerror), in the user's language.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "i18n.h"

static const char *csf_root_dir;
static pthread_once_t csf_root_once = PTHREAD_ONCE_INIT;

/*
 * Read once: the pages the process maps must all come from one place, even
 * if the environment changes later.  secure_getenv: a set-user-ID program
 * linked with the library must not be pointed at someone else's files.
 */
static void csf_root_init(void)
{
	const char *env = secure_getenv("CSF_ROOT");

	csf_root_dir = env && *env ? env : CSF_DEFAULT_ROOT;
}

CSF_PUBLIC const char *csf_root(void)
{
	pthread_once(&csf_root_once, csf_root_init);
	return csf_root_dir;
}

static pthread_once_t csf_i18n_once = PTHREAD_ONCE_INIT;

static void csf_i18n_bind(void)
{
#ifdef ENABLE_NLS
	/* the host program binds its own domain, not ours */
	bindtextdomain(PACKAGE, LOCALEDIR);
#endif
}

void csf_i18n_init(void)
{
	pthread_once(&csf_i18n_once, csf_i18n_bind);
}

/*
 * -ENOENT has two causes the caller cannot tell apart: no filesystem at
 * all, or no such thread in it.  Looking is cheap on an error path.
 */
static int csf_fs_present(void)
{
	char path[4096];

	return !csf_path(path, sizeof(path), "cpu") && access(path, F_OK) == 0;
}

CSF_PUBLIC const char *csf_strerror(int err)
{
	static __thread char buf[512];
	const char *root = csf_root();

	csf_i18n_init();
	switch (-err) {
	case 0:
		return _("success");
	case ENOENT:
		if (csf_fs_present()) {
			snprintf(buf, sizeof(buf),
				 _("no such thread page under %s: the thread is not registered or has exited"),
				 root);
			return buf;
		}
		snprintf(buf, sizeof(buf),
			 _("coarse_stat_fs is not mounted at %s: load the module (modprobe coarse_stat_fs) and mount it (mount -t coarse_stat_fs none %s), or set CSF_ROOT"),
			 root, root);
		return buf;
	case EPROTO:
		if (csf_seen_abi_major < 0)
			snprintf(buf, sizeof(buf),
				 _("the files at %s are not coarse_stat_fs pages (bad magic number)"),
				 root);
		else if (csf_seen_abi_major != CSF_ABI_MAJOR)
			snprintf(buf, sizeof(buf),
				 _("the coarse_stat_fs module at %s speaks ABI %d, this library ABI %d: install a library and a module of the same major version"),
				 root, csf_seen_abi_major, CSF_ABI_MAJOR);
		else
			snprintf(buf, sizeof(buf),
				 _("the coarse_stat_fs pages at %s are malformed (sizes or clock this library cannot read)"),
				 root);
		return buf;
	case ENOSPC:
		return _("no room: the module's registration cap is reached (module parameter max_threads), or the output buffer is too small");
	case EACCES:
	case EPERM:
		return _("permission denied: a thread's page can be read only by its user and by root");
	case EINVAL:
		return _("invalid argument: snapshots of different threads, or the later snapshot is older");
	case EAGAIN:
		return _("a coarse_stat_fs page stayed in the middle of an update for over a second: the page is corrupt or its writer is stuck; try again later");
	case ENAMETOOLONG:
		return _("the path in CSF_ROOT is too long");
	case EOPNOTSUPP:
		return _("the coarse_stat_fs module is older than this library: histograms need ABI 1.1, attaching 1.2, trees 1.3; load a module of this release");
	case ENODATA:
		return _("no tree here: the page is not the root of a registration with inherit");
	default:
		/* glibc and musl return static text for every errno */
		snprintf(buf, sizeof(buf), "%s", strerror(-err));
		return buf;
	}
}
