/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The ledger dump ("ledger" in debugfs), defined once: its version, its
 * record types with their keys in the order they are written, and the names
 * of the enums it prints. The module's writer (module/ledger_dump.c) and the
 * reader's parser (tools/lockblame/parse.c, which lb-check links) both
 * include the list of records, ledger_list.h, in the manner of the kernel's
 * lock_events_list.h.
 *
 * The text: a header line "# lockblame ledger v1", then one record per line,
 * the record type first, then space-separated key=value fields. Readers
 * ignore keys and record types they do not know, so a key is only ever added
 * at the end of its record. Numbers are decimal, lock ids 16 hex digits, and
 * a comm is escaped so that bytes outside 0x21..0x7e, '\\' and '=' become
 * \xNN. Bump LB_LEDGER_VERSION on an incompatible change.
 */
#ifndef _LOCKBLAME_LEDGER_FORMAT_H
#define _LOCKBLAME_LEDGER_FORMAT_H

#define LB_LEDGER_VERSION	1
#define LB_LEDGER_HEADER	"# lockblame ledger v"	/* then the version */

/*
 * The kinds of value a key has:
 *   U64, U32   unsigned decimal
 *   S32        signed decimal (pids; 0 is "nobody")
 *   ID         a lock id: 16 hex digits
 *   COMM       a task name, escaped as above
 *   NAME       a lock's name (up to LB_LOCK_NAME_LEN - 1 bytes), escaped as
 *              above; "-" when it has none
 *   WORD       one of the names below (class, verdict, role, on/off)
 *   S32_LIST, ID_LIST   comma-separated S32s or IDs
 *   UNREAD_U64 a U64 that tools/lockblame does not read (not in its JSON)
 */

/* The keys of every record: ledger_list.h. */

/*
 * A task's verdict, from the blame it keeps and its waiting, and the names
 * the dump and the report give the enums.
 */
enum lb_verdict {
	LB_VERDICT_NONE = 0,	/* neither waited nor caused waiting */
	LB_VERDICT_CAUSE,
	LB_VERDICT_VICTIM,
	LB_VERDICT_SHARED,
	LB_VERDICT_MAX
};

#define LB_VERDICT_NAMES {						\
	[LB_VERDICT_NONE] = "none",					\
	[LB_VERDICT_CAUSE] = "cause",					\
	[LB_VERDICT_VICTIM] = "victim",					\
	[LB_VERDICT_SHARED] = "shared",					\
}

/* Whose time a stack record counts: the holder's blame or the waiter's wait. */
enum lb_stack_role {
	LB_STACK_CAUSE = 0,
	LB_STACK_VICTIM,
	LB_STACK_ROLE_MAX
};

#define LB_STACK_ROLE_NAMES {						\
	[LB_STACK_CAUSE] = "cause",					\
	[LB_STACK_VICTIM] = "victim",					\
}

/* What an outlier (a wait or a hold past "outlier_ns") was. */
enum lb_outlier_kind {
	LB_OUTLIER_WAIT = 0,
	LB_OUTLIER_HOLD,
	LB_OUTLIER_KIND_MAX
};

#define LB_OUTLIER_KIND_NAMES {						\
	[LB_OUTLIER_WAIT] = "wait",					\
	[LB_OUTLIER_HOLD] = "hold",					\
}

/* enum lb_lock_class (abi.h) */
#define LB_LOCK_CLASS_NAMES {						\
	[LB_LOCK_FUTEX] = "futex",					\
	[LB_LOCK_FUTEX_PI] = "futex_pi",				\
	[LB_LOCK_MUTEX] = "mutex",					\
	[LB_LOCK_RWSEM] = "rwsem",					\
	[LB_LOCK_SCOPE] = "scope",					\
}

#endif /* _LOCKBLAME_LEDGER_FORMAT_H */
