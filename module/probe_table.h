/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rows of a probe family's table (probe_futex.c, probe_mutex.c,
 * probe_rwsem.c): each names a role, the lock class it serves, its kind,
 * handlers, argument positions and candidate symbols (plain name first,
 * then compiler clones). Included only by the probe_*.c files.
 */
#ifndef _LOCKBLAME_PROBE_TABLE_H
#define _LOCKBLAME_PROBE_TABLE_H

#include "lockblame.h"

#define LB_WAIT_DATA sizeof(struct lb_wait_data)

#define LB_UNPAREN(...) __VA_ARGS__
/* _args: the argument positions, as (LB_AT(NAME, pos), ...). */
#define LB_KRET(_role, _cls, _req, _entry, _ret, _args, ...)		\
	{ .role = _role, .lock_class = _cls, .required = _req,		\
	  .kind = LB_KRETPROBE, .args = { LB_UNPAREN _args },	\
	  .entry = _entry, .ret = _ret, .data_size = LB_WAIT_DATA,	\
	  .candidates = { __VA_ARGS__ } }
/* The same, where candidate i returns an int (not void) when bit i of _ints is set. */
#define LB_KRETI(_role, _cls, _req, _entry, _ret, _ints, _args, ...)	\
	{ .role = _role, .lock_class = _cls, .required = _req,		\
	  .kind = LB_KRETPROBE, .args = { LB_UNPAREN _args },	\
	  .entry = _entry, .ret = _ret, .data_size = LB_WAIT_DATA,	\
	  .int_candidates = _ints, .candidates = { __VA_ARGS__ } }
#define LB_KPRB(_role, _cls, _req, _pre, _args, ...)			\
	{ .role = _role, .lock_class = _cls, .required = _req,		\
	  .kind = LB_KPROBE, .args = { LB_UNPAREN _args },	\
	  .pre = _pre, .candidates = { __VA_ARGS__ } }
/* A stand-in for role _for, planted only where that role found no symbol. */
#define LB_KPRB_FOR(_for, _role, _cls, _pre, _args, ...)		\
	{ .role = _role, .lock_class = _cls, .stands_in_for = _for,	\
	  .kind = LB_KPROBE, .args = { LB_UNPAREN _args },	\
	  .pre = _pre, .candidates = { __VA_ARGS__ } }
#define LB_KRET_FOR(_for, _role, _cls, _entry, _ret, _args, ...)	\
	{ .role = _role, .lock_class = _cls, .stands_in_for = _for,	\
	  .kind = LB_KRETPROBE, .args = { LB_UNPAREN _args },	\
	  .entry = _entry, .ret = _ret, .data_size = LB_WAIT_DATA,	\
	  .candidates = { __VA_ARGS__ } }
/* A tracepoint, found by name at load: its probe is called with the row as data. */
#define LB_TRACE(_role, _cls, _probe, ...)				\
	{ .role = _role, .lock_class = _cls, .required = false,		\
	  .kind = LB_TRACEPOINT, .tp_probe = _probe,			\
	  .candidates = { __VA_ARGS__ } }

#endif /* _LOCKBLAME_PROBE_TABLE_H */
