# SPDX-License-Identifier: GPL-2.0
# What the kernel's headers have where no version or config macro tells, for
# module/compat.h; included by Kbuild and kunit/Kbuild. 7.x queues rwsem
# waiters behind a first_waiter pointer; 5.11 added get_kretprobe(); 5.15
# moved stdarg.h into the kernel's headers; 6.13 made a symbol namespace a
# string literal where it was an identifier that MODULE_IMPORT_NS stringified;
# 6.12 made uprobe_register() return the uprobe (unregistered by it, in two
# steps) and 6.13 gave uprobe handlers a session cookie (__u64 *data);
# 6.2 added kunit/visibility.h (EXPORT_SYMBOL_IF_KUNIT). Exports are read
# from the build's Module.symvers: 5.10 declares sched_setattr_nocheck() but
# does not export it (6.1 does); without the file, the rescue drainer runs at
# SCHED_FIFO 50, as on 5.10.
ccflags-y += $(if $(shell grep -ls first_waiter $(srctree)/include/linux/rwsem.h),-DLB_RWSEM_FIRST_WAITER)
ccflags-y += $(if $(shell grep -ls get_kretprobe $(srctree)/include/linux/kprobes.h),-DLB_HAVE_GET_KRETPROBE)
ccflags-y += $(if $(wildcard $(srctree)/include/linux/stdarg.h),-DLB_HAVE_LINUX_STDARG)
ccflags-y += $(if $(wildcard $(srctree)/include/kunit/visibility.h),,-DLB_NO_KUNIT_VISIBILITY)
ccflags-y += $(if $(shell grep -ls 'import_ns, __stringify(ns)' $(srctree)/include/linux/module.h),-DLB_NS_IDENTIFIER)
ccflags-y += $(if $(shell grep -ls '\ssched_setattr_nocheck\s' $(objtree)/Module.symvers),-DLB_HAVE_SETATTR_NOCHECK)
ccflags-y += $(if $(shell grep -ls uprobe_unregister_nosync $(srctree)/include/linux/uprobes.h),-DLB_UPROBE_HANDLE)
ccflags-y += $(if $(shell grep -ls 'struct pt_regs \*regs, __u64 \*data' $(srctree)/include/linux/uprobes.h),-DLB_UPROBE_DATA)
