/* SPDX-License-Identifier: GPL-2.0 */
/* The memory the kernel allocated for the planted kretprobes' instances (probes.c). */
#ifndef _LOCKBLAME_PROBES_H
#define _LOCKBLAME_PROBES_H

#include <linux/seq_file.h>
#include <linux/types.h>

u64 lb_kretprobe_pools_bytes(void);
void lb_kretprobe_pools_show(struct seq_file *m);

#endif /* _LOCKBLAME_PROBES_H */
