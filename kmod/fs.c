// SPDX-License-Identifier: GPL-2.0
/*
 * fs.c - the coarse_stat_fs filesystem: cpu, thread-self and threads/<tid>.
 *
 * One superblock (get_tree_single) whose directories are generated on
 * lookup, like /proc: nothing is pinned in the dcache, every dentry is
 * dropped as soon as it is unused, and one that is pinned (an open file, a
 * mapping) is revalidated, so that threads/<tid> always names the thread
 * that has that tid now.
 *
 * Errors for bad use (documented in coarse_stat_fs(7) and the ABI header):
 *   open for writing           EACCES (even for root)
 *   mmap with PROT_WRITE       EACCES from the VFS for MAP_SHARED on our
 *                              read-only fds, EPERM from us for MAP_PRIVATE
 *   mmap with PROT_EXEC        EPERM
 *   mprotect(PROT_WRITE|EXEC)  EACCES (VM_MAYWRITE and VM_MAYEXEC are gone)
 *   mmap past the end          EINVAL (length or offset beyond the file)
 *   truncate, chmod, chown,
 *   utimes                     EPERM (even for root)
 *   thread-self past the cap   ENOSPC
 *   attach: read               EACCES; a write: see the ABI header
 *   MADV_HWPOISON, anything
 *   that needs GUP             EFAULT (VM_IO; see CSF_VM_FLAGS in csf.h)
 */
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/sysfs.h>
#include <linux/threads.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "csf.h"

enum {
	CSF_INO_ROOT = 1,
	CSF_INO_CPU,
	CSF_INO_SELF,
	CSF_INO_THREADS,
	CSF_INO_ATTACH,
	CSF_INO_TID_BASE = 16,	/* threads/<tid> is CSF_INO_TID_BASE + tid */
};

static void csf_inode_init_times(struct inode *inode)
{
#ifdef HAVE_SIMPLE_INODE_INIT_TS
	simple_inode_init_ts(inode);
#else
	inode->i_atime = inode->i_mtime = inode->i_ctime = current_time(inode);
#endif
}

static struct inode *csf_new_inode(struct super_block *sb, unsigned long ino,
				   umode_t mode)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = ino;
	inode->i_mode = mode;
	csf_inode_init_times(inode);
	return inode;
}

/*
 * Without this, root's truncate() or chmod() would reach simple_setattr()
 * and change what the inode claims about the pages.
 */
#ifdef HAVE_SETATTR_MNT_IDMAP
static int csf_setattr(struct mnt_idmap *idmap, struct dentry *dentry,
		       struct iattr *attr)
#else
static int csf_setattr(struct user_namespace *ns, struct dentry *dentry,
		       struct iattr *attr)
#endif
{
	return -EPERM;
}

static const struct inode_operations csf_file_iops = {
	.setattr = csf_setattr,
};

/* ---- files backed by one page: thread-self and threads/<tid> ---------- */

static vm_fault_t csf_page_fault(struct vm_fault *vmf)
{
	struct page *page = vmf->vma->vm_file->private_data;

	if (vmf->pgoff)
		return VM_FAULT_SIGBUS;
	return csf_insert_pfn(vmf, page_to_pfn(page));
}

/*
 * Reads through /proc/<pid>/mem and ptrace (a debugger looking at the
 * page), which cannot take our pages with get_user_pages(); writes are
 * refused as the read-only mapping refuses them.
 */
static int csf_vma_access(const void *base, size_t size,
			  struct vm_area_struct *vma, unsigned long addr,
			  void *buf, int len, int write)
{
	unsigned long off = (vma->vm_pgoff << PAGE_SHIFT) +
			    (addr - vma->vm_start);

	if (write)
		return -EACCES;
	if (len <= 0 || off >= size)
		return -EFAULT;
	len = min3((unsigned long)len, size - off, vma->vm_end - addr);
	memcpy(buf, base + off, len);
	return len;
}

static int csf_page_access(struct vm_area_struct *vma, unsigned long addr,
			   void *buf, int len, int write)
{
	return csf_vma_access(page_address(vma->vm_file->private_data),
			      PAGE_SIZE, vma, addr, buf, len, write);
}

static const struct vm_operations_struct csf_page_vm_ops = {
	.fault = csf_page_fault,
	.access = csf_page_access,
};

