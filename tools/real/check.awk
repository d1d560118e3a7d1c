# SPDX-License-Identifier: GPL-2.0
# awk -v tol=PERCENT -f check.awk CASE.truth CASE.ledger
# gil.py's truth (its "gil ..." lines) held against lockblame's ledger dump
# (include/lockblame/ledger_list.h): prints the figures tools/real/gil-guest.sh
# checks, as shell assignments (numbers and words only). Numbers are doubles:
# exact for ns sums below 2^53 (104 days).
#   sorter tgid tickers      the sorter's tid, the process, how many tickers
#   truth_ns                 the tickers' summed GIL waiting by their clocks
#   sorter_blame_ns sorter_verdict sorter_wait_ns sorter_event_ns
#   top_pid top_blame_ns     the task with the most blame
#   victims ticker_verdicts  tickers with verdict victim; every ticker's verdict
#   ticker_lock_wait_ns ticker_event_ns ticker_blame_ns
#   ratio ratio_ok           sorter's blame / truth, and whether within tol%
#   sorter_blame_pct(_ok)    sorter's blame as % of truth, and whether under 5%
#   ticker_event_pct(_ok)    the tickers' event waiting as % of truth, >= 80%
#   cons_seen cons_bad       totals and lock records checked, and those off
#   scope_locks scope_tgid_ok scope_wait_ns scope_blame_ns scope_unattributed_ns
#                            locks of class scope; one names the process
#   spinners spin_ratios spin_ok   gil.py --spin: for each spinner, the other's
#                            blame / its time off the CPU (two spinners), and
#                            whether each is within tol%
#   scope_wait_pct           the scope's locks' waiting as % of truth
function kv(   i, p) {
	delete f
	for (i = 2; i <= NF; i++) {
		p = index($i, "=")
		if (p) f[substr($i, 1, p - 1)] = substr($i, p + 1)
	}
}
function pct(a, b) { return b > 0 ? 100 * a / b : 0 }
FNR == 1 { file++ }
file == 1 && $1 == "gil" {
	kind = $2
	$0 = substr($0, 5)
	kv()
	if (kind == "sorter") { sorter = f["tid"]; tgid = f["tgid"]; sorts = f["sorts"]; sort_med = f["sort_ns_median"] }
	if (kind == "ticker") { ticker[f["tid"]] = 1; nt++; tw[f["tid"]] = f["wait_ns"] }
	if (kind == "run") { truth = f["wait_ns"]; duration = f["duration_ns"] }
	if (kind == "calib") overshoot = f["overshoot_ns"]
	if (kind == "main") mainpid = f["tid"]
	if (kind == "spinner") { spin[++nspin] = f["tid"]; spin_off[nspin] = f["off_ns"] }
	next
}
file == 2 && ($1 == "totals" || $1 == "lock") {
	kv()
	cons_seen++
	if (f["blame_ns"] + f["pending_ns"] + f["unattributed_ns"] != f["wait_ns"] + 0) cons_bad++
	if ($1 == "totals") { tot_wait = f["wait_ns"]; tot_unattr = f["unattributed_ns"] }
	if ($1 == "lock" && f["class"] == "scope") {
		scope_locks++
		if (f["tgid"] == tgid) scope_tgid_ok = 1
		scope_wait += f["wait_ns"]; scope_blame += f["blame_ns"]; scope_unattr += f["unattributed_ns"]
		scope_pending += f["pending_ns"]
	}
	next
}
file == 2 && $1 == "task" {
	kv()
	pid = f["pid"]
	if (f["blame_ns"] + 0 > top_blame || top_pid == "") { top_blame = f["blame_ns"] + 0; top_pid = pid }
	if (pid == sorter) { s_blame = f["blame_ns"]; s_verdict = f["verdict"]; s_wait = f["wait_ns"] }
	if (pid == mainpid) m_wait = f["wait_ns"]
	task_blame[pid] = f["blame_ns"]
	if (pid in ticker) {
		verdict[pid] = f["verdict"]
		if (f["verdict"] == "victim") victims++
		t_wait += f["wait_ns"]; t_blame += f["blame_ns"]
	}
	next
}
# Event waits from their own records: a task record exists only for a task
# that waited on or held a lock, and a ticker may never meet the GIL's inner
# mutex in a whole run (its condvar waits are all it does).
file == 2 && $1 == "evwait" {
	kv()
	pid = f["pid"]
	if (pid == sorter) s_event = f["wait_ns"]
	if (pid == mainpid) m_event = f["wait_ns"]
	if (pid in ticker) t_event += f["wait_ns"]
}
END {
	for (p in ticker) {
		v = (p in verdict) ? verdict[p] : "absent"
		tv = tv (tv == "" ? "" : ",") p ":" v
	}
	ratio = truth > 0 ? s_blame / truth : 0
	printf "sorter=%d\ntgid=%d\nmainpid=%d\ntickers=%d\n", sorter, tgid, mainpid, nt
	printf "sorts=%d\nsort_ns_median=%.0f\novershoot_ns=%.0f\nduration_ns=%.0f\n", sorts, sort_med, overshoot, duration
	printf "truth_ns=%.0f\n", truth
	printf "sorter_blame_ns=%.0f\nsorter_verdict=%s\nsorter_wait_ns=%.0f\nsorter_event_ns=%.0f\n",
		s_blame, s_verdict == "" ? "absent" : s_verdict, s_wait, s_event
	printf "main_wait_ns=%.0f\nmain_event_ns=%.0f\n", m_wait, m_event
	printf "top_pid=%d\ntop_blame_ns=%.0f\n", top_pid, top_blame
	printf "victims=%d\nticker_verdicts=%s\n", victims, tv == "" ? "none" : tv
	printf "ticker_lock_wait_ns=%.0f\nticker_event_ns=%.0f\nticker_blame_ns=%.0f\n", t_wait, t_event, t_blame
	printf "ratio=%.3f\nratio_ok=%d\n", ratio, (truth > 0 && ratio >= 1 - tol / 100 && ratio <= 1 + tol / 100)
	printf "sorter_blame_pct=%.1f\nsorter_blame_pct_ok=%d\n", pct(s_blame, truth), (truth > 0 && pct(s_blame, truth) < 5)
	printf "ticker_event_pct=%.1f\nticker_event_pct_ok=%d\n", pct(t_event, truth), (truth > 0 && pct(t_event, truth) >= 80)
	printf "ticker_lock_wait_pct=%.1f\n", pct(t_wait, truth)
	printf "total_wait_ns=%.0f\ntotal_unattributed_ns=%.0f\n", tot_wait, tot_unattr
	printf "cons_seen=%d\ncons_bad=%d\n", cons_seen, cons_bad
	# Two spinners: each one's time off the CPU is the other's blame.
	spin_ok = nspin == 2
	for (i = 1; i <= nspin && nspin == 2; i++) {
		r = spin_off[i] > 0 ? task_blame[spin[3 - i]] / spin_off[i] : 0
		sr = sr (sr == "" ? "" : ",") sprintf("%.3f", r)
		if (r < 1 - tol / 100 || r > 1 + tol / 100) spin_ok = 0
	}
	printf "spinners=%d\nspin_ratios=%s\nspin_ok=%d\n", nspin, sr == "" ? "none" : sr, spin_ok
	printf "scope_wait_pct=%.1f\n", pct(scope_wait, truth)
	printf "scope_locks=%d\nscope_tgid_ok=%d\nscope_wait_ns=%.0f\nscope_blame_ns=%.0f\nscope_pending_ns=%.0f\nscope_unattributed_ns=%.0f\n",
		scope_locks, scope_tgid_ok, scope_wait, scope_blame, scope_pending, scope_unattr
}
