# SPDX-License-Identifier: GPL-2.0
# The ledger's objects, listed once: Kbuild links them into lockblame.ko and
# tools/hosttest/Makefile builds their sources on the host.
LB_LEDGER_OBJS := ledger.o ledger_waits.o ledger_holds.o ledger_chain.o ledger_query.o \
	ledger_tables.o ledger_stacks.o ledger_hist.o ledger_report.o ledger_text.o \
	ledger_dump.o ledger_events.o ledger_cgroups.o ledger_outliers.o ledger_scopes.o \
	ledger_pending.o ledger_tasks.o ledger_past.o ledger_chain_records.o