/* The cpu file: csf_cpu_size bytes of vmalloc_user() memory. */
static vm_fault_t csf_cpu_fault(struct vm_fault *vmf)
{
	if (vmf->pgoff >= csf_cpu_size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	return csf_insert_pfn(vmf, vmalloc_to_pfn((void *)csf_cpu_hdr +
						  (vmf->pgoff << PAGE_SHIFT)));
}

static int csf_cpu_access(struct vm_area_struct *vma, unsigned long addr,
			  void *buf, int len, int write)
{
	return csf_vma_access(csf_cpu_hdr, csf_cpu_size, vma, addr, buf, len,
			      write);
}

static const struct vm_operations_struct csf_cpu_vm_ops = {
	.fault = csf_cpu_fault,
	.access = csf_cpu_access,
};

/*
 * Pages are handed out by a fault handler rather than inserted up front so
 * that a range dropped with MADV_DONTNEED faults back in instead of turning
 * into SIGBUS.  CSF_VM_FLAGS says why they are inserted by pfn.
 */
static int csf_cpu_mmap(struct file *file, struct vm_area_struct *vma)
{
	unsigned long pages = csf_cpu_size >> PAGE_SHIFT;

	if (vma->vm_flags & (VM_WRITE | VM_EXEC))
		return -EPERM;
	if (vma->vm_pgoff >= pages || vma_pages(vma) > pages - vma->vm_pgoff)
		return -EINVAL;
	csf_vma_flags(vma, CSF_VM_FLAGS, VM_MAYWRITE | VM_MAYEXEC);
	vma->vm_ops = &csf_cpu_vm_ops;
	return 0;
}

/*
 * VM_DONTCOPY: a fork child does not inherit the parent thread's page (it
 * is another thread, and registers itself).  The page is served from the
 * fault handler so MADV_DONTNEED cannot turn it into SIGBUS; the file, and
 * so the page reference it holds, lives as long as the mapping.
 * CSF_VM_FLAGS says why it is inserted by pfn.
 */
static int csf_page_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (vma->vm_flags & (VM_WRITE | VM_EXEC))
		return -EPERM;
	if (vma->vm_pgoff || vma_pages(vma) != 1)
		return -EINVAL;
	csf_vma_flags(vma, CSF_VM_FLAGS | VM_DONTCOPY,
		      VM_MAYWRITE | VM_MAYEXEC);
	vma->vm_ops = &csf_page_vm_ops;
	return 0;
}

/* read() gives the raw bytes, for od(1) and other inspection. */
static ssize_t csf_page_read(struct file *file, char __user *buf,
			     size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos,
				       page_address(file->private_data),
				       PAGE_SIZE);
}

static int csf_page_release(struct inode *inode, struct file *file)
{
	put_page(file->private_data);
	return 0;
}

static int csf_self_open(struct inode *inode, struct file *file)
{
	struct page *page;
	int err;

	if (file->f_mode & FMODE_WRITE)
		return -EACCES;
	err = csf_thread_register(&page);
	if (err)
		return err;
	file->private_data = page;
	return 0;
}

/*
 * threads/<tid> inodes hold the struct pid they were looked up for, as
 * /proc's do: the thread, not the number, which a new thread may reuse.
 */
static inline struct pid *csf_inode_pid(struct inode *inode)
{
	return inode->i_private;
}

static int csf_tid_open(struct inode *inode, struct file *file)
{
	struct page *page;
	kuid_t uid;
	kgid_t gid;

	if (file->f_mode & FMODE_WRITE)
		return -EACCES;
	page = csf_thread_get_page(csf_inode_pid(inode), &uid, &gid);
	if (!page)
		return -ENOENT;
	/*
	 * The VFS checked permission against the owner d_revalidate() saw.
	 * If the thread changed credentials or dumpability since, that
	 * check proves nothing.
	 */
	if (!uid_eq(uid, inode->i_uid) || !gid_eq(gid, inode->i_gid)) {
		put_page(page);
		return -EACCES;
	}
	file->private_data = page;
	return 0;
}

static const struct file_operations csf_self_fops = {
	.owner = THIS_MODULE,
	.open = csf_self_open,
	.release = csf_page_release,
	.read = csf_page_read,
	.mmap = csf_page_mmap,
	.llseek = generic_file_llseek,
};

