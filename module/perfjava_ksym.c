// SPDX-License-Identifier: GPL-2.0
/*
 * perfjava_ksym: names kernel addresses for a profiler that cannot read them
 * from /proc/kallsyms (kernel.kptr_restrict).
 *
 * The misc device /dev/perfjava_ksym (mode 0600) resolves batches of kernel
 * addresses to "symbol+offset/size [module]", the answer of %pS. It only
 * ever returns names, offsets and sizes, never an address, and only to a
 * caller with CAP_SYSLOG (the capability that lets /proc/kallsyms show real
 * addresses under kptr_restrict=1) or in the group the administrator gave
 * the device to. The ABI is include/perfjava/ksym.h.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <perfjava/ksym.h>

/* One entry being resolved and the buffer sprint_symbol() writes into. */
struct pj_ksym_work {
	struct pj_ksym_entry entry;
	char text[KSYM_SYMBOL_LEN];
};

/*
 * Who may name kernel addresses: a member of the device's group when the
 * group may read it (the administrator's grant, by a udev rule), or a holder
 * of CAP_SYSLOG. The permission bits for others never grant: a chmod 0666
 * does not open it to every user. The task calling is checked at open and
 * at every ioctl: a descriptor passed to a process that has neither right is
 * refused, and taking the group's permission away refuses the next call.
 * The group comes first so that its members cause no capability audit.
 */
static bool pj_ksym_allowed(struct file *file)
{
	struct inode *inode = file_inode(file);

	if ((inode->i_mode & 0040) && in_group_p(inode->i_gid))
		return true;
	return capable(CAP_SYSLOG);
}

static int pj_ksym_open(struct inode *inode, struct file *file)
{
	if (!pj_ksym_allowed(file))
		return -EPERM;
	return nonseekable_open(inode, file);
}

/* Copies src into dst, flagging e when it had to be cut. */
static void pj_ksym_copy(struct pj_ksym_entry *e, char *dst, size_t size,
			 const char *src)
{
	if (strscpy(dst, src, size) < 0)
		e->flags |= PJ_KSYM_TRUNCATED;
}

/*
 * Resolves e->addr. sprint_symbol() writes "name+0xoff/0xsize [module]", or
 * just the address when nothing contains it: that has no '+' and is
 * reported as not found, so the address never travels back.
 */
static void pj_ksym_lookup(struct pj_ksym_work *w)
{
	struct pj_ksym_entry *e = &w->entry;
	unsigned long long offset, size;
	unsigned long addr = e->addr;
	char *module, *plus, *slash, *end;

	if (addr != e->addr)
		return;
	sprint_symbol(w->text, addr);

	module = strstr(w->text, " [");
	if (module) {
		*module = '\0';
		module += 2;
		end = strpbrk(module, " ]");
		if (!end)
			return;
		*end = '\0';
	}
	plus = strrchr(w->text, '+');
	if (!plus || plus == w->text)
		return;
	*plus++ = '\0';
	slash = strchr(plus, '/');
	if (!slash)
		return;
	*slash++ = '\0';
	if (kstrtoull(plus, 0, &offset) || kstrtoull(slash, 0, &size))
		return;

	pj_ksym_copy(e, e->name, sizeof(e->name), w->text);
	if (module)
		pj_ksym_copy(e, e->module, sizeof(e->module), module);
	e->offset = offset;
	e->size = size;
	e->flags |= PJ_KSYM_FOUND;
}

static long pj_ksym_resolve(void __user *argp)
{
	struct pj_ksym_entry __user *entries;
	struct pj_ksym_resolve req;
	struct pj_ksym_work *w;
	u32 i, found = 0;
	long ret = 0;
	u64 addr;

	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	if (req.abi_version != PJ_KSYM_ABI_VERSION || req.reserved ||
	    !req.count || req.count > PJ_KSYM_MAX_BATCH)
		return -EINVAL;
	entries = u64_to_user_ptr(req.entries);

	w = kmalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	for (i = 0; i < req.count; i++) {
		if (get_user(addr, &entries[i].addr)) {
			ret = -EFAULT;
			break;
		}
		memset(&w->entry, 0, sizeof(w->entry));
		w->entry.addr = addr;
		pj_ksym_lookup(w);
		if (w->entry.flags & PJ_KSYM_FOUND)
			found++;
		if (copy_to_user(&entries[i], &w->entry, sizeof(w->entry))) {
			ret = -EFAULT;
			break;
		}
		cond_resched();
	}
	kfree(w);
	if (ret)
		return ret;

	req.resolved = found;
	if (copy_to_user(argp, &req, sizeof(req)))
		return -EFAULT;
	return 0;
}

static long pj_ksym_info(void __user *argp)
{
	struct pj_ksym_info info = {
		.abi_version = PJ_KSYM_ABI_VERSION,
		.entry_size = sizeof(struct pj_ksym_entry),
		.max_batch = PJ_KSYM_MAX_BATCH,
	};

	if (copy_to_user(argp, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

static long pj_ksym_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	if (!pj_ksym_allowed(file))
		return -EPERM;

	switch (cmd) {
	case PJ_KSYM_IOC_INFO:
		return pj_ksym_info(argp);
	case PJ_KSYM_IOC_RESOLVE:
		return pj_ksym_resolve(argp);
	default:
		return -ENOTTY;
	}
}

/*
 * No .llseek: nonseekable_open() makes lseek() fail with ESPIPE on every
 * kernel, before and after no_llseek went away in 6.12.
 */
static const struct file_operations pj_ksym_fops = {
	.owner = THIS_MODULE,
	.open = pj_ksym_open,
	.unlocked_ioctl = pj_ksym_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice pj_ksym_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "perfjava_ksym",
	.fops = &pj_ksym_fops,
	.mode = 0600,
};

module_misc_device(pj_ksym_misc);

MODULE_DESCRIPTION("Kernel symbol names for perfjava under kptr_restrict");
MODULE_LICENSE("GPL");
