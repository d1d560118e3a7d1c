# SPDX-License-Identifier: GPL-2.0
# awk [-v slowapp=NAME] [-v nboot=N -v blen=L -v qbar=Q] -f pg-check.awk \
#     SAMPLES LEDGER STATS SCOPES
# The sampler's pg_blocking_pids() (tools/real/pg-guest.sh: "self|PID" and
# "lbs|SEQ|EPOCH|PID|APPLICATION|{BLOCKERS}|WAIT_EVENT_TYPE|WAIT_EVENT|STATE"
# lines) held against lockblame's ledger dump (include/lockblame/ledger_list.h),
# its stats and scopes files: prints the figures pg-guest.sh checks, as shell
# assignments (words quoted). The backends are the client backends of
# application pgbench and, with slowapp, of that one (the slow clients),
# seen in 3 samples or more.
# Numbers are doubles: exact for ns sums below 2^53 (104 days).
#
# The sampler's two counts, per backend B, over the samples:
#   named   how often pg_blocking_pids() of a backend waiting on a heavyweight
#           lock names B and B holds what it waits for: pg_blocking_pids()
#           names the waiters ahead in the lock's queue too, which hold
#           nothing, and named leaves them out (queued() below); the
#           ledger's blame_ns is the same thing, by time
#   root    how often B is where pg_blocking_pids() leads, followed through
#           blockers that wait on a heavyweight lock themselves to ones that
#           do not (1/k each of k such): the ledger's root_blame_ns
# Each is also kept weighted (1/k for each of a waiter's k blockers).
#
# Figures (shell assignments):
#   samples rows period_ms sampler backends slow    the sample, its backends
#   lock_rows lwlock_rows named_total noblocker_rows mix named_outside
#   named_queued       the blockers left out of named as waiters ahead
#   locks hw_* lw_* other_wait_ns total_*          the ledger's locks: the
#                      scope locks named Lock, LWLock: count, wait_ns, blame_ns
#   ledger_top ledger_root_top   backends by blame_ns, by root_blame_ns
#                      (pid:blame:root_blame:wait:verdict, the first 8)
#   sampler_top sampler_wtop sampler_root    by times named, weighted, root
#   For D (direct: blame_ns against named) and R (root: root_blame_ns
#   against root): D_top3 D_top5 D_first D_top3_in5 D_first_in3 D_ok D_rho
#   (the ledger's top 3 among the sampler's top 5, and the sampler's first
#   among the ledger's top 3; Spearman's rank correlation); against the
#   sampler's spread (boot() below), D_top3_q D_first_q D_q_ok: how often,
#   at least, each of the ledger's top 3 is in the sampler's top 3 over its
#   resamples, how often one of them is its first, and both at qbar or more.
#   slow_* (with slowapp): the slow backends' share of blame, root blame,
#   named, root; how many of the ledger's and the sampler's top N (N their
#   number) by root they are; their verdicts; slow_sampler_root_top_q, how
#   often the least of them is in the sampler's top N at the root over its
#   resamples, slow_ledger_root_top_q the same of the ledger's top N by
#   root_blame_ns; the spread of the sampler's shares (slow_wnamed_sd,
#   slow_sroot_sd) and the ledger's shares' difference from them over it
#   (slow_blame_z, slow_root_z)
#   waiters waiters_victim waiter_verdicts verdicts  backends seen waiting on
#                      a Lock (without slowapp: all; with it: the others)
#   ratio_n ratio_zmax ratio_worst ratio_bad   each backend's blame_ns over
#                      its wait_ns against the sampler's weighted times named
#                      over its samples waiting on a Lock with a blocker
#                      named (a row without is one whose wait ended before
#                      pg_blocking_pids() asked): z, the difference
#                      of their logarithms over the sampler's own (Poisson)
#                      spread, sqrt(1/named + 1/waiting), for the backends
#                      with 5 or more of each; ratio_bad those past zbar
#   verdict_n verdict_clear verdict_bad slow_clear slow_clear_causes  each
#                      backend's verdict against the ones the sampler allows:
#                      its root counts over its waiting samples, at vk of
#                      their spread (Poisson's or, if larger, the resampled
#                      one) either way, give a range of ratios,
#                      and every verdict whose range (cause: 2 or more,
#                      victim: 1/2 or less, shared: between) meets it is
#                      allowed; clear: one only; slow_clear: the slow ones
#                      the sampler finds clear causes, and of those causes
#   cons_seen cons_bad      totals and lock records checked, and those off
#   drops dropped data_complete lost evicted
function kv(   i, p) {
	delete f
	for (i = 2; i <= NF; i++) {
		p = index($i, "=")
		if (p) f[substr($i, 1, p - 1)] = substr($i, p + 1)
	}
}
# order(val, keys): the backends in keys[1..n] by val[] descending, then pid.
function order(val, keys,   n, p, i, j, t) {
	n = 0
	for (p in backend) keys[++n] = p
	for (i = 2; i <= n; i++) {
		t = keys[i]
		for (j = i - 1; j >= 1 && (val[keys[j]] + 0 < val[t] + 0 ||
			(val[keys[j]] + 0 == val[t] + 0 && keys[j] + 0 > t + 0)); j--)
			keys[j + 1] = keys[j]
		keys[j + 1] = t
	}
	return n
}
# ranks(val, rk): rk[pid] the average rank of val[pid] (1 the largest).
function ranks(val, rk,   keys, n, i, j, k) {
	n = order(val, keys)
	for (i = 1; i <= n; i = j) {
		for (j = i + 1; j <= n && val[keys[j]] + 0 == val[keys[i]] + 0; j++)
			;
		for (k = i; k < j; k++) rk[keys[k]] = (i + j - 1) / 2
	}
	return n
}
# spearman(a, b): Pearson's correlation of the ranks.
function spearman(a, b,   ra, rb, n, p, ma, mb, sab, saa, sbb) {
	n = ranks(a, ra)
	ranks(b, rb)
	if (n < 3) return 0
	for (p in backend) { ma += ra[p]; mb += rb[p] }
	ma /= n; mb /= n
	for (p in backend) {
		sab += (ra[p] - ma) * (rb[p] - mb)
		saa += (ra[p] - ma) ^ 2; sbb += (rb[p] - mb) ^ 2
	}
	return (saa > 0 && sbb > 0) ? sab / sqrt(saa * sbb) : 0
}
# compare(P, led, smp): the ledger's top 3 by led[] among the sampler's top 5
# by smp[] (and those tied with its fifth), and the sampler's first (each of
# those tied first) among the ledger's top 3; printed with prefix P.
function compare(P, led, smp, qtop, qfirst,   lt, st, nb, i, n5, top5, s5, l3, in5, nf, sf, in3, fin5, j, qmin, qf) {
	nb = order(led, lt)
	order(smp, st)
	for (i = 1; i <= nb && smp[st[i]] + 0 > 0; i++)
		if (i <= 5 || smp[st[i]] + 0 == smp[st[5]] + 0) {
			top5[st[i]] = 1
			s5 = s5 (s5 == "" ? "" : ",") st[i] ":" sprintf("%.1f", smp[st[i]])
		}
	qmin = 1
	for (i = 1; i <= 3 && i <= nb; i++) {
		l3 = l3 (l3 == "" ? "" : ",") lt[i] ":" sprintf("%.0f", led[lt[i]])
		if (lt[i] in top5) in5++
		if (qtop[lt[i]] < qmin) qmin = qtop[lt[i]]
		if (qfirst[lt[i]] > qf) qf = qfirst[lt[i]]
	}
	for (i = 1; i <= nb && smp[st[i]] + 0 > 0 && smp[st[i]] + 0 == smp[st[1]] + 0; i++) {
		sf = sf (sf == "" ? "" : ",") st[i] ":" sprintf("%.1f", smp[st[i]])
		nf++
		for (j = 1; j <= 3 && j <= nb; j++) if (lt[j] == st[i]) in3++
		for (j = 1; j <= 5 && j <= nb; j++) if (lt[j] == st[i]) fin5++
	}
	for (j = 6; j <= nb && led[lt[j]] + 0 == led[lt[5]] + 0; j++) if (lt[j] == st[1]) fin5++
	printf "%s_top3='%s'\n%s_top5='%s'\n%s_first='%s'\n", P, l3 == "" ? "none" : l3,
		P, s5 == "" ? "none" : s5, P, sf == "" ? "none" : sf
	printf "%s_top3_in5=%d\n%s_first_in3=%d\n%s_nfirst=%d\n", P, in5, P, in3, P, nf
	printf "%s_ok=%d\n%s_rho=%.2f\n", P, (nb >= 3 && in5 == 3 && nf >= 1 && in3 == nf), P, spearman(led, smp)
	# The looser pair: the ledger's first among the sampler's top 5, and
	# the sampler's first (one of those tied) among the ledger's top 5.
	printf "%s_top1_in5=%d\n%s_first_in5=%d\n", P, (nb >= 1 && (lt[1] in top5)), P, (fin5 > 0)
	printf "%s_loose_ok=%d\n", P, (nb >= 5 && (lt[1] in top5) && fin5 > 0)
	# Against the sampler's spread: the least often in its top 3 of the
	# ledger's top 3, and the most often first of them, over the resamples.
	printf "%s_top3_q=%.3f\n%s_first_q=%.3f\n", P, qmin, P, qf
	printf "%s_q_ok=%d\n", P, (nb >= 3 && qmin >= qbar && qf >= qbar)
}
# list(keys, n, a, b, c, d, m): the first m of keys, as key:a:b:c:d.
function list(keys, n, a, b, c, d, m,   i, s) {
	for (i = 1; i <= n && i <= m; i++)
		s = s (s == "" ? "" : ",") keys[i] ":" sprintf("%.0f", a[keys[i]]) ":" \
			sprintf("%.0f", b[keys[i]]) ":" sprintf("%.0f", c[keys[i]]) ":" \
			(keys[i] in d ? d[keys[i]] : "absent")
	return s == "" ? "none" : s
}
# counts(keys, n, a, m): the first m of keys, as key:a.
function counts(keys, n, a, m,   i, s) {
	for (i = 1; i <= n && i <= m; i++)
		s = s (s == "" ? "" : ",") keys[i] ":" sprintf("%.1f", a[keys[i]])
	return s == "" ? "none" : s
}
# queued(w, b): whether blocker b of waiter w is a waiter ahead of w in its
# lock's queue rather than a holder: b waits for the same kind of lock
# (wait_event), and every blocker of b's blocks w too (the holders, and
# those ahead of b). b with no blockers (its wait just ended) holds.
function queued(w, b,   m, cc, q) {
	if (!(b in blk) || blk[b] == "" || wev[b] != wev[w])
		return 0
	m = split(blk[b], cc, ",")
	for (q = 1; q <= m; q++)
		if (!index("," blk[w] ",", "," cc[q] ","))
			return 0
	return 1
}
# sample_end(): the sample just read (blk: waiter -> blockers): the named
# counts, of the blockers that hold (queued()), and the roots.
function sample_end(   w, r, nr, sp, x, j, kk, bb, nh, hb) {
	for (w in blk) {
		kk = blk[w] == "" ? 0 : split(blk[w], bb, ",")
		nh = 0
		for (j = 1; j <= kk; j++) {
			if (queued(w, bb[j])) named_queued++
			else hb[++nh] = bb[j]
		}
		for (j = 1; j <= nh; j++) {
			named[hb[j]]++; wnamed[hb[j]] += 1 / nh; named_total++
			sn[samples, hb[j]]++; swn[samples, hb[j]] += 1 / nh
		}
	}
	for (w in blk) {
		delete rset
		delete seenr
		nr = 0
		sp = 0
		stack[++sp] = w
		seenr[w] = 1
		while (sp > 0) {
			x = stack[sp--]
			kk = split(blk[x], bb, ",")
			for (j = 1; j <= kk; j++) {
				if (bb[j] in seenr) continue
				seenr[bb[j]] = 1
				if ((bb[j] in blk) && blk[bb[j]] != "") stack[++sp] = bb[j]
				else { rset[bb[j]] = 1; nr++ }
			}
		}
		for (r in rset) { rootw[r] += 1 / nr; srt[samples, r] += 1 / nr; rootn++ }
	}
	delete blk
	delete wev
}
# share(val, set): the part of val[] over the backends that falls to set[].
function share(val, set,   p, a, b) {
	for (p in backend) { a += val[p]; if (p in set) b += val[p] }
	return a > 0 ? b / a : 0
}
# topn_in(val, set, n): how many of the top n backends by val[] are in set[].
function topn_in(val, set, n,   keys, nb, i, c) {
	nb = order(val, keys)
	for (i = 1; i <= n && i <= nb; i++) if (keys[i] in set) c++
	return c + 0
}
# topn_q(val, q, n): the least q[] of the top n backends by val[].
function topn_q(val, q, n,   keys, nb, i, m) {
	nb = order(val, keys)
	m = 1
	for (i = 1; i <= n && i <= nb; i++) if (q[keys[i]] < m) m = q[keys[i]]
	return m
}
# ratios(): each backend's blame over wait, the ledger's against the
# sampler's (see ratio_* above).
function ratios(   p, a, b, z, n, zmax, worst, bad, az) {
	for (p in backend) {
		a = wnamed[p]; b = lasked[p]
		if (a < 5 || b < 5 || tblame[p] + 0 <= 0 || twait[p] + 0 <= 0)
			continue
		n++
		z = (log(tblame[p] / twait[p]) - log(a / b)) / sqrt(1 / a + 1 / b)
		az = z < 0 ? -z : z
		if (az > zmax) { zmax = az; worst = p ":" sprintf("%.2f", z) }
		if (az > zbar) bad = bad (bad == "" ? "" : ",") p ":" sprintf("%.2f", z)
	}
	printf "ratio_n=%d\nratio_zmax=%.2f\nratio_worst='%s'\nratio_bad='%s'\n", n, zmax,
		worst == "" ? "none" : worst, bad == "" ? "none" : bad
}
# verdicts_allowed(): each backend's verdict against those the sampler's
# root counts allow (see verdict_* above). Half a count is added to each
# count, so that a backend never at the root has a finite range. The
# spread is Poisson's or the resampled one (boot()), whichever is larger:
# a wait is seen in several samples running, so the counts are not
# independent, and the resampled spread was 1.95 times Poisson's at the
# median over 640 backends (tools/real/pg.md).
function verdicts_allowed(   p, a, b, s, lo, hi, al, v, n, clear, bad, sc, scc, l2) {
	l2 = log(2)
	for (p in backend) {
		if (!(lwait[p] > 0) && !(rootw[p] > 0))
			continue
		n++
		a = rootw[p] + 0.5; b = lwait[p] + 0.5
		s = sqrt(1 / a + 1 / b)
		if (vboot_sd[p] > s)
			s = vboot_sd[p]
		lo = log(a / b) - vk * s; hi = log(a / b) + vk * s
		delete al
		if (hi >= l2) al["cause"] = 1
		if (lo <= -l2) al["victim"] = 1
		if (lo < l2 && hi > -l2) al["shared"] = 1
		v = (p in tverdict) ? tverdict[p] : "absent"
		if (length(al) == 1) clear++
		if (!(v in al))
			bad = bad (bad == "" ? "" : ",") p ":" v ":" sprintf("%.1f/%d", rootw[p], lwait[p])
		if ((p in slow) && length(al) == 1 && ("cause" in al)) {
			sc++
			if (v == "cause") scc++
		}
	}
	printf "verdict_n=%d\nverdict_clear=%d\nverdict_bad='%s'\nslow_clear=%d\nslow_clear_causes=%d\n",
		n, clear, bad == "" ? "none" : bad, sc, scc
}
# boot(): the sampler's own spread, from its samples resampled (nboot times,
# in runs of blen consecutive samples, so that a wait seen in neighbouring
# samples stays one), with srand(1) so that a run's figures repeat. Per
# backend, how often it is in the top 3 and first by times named (Dq_*) and
# at the root (Rq_*), and for slowapp how often each slow backend is in the
# top N at the root (N the slow ones' number), and the spread (sd) of the
# slow backends' shares of the weighted times named and of the root counts;
# per backend, the spread of the logarithm of its root counts over its
# samples waiting (vboot_sd, for verdicts_allowed()).
function boot(   L, nblk, r, b, s0, j, np, pick, p, bn, bw, br, bl, k, w1, w2, r1, r2) {
	srand(1)
	L = blen < samples ? blen : samples
	nblk = int((samples + L - 1) / L)
	for (r = 1; r <= nboot; r++) {
		np = 0
		for (b = 1; b <= nblk; b++) {
			s0 = 1 + int(rand() * (samples - L + 1))
			for (j = 0; j < L && np < samples; j++) pick[++np] = s0 + j
		}
		delete bn; delete bw; delete br; delete bl
		for (p in backend) { bn[p] = 0; bw[p] = 0; br[p] = 0; bl[p] = 0 }
		for (j = 1; j <= np; j++)
			for (p in backend) {
				if ((pick[j], p) in sn) { bn[p] += sn[pick[j], p]; bw[p] += swn[pick[j], p] }
				if ((pick[j], p) in srt) br[p] += srt[pick[j], p]
				if ((pick[j], p) in slw) bl[p] += slw[pick[j], p]
			}
		for (p in backend) {
			k = log((br[p] + 0.5) / (bl[p] + 0.5))
			vq1[p] += k; vq2[p] += k * k
		}
		boot_ranks(bn, Dq_top3, Dq_first, 3)
		boot_ranks(br, Rq_top3, Rq_first, 3)
		if (!nslow) continue
		boot_ranks(br, Sq_top, Sq_unused, nslow)
		k = share(bw, slow); w1 += k; w2 += k * k
		k = share(br, slow); r1 += k; r2 += k * k
	}
	for (p in backend) {
		vboot_sd[p] = boot_sd(vq1[p], vq2[p])
		Dq_top3[p] /= nboot; Dq_first[p] /= nboot
		Rq_top3[p] /= nboot; Rq_first[p] /= nboot; Sq_top[p] /= nboot
	}
	slow_wnamed_sd = boot_sd(w1, w2); slow_sroot_sd = boot_sd(r1, r2)
}
# boot_sd(s1, s2): the spread of nboot values from their sum and sum of squares.
function boot_sd(s1, s2,   v) {
	v = (s2 - s1 * s1 / nboot) / (nboot - 1)
	return v > 0 ? sqrt(v) : 0
}
# boot_ranks(val, top, first, n): counts the backends in the top n by val[]
# (those tied with the n-th too) into top[], and those first into first[].
function boot_ranks(val, top, first, n,   keys, nb, i) {
	nb = order(val, keys)
	for (i = 1; i <= nb && val[keys[i]] > 0; i++) {
		if (i <= n || val[keys[i]] == val[keys[n]]) top[keys[i]]++
		if (val[keys[i]] == val[keys[1]]) first[keys[i]]++
	}
}
BEGIN {
	if (zbar == "") zbar = 5
	if (vk == "") vk = 4
	if (nboot == "") nboot = 1000
	if (blen == "") blen = 4
	if (qbar == "") qbar = 0.02
	split("", backend); split("", named); split("", wnamed); split("", rootw)
	split("", tblame); split("", troot); split("", twait); split("", tverdict)
	split("", tcomm); split("", lwait); split("", evn); split("", outside)
	split("", tot); split("", slow); split("", blk)
}
FNR == 1 { file++ }
file == 1 {
	n = split($0, c, "|")
	if (c[1] == "self") { sampler = c[2]; next }
	if (c[1] != "lbs" || n < 9) next
	if (c[5] != "pgbench" && (slowapp == "" || c[5] != slowapp)) next
	if (c[2] != cur) { sample_end(); cur = c[2]; samples++ }
	pid = c[4]
	# A backend of pgbench's clients lives the whole run: one seen in
	# fewer than 3 samples is pgbench's own first connection, before
	# the clients'.
	if (++insamples[pid] == 3) {
		backend[pid] = 1
		if (slowapp != "" && c[5] == slowapp) slow[pid] = 1
	}
	rows++
	if (tmin == "" || c[3] < tmin) tmin = c[3]
	if (tmax == "" || c[3] > tmax) tmax = c[3]
	ev = c[7] ":" c[8]
	if (c[7] == "-") ev = c[9]
	gsub(/ /, "_", ev)
	evn[ev]++
	if (c[7] == "Lock") {
		lock_rows++
		lwait[pid]++
		slw[samples, pid]++
		b = c[6]
		gsub(/[{}]/, "", b)
		blk[pid] = b
		k = b == "" ? 0 : split(b, bl, ",")
		wev[pid] = c[8]
		if (!k) noblocker++
		else lasked[pid]++
	}
	if (c[7] == "LWLock") lwlock_rows++
	next
}
file == 2 && FNR == 1 { sample_end() }
file == 2 && ($1 == "totals" || $1 == "lock") {
	kv()
	cons_seen++
	if (f["blame_ns"] + f["pending_ns"] + f["unattributed_ns"] != f["wait_ns"] + 0) cons_bad++
	if ($1 == "totals") {
		for (k in f) tot[k] = f[k]
		next
	}
	locks++
	# A scope's lock is named "NAME (scope)", the space escaped.
	sub(/\\x20\(scope\)$/, "", f["name"])
	if (f["class"] == "scope" && f["name"] == "Lock") {
		hw_locks++; hw_wait += f["wait_ns"]; hw_blame += f["blame_ns"]
	} else if (f["class"] == "scope" && f["name"] == "LWLock") {
		lw_locks++; lw_wait += f["wait_ns"]; lw_blame += f["blame_ns"]
	} else {
		other_wait += f["wait_ns"]
	}
	next
}
file == 2 && $1 == "task" {
	kv()
	tblame[f["pid"]] = f["blame_ns"]; troot[f["pid"]] = f["root_blame_ns"]
	twait[f["pid"]] = f["wait_ns"]; tverdict[f["pid"]] = f["verdict"]
	tcomm[f["pid"]] = f["comm"]
	next
}
file == 3 && /^events: / {
	s = $0
	sub(/.*dropped /, "", s)
	ring_dropped = s + 0
	next
}
file == 3 && /^data: / { if ($0 ~ /^data: complete/) data_complete = 1; next }
file == 3 && $1 == "exact" { exact = $2; next }
file == 3 && $1 == "kretprobe_missed" { kret_missed = $2; next }
file == 3 && $1 == "admitted_waits" { for (i = 2; i < NF; i++) if ($i == "evicted") filter_evicted = $(i + 1); next }
file == 3 && $1 == "stream" { for (i = 2; i < NF; i++) if ($i == "dropped") stream_dropped = $(i + 1); next }
file == 4 && $1 == "#" && $2 == "span_untracked" { span_untracked = $3 }
END {
	if (file < 2) sample_end()
	nb = order(tblame, lt)
	order(troot, lr)
	order(named, st)
	order(wnamed, sw)
	order(rootw, sr)
	for (p in backend) {
		v = (p in tverdict) ? tverdict[p] : "absent"
		vc[v]++
		if (p in slow) {
			nslow++
			slv = slv (slv == "" ? "" : ",") p ":" v
			if (v == "cause") slow_causes++
		} else if (lwait[p] > 0) {
			waiters++
			if (v == "victim") waiters_victim++
			wv = wv (wv == "" ? "" : ",") p ":" v
		}
	}
	for (v in vc) vs = vs (vs == "" ? "" : ",") v ":" vc[v]
	for (e in evn) mixs = mixs (mixs == "" ? "" : ",") e "=" evn[e]
	for (p in named) if (!(p in backend)) outside[p] = named[p]
	for (p in outside) outs = outs (outs == "" ? "" : ",") p ":" outside[p] ":" (p in tcomm ? tcomm[p] : "-")
	dsum = ring_dropped + tot["dropped_waiters"] + tot["dropped_pairs"] + tot["dropped_holders"] + \
		tot["dropped_chains"] + tot["dropped_signals"] + tot["event_dropped"] + kret_missed + \
		tot["dropped_stacks"] + stream_dropped
	esum = tot["evicted_locks"] + tot["evicted_tasks"] + tot["refused_tasks"] + tot["evicted_sleepers"] + \
		tot["scope_evicted"] + tot["scope_words_evicted"] + tot["unmatched"] + tot["invalid"] + \
		filter_evicted + span_untracked
	printf "samples=%d\nrows=%d\nperiod_ms=%d\nsampler=%d\nbackends=%d\nslow=%d\n", samples, rows,
		(samples > 1 ? 1000 * (tmax - tmin) / (samples - 1) : 0), sampler, nb, nslow
	printf "lock_rows=%d\nlwlock_rows=%d\nnamed_total=%d\nnoblocker_rows=%d\nmix='%s'\n", lock_rows, lwlock_rows,
		named_total, noblocker, mixs
	printf "named_queued=%d\n", named_queued
	printf "named_outside='%s'\n", outs == "" ? "none" : outs
	printf "locks=%d\nhw_locks=%d\nhw_wait_ns=%.0f\nhw_blame_ns=%.0f\n", locks, hw_locks, hw_wait, hw_blame
	printf "lw_locks=%d\nlw_wait_ns=%.0f\nlw_blame_ns=%.0f\nother_wait_ns=%.0f\n", lw_locks, lw_wait, lw_blame, other_wait
	printf "total_wait_ns=%.0f\ntotal_blame_ns=%.0f\ntotal_pending_ns=%.0f\ntotal_unattributed_ns=%.0f\n",
		tot["wait_ns"], tot["blame_ns"], tot["pending_ns"], tot["unattributed_ns"]
	printf "ledger_top='%s'\n", list(lt, nb, tblame, troot, twait, tverdict, 8)
	printf "ledger_root_top='%s'\n", list(lr, nb, troot, tblame, twait, tverdict, 8)
	printf "sampler_top='%s'\n", counts(st, nb, named, 8)
	printf "sampler_wtop='%s'\n", counts(sw, nb, wnamed, 8)
	printf "sampler_root='%s'\n", counts(sr, nb, rootw, 8)
	boot()
	compare("D", tblame, named, Dq_top3, Dq_first)
	compare("R", troot, rootw, Rq_top3, Rq_first)
	if (nslow) {
		printf "slow_blame_share=%.2f\nslow_root_share=%.2f\n", share(tblame, slow), share(troot, slow)
		printf "slow_named_share=%.2f\nslow_wnamed_share=%.2f\nslow_sroot_share=%.2f\n", share(named, slow), share(wnamed, slow), share(rootw, slow)
		printf "slow_in_ledger_root_top=%d\nslow_in_ledger_top=%d\n", topn_in(troot, slow, nslow), topn_in(tblame, slow, nslow)
		printf "slow_in_sampler_root_top=%d\nslow_in_sampler_top=%d\n", topn_in(rootw, slow, nslow), topn_in(named, slow, nslow)
		printf "slow_causes=%d\nslow_verdicts='%s'\n", slow_causes, slv
		qmin = 1
		for (p in slow) if (Sq_top[p] < qmin) qmin = Sq_top[p]
		printf "slow_sampler_root_top_q=%.3f\n", qmin
		printf "slow_ledger_root_top_q=%.3f\n", topn_q(troot, Sq_top, nslow)
		printf "slow_wnamed_sd=%.4f\nslow_sroot_sd=%.4f\n", slow_wnamed_sd, slow_sroot_sd
		printf "slow_blame_z=%.2f\nslow_root_z=%.2f\n",
			(share(tblame, slow) - share(wnamed, slow)) / (slow_wnamed_sd > 0 ? slow_wnamed_sd : 1e-9),
			(share(troot, slow) - share(rootw, slow)) / (slow_sroot_sd > 0 ? slow_sroot_sd : 1e-9)
	}
	printf "waiters=%d\nwaiters_victim=%d\nwaiter_verdicts='%s'\nverdicts='%s'\n", waiters, waiters_victim,
		wv == "" ? "none" : wv, vs == "" ? "none" : vs
	ratios()
	verdicts_allowed()
	# Every task's blame outside the backends (the sampler's own, the server's).
	for (p in tblame)
		if (!(p in backend) && tblame[p] + 0 > 0)
			ob = ob (ob == "" ? "" : ",") p ":" tcomm[p] ":" tblame[p] ":" twait[p]
	printf "others_blame='%s'\n", ob == "" ? "none" : ob
	printf "cons_seen=%d\ncons_bad=%d\n", cons_seen, cons_bad
	printf "drops='ring=%d dropped_waiters=%d dropped_pairs=%d dropped_holders=%d dropped_chains=%d dropped_signals=%d dropped_stacks=%d event_dropped=%d kretprobe_missed=%d stream_dropped=%d exact=%s'\n",
		ring_dropped, tot["dropped_waiters"], tot["dropped_pairs"], tot["dropped_holders"], tot["dropped_chains"],
		tot["dropped_signals"], tot["dropped_stacks"], tot["event_dropped"], kret_missed, stream_dropped, exact
	printf "dropped=%.0f\ndata_complete=%d\n", dsum, data_complete
	printf "lost='evicted_locks=%d evicted_tasks=%d refused_tasks=%d evicted_sleepers=%d scope_evicted=%d scope_words_evicted=%d unmatched=%d invalid=%d late=%d filter_evicted=%d span_untracked=%d'\n",
		tot["evicted_locks"], tot["evicted_tasks"], tot["refused_tasks"], tot["evicted_sleepers"], tot["scope_evicted"],
		tot["scope_words_evicted"], tot["unmatched"], tot["invalid"], tot["late"], filter_evicted, span_untracked
	printf "evicted=%.0f\n", esum
}