static const struct file_operations csf_tid_fops = {
	.owner = THIS_MODULE,
	.open = csf_tid_open,
	.release = csf_page_release,
	.read = csf_page_read,
	.mmap = csf_page_mmap,
	.llseek = generic_file_llseek,
};

/* ---- cpu ---------------------------------------------------------------- */

static int csf_cpu_open(struct inode *inode, struct file *file)
{
	return file->f_mode & FMODE_WRITE ? -EACCES : 0;
}

static ssize_t csf_cpu_read(struct file *file, char __user *buf, size_t count,
			    loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, csf_cpu_hdr,
				       csf_cpu_size);
}

static const struct file_operations csf_cpu_fops = {
	.owner = THIS_MODULE,
	.open = csf_cpu_open,
	.read = csf_cpu_read,
	.mmap = csf_cpu_mmap,
	.llseek = generic_file_llseek,
};

/* ---- attach --------------------------------------------------------------- */

static int csf_attach_open(struct inode *inode, struct file *file)
{
	return file->f_mode & FMODE_READ ? -EACCES : 0;
}

/*
 * "PID", "PID thread", each optionally followed by " inherit", or "all",
 * and an optional newline (echo's): one request a write, as cgroup.procs
 * takes one pid.  The permission is checked for every task the request
 * names, in csf_thread_attach(), or once for "all".
 */
static ssize_t csf_attach_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	bool thread = false, inherit = false;
	char buf[48], *s = buf, *word;
	int pid, err;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (count && buf[count - 1] == '\n')
		buf[count - 1] = '\0';
	if (!strcmp(buf, "all")) {
		err = csf_thread_attach_all(file);
		return err ? err : count;
	}
	word = strsep(&s, " ");
	if (kstrtoint(word, 10, &pid) || pid <= 0)
		return -EINVAL;
	while ((word = strsep(&s, " "))) {
		if (!strcmp(word, "thread") && !thread && !inherit)
			thread = true;
		else if (!strcmp(word, "inherit") && !inherit)
			inherit = true;
		else
			return -EINVAL;
	}
	err = csf_thread_attach(file, pid, thread, inherit);
	return err ? err : count;
}

static const struct file_operations csf_attach_fops = {
	.owner = THIS_MODULE,
	.open = csf_attach_open,
	.write = csf_attach_write,
	.llseek = noop_llseek,
};

/* ---- threads/ ------------------------------------------------------------ */

/* A tid in canonical decimal: no sign, no leading zero, no overflow. */
static bool csf_parse_tid(const struct qstr *name, pid_t *tid)
{
	unsigned int i;
	u64 v = 0;

	if (!name->len || name->len > 10 || name->name[0] == '0')
		return false;
	for (i = 0; i < name->len; i++) {
		if (name->name[i] < '0' || name->name[i] > '9')
			return false;
		v = v * 10 + (name->name[i] - '0');
	}
	if (v > PID_MAX_LIMIT)
		return false;
	*tid = v;
	return true;
}

static struct dentry *csf_threads_lookup(struct inode *dir,
					 struct dentry *dentry,
					 unsigned int flags)
{
	struct inode *inode = NULL;
	struct pid *pid;
	kuid_t uid;
	kgid_t gid;
	pid_t tid;

	if (csf_parse_tid(&dentry->d_name, &tid)) {
		rcu_read_lock();
		pid = get_pid(find_pid_ns(tid, &init_pid_ns));
		rcu_read_unlock();
		if (pid && csf_thread_owner(pid, &uid, &gid)) {
			/* Only its user and root: narrower than /proc. */
			inode = csf_new_inode(dir->i_sb,
					      CSF_INO_TID_BASE + tid,
					      S_IFREG | 0400);
			if (!inode) {
				put_pid(pid);
				return ERR_PTR(-ENOMEM);
			}
			inode->i_private = pid;
			inode->i_uid = uid;
			inode->i_gid = gid;
			inode->i_size = PAGE_SIZE;
			inode->i_op = &csf_file_iops;
			inode->i_fop = &csf_tid_fops;
		} else {
			put_pid(pid);
		}
	}
	return d_splice_alias(inode, dentry);
}

static int csf_cmp_tid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * f_pos is "next tid + 2", so a listing resumed after threads came and went
 * neither repeats nor skips the ones that stayed.
 */
static int csf_threads_iterate(struct file *file, struct dir_context *ctx)
{
	char name[16];
	pid_t *tids;
	int i, n;

	if (!dir_emit_dots(file, ctx))
		return 0;
	tids = kvmalloc_array(csf_max_threads, sizeof(*tids), GFP_KERNEL);
	if (!tids)
		return -ENOMEM;
	n = csf_thread_tids(tids, csf_max_threads);
	sort(tids, n, sizeof(*tids), csf_cmp_tid, NULL);
	for (i = 0; i < n; i++) {
		if ((loff_t)tids[i] + 2 < ctx->pos)
			continue;
		ctx->pos = (loff_t)tids[i] + 2;
		if (!dir_emit(ctx, name, snprintf(name, sizeof(name), "%d",
						  tids[i]),
			      CSF_INO_TID_BASE + tids[i], DT_REG))
			goto out;
	}
	ctx->pos = (loff_t)PID_MAX_LIMIT + 3;
out:
	kvfree(tids);
	return 0;
}

static const struct inode_operations csf_threads_iops = {
	.lookup = csf_threads_lookup,
	.setattr = csf_setattr,
};

static const struct file_operations csf_threads_fops = {
	.owner = THIS_MODULE,
	.read = generic_read_dir,
	.iterate_shared = csf_threads_iterate,
	.llseek = generic_file_llseek,
};

/* ---- the root directory --------------------------------------------------- */

static const struct csf_root_entry {
	const char *name;
	unsigned long ino;
	umode_t mode;
	unsigned char dtype;
} csf_root_entries[] = {
	{ "cpu", CSF_INO_CPU, S_IFREG | 0444, DT_REG },
	{ "thread-self", CSF_INO_SELF, S_IFREG | 0444, DT_REG },
	{ "threads", CSF_INO_THREADS, S_IFDIR | 0555, DT_DIR },
	/* Anyone may ask; csf_thread_attach() decides for each task. */
	{ CSF_ATTACH_FILE, CSF_INO_ATTACH, S_IFREG | 0222, DT_REG },
};

static struct dentry *csf_root_lookup(struct inode *dir, struct dentry *dentry,
				      unsigned int flags)
{
	const struct csf_root_entry *e = NULL;
	struct inode *inode = NULL;
	int i;

	for (i = 0; i < ARRAY_SIZE(csf_root_entries); i++)
		if (!strcmp(dentry->d_name.name, csf_root_entries[i].name))
			e = &csf_root_entries[i];
	if (e) {
		inode = csf_new_inode(dir->i_sb, e->ino, e->mode);
		if (!inode)
			return ERR_PTR(-ENOMEM);
		switch (e->ino) {
		case CSF_INO_CPU:
			inode->i_op = &csf_file_iops;
			inode->i_fop = &csf_cpu_fops;
			inode->i_size = csf_cpu_size;
			break;
		case CSF_INO_SELF:
			inode->i_op = &csf_file_iops;
			inode->i_fop = &csf_self_fops;
			inode->i_size = PAGE_SIZE;
			break;
		case CSF_INO_ATTACH:
			inode->i_op = &csf_file_iops;
			inode->i_fop = &csf_attach_fops;
			break;
		case CSF_INO_THREADS:
			inode->i_op = &csf_threads_iops;
			inode->i_fop = &csf_threads_fops;
			set_nlink(inode, 2);
			break;
		}
	}
	return d_splice_alias(inode, dentry);
}

static int csf_root_iterate(struct file *file, struct dir_context *ctx)
{
	const struct csf_root_entry *e;

	if (!dir_emit_dots(file, ctx))
		return 0;
	for (; ctx->pos - 2 < ARRAY_SIZE(csf_root_entries); ctx->pos++) {
		e = &csf_root_entries[ctx->pos - 2];
		if (!dir_emit(ctx, e->name, strlen(e->name), e->ino, e->dtype))
			return 0;
	}
	return 0;
}

static const struct inode_operations csf_root_iops = {
	.lookup = csf_root_lookup,
	.setattr = csf_setattr,
};

static const struct file_operations csf_root_fops = {
	.owner = THIS_MODULE,
	.read = generic_read_dir,
	.iterate_shared = csf_root_iterate,
	.llseek = generic_file_llseek,
};

/* ---- superblock and registration ----------------------------------------- */

static void csf_evict_inode(struct inode *inode)
{
	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	put_pid(csf_inode_pid(inode));	/* NULL but for threads/<tid> */
}

static const struct super_operations csf_super_ops = {
	.statfs = simple_statfs,
	.evict_inode = csf_evict_inode,
};

/*
 * threads/<tid> must name the thread that has that tid now, but an open
 * file or a mapping pins its dentry, and a pinned dentry is found without
 * asking ->lookup().  So, like /proc's pid_revalidate(): once no live
 * registered thread has the inode's pid, the dentry is stale and the name
 * is looked up again; while one does, the owner is refreshed, as the
 * thread may have changed credentials or dumpability.  Other entries never
 * change.
 */
#ifdef HAVE_D_REVALIDATE_DIR_NAME
static int csf_d_revalidate(struct inode *dir, const struct qstr *name,
			    struct dentry *dentry, unsigned int flags)
#else
static int csf_d_revalidate(struct dentry *dentry, unsigned int flags)
#endif
{
	struct inode *inode = d_inode_rcu(dentry);
	kuid_t uid;
	kgid_t gid;

	/* A negative dentry: the name may be a registered thread now. */
	if (!inode)
		return 0;
	if (inode->i_ino < CSF_INO_TID_BASE)
		return 1;
	/*
	 * In an RCU walk the inode may be on its way out, its pid reference
	 * with it, and working out the owner may sleep (task_lock() on
	 * PREEMPT_RT): ask for a walk that holds the dentry.
	 */
	if (flags & LOOKUP_RCU)
		return -ECHILD;
	if (!csf_thread_owner(csf_inode_pid(inode), &uid, &gid))
		return 0;
	inode->i_uid = uid;
	inode->i_gid = gid;
	return 1;
}

/*
 * Drop every dentry at its last dput(), so that lookups always ask the
 * registry.  Our own copy: libfs's simple_dentry_operations is gone since
 * 6.17.
 */
static const struct dentry_operations csf_dentry_ops = {
	.d_revalidate = csf_d_revalidate,
	.d_delete = always_delete_dentry,
};

static int csf_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct inode *root;

	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_magic = CSF_FS_MAGIC;
	sb->s_op = &csf_super_ops;
	sb->s_time_gran = 1;
	/* Before d_make_root(): a dentry takes its d_op when allocated. */
#ifdef HAVE_SET_DEFAULT_D_OP
	set_default_d_op(sb, &csf_dentry_ops);
#else
	sb->s_d_op = &csf_dentry_ops;
#endif
	root = csf_new_inode(sb, CSF_INO_ROOT, S_IFDIR | 0555);
	if (!root)
		return -ENOMEM;
	root->i_op = &csf_root_iops;
	root->i_fop = &csf_root_fops;
	set_nlink(root, 3);
	sb->s_root = d_make_root(root);
	return sb->s_root ? 0 : -ENOMEM;
}

static int csf_get_tree(struct fs_context *fc)
{
	return get_tree_single(fc, csf_fill_super);
}

static const struct fs_context_operations csf_context_ops = {
	.get_tree = csf_get_tree,
};

static int csf_init_fs_context(struct fs_context *fc)
{
	fc->ops = &csf_context_ops;
	return 0;
}

/*
 * .owner pins the module while any superblock exists: delete_module() fails
 * with EWOULDBLOCK (rmmod says "Resource temporarily unavailable").
 */
static struct file_system_type csf_fs_type = {
	.owner = THIS_MODULE,
	.name = CSF_FS_NAME,
	.init_fs_context = csf_init_fs_context,
	.kill_sb = kill_anon_super,
};

int csf_fs_register(void)
{
	int err;

	err = sysfs_create_mount_point(fs_kobj, CSF_FS_NAME);
	if (err)
		return err;
	err = register_filesystem(&csf_fs_type);
	if (err)
		sysfs_remove_mount_point(fs_kobj, CSF_FS_NAME);
	return err;
}

void csf_fs_unregister(void)
{
	unregister_filesystem(&csf_fs_type);
	sysfs_remove_mount_point(fs_kobj, CSF_FS_NAME);
}
