# SPDX-License-Identifier: GPL-2.0
# realtools-report.awk: the guest's LBRT- lines (tools/bench/realtools-guest.sh)
# made into the real-tools bench's tables and targets.
#
# Ratio of a configuration on a workload, per round: its time for the
# workload's fixed work over "none"'s time in the same round (the rounds
# interleave the configurations, so a round's pair saw the same host load).
# Each cell is the median of those ratios over the rounds and their range.

function kv(line, key,    m) {
	if (match(line, " " key "=[^ ]*")) {
		m = substr(line, RSTART + length(key) + 2, RLENGTH - length(key) - 2)
		gsub(/"/, "", m)
		return m
	}
	return ""
}
# median of the n values in a[1..n] (sorted in place)
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	if (n == 0)
		return "nan"
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# collect(c, w, what): fill v[1..] with the per-round values of what for
# configuration c on workload w; returns how many. what: ratio, added
# (ns/op over none's), hits, events (per op), nsop.
function collect(c, w, what,    r, n) {
	delete v
	n = 0
	for (r = 1; r <= rounds; r++) {
		if (!((c, w, r) in secs) || !(("none", w, r) in secs))
			continue
		if (what == "ratio")
			v[++n] = secs[c, w, r] / secs["none", w, r]
		else if (what == "added")
			v[++n] = nsop[c, w, r] - nsop["none", w, r]
		else if (what == "hits")
			v[++n] = hits[c, w, r] / ops[w]
		else if (what == "events")
			v[++n] = events[c, w, r] / ops[w]
		else
			v[++n] = nsop[c, w, r]
	}
	return n
}
function vmin(n,    i, m) { m = v[1]; for (i = 2; i <= n; i++) if (v[i] < m) m = v[i]; return m }
function vmax(n,    i, m) { m = v[1]; for (i = 2; i <= n; i++) if (v[i] > m) m = v[i]; return m }
function vmean(n,    i, t) { for (i = 1; i <= n; i++) t += v[i]; return n ? t / n : 0 }
function vsd(n,    i, m, t) {
	if (n < 2)
		return 0
	m = vmean(n)
	for (i = 1; i <= n; i++) t += (v[i] - m) * (v[i] - m)
	return sqrt(t / (n - 1))
}
# Why the floor is not resolved, and how many rounds would resolve it: the
# rounds for its mean to stand two standard errors above zero, (2 sd / mean)^2.
function rounds_needed(n, mean, sd, lo, hi,    need) {
	if (n < 2)
		return sprintf("%d round of the floor; at least 2 are needed", n)
	if (mean <= 0)
		return sprintf("the floor's added cost ranged %.1f to %.1f ns/op over %d rounds, its mean %.1f is not above zero: no number of rounds resolves it", lo, hi, n, mean)
	need = (2 * sd / mean) * (2 * sd / mean)
	need = need == int(need) ? need : int(need) + 1
	return sprintf("the floor's added cost ranged %.1f to %.1f ns/op over %d rounds (mean %.1f, sd %.1f): about %d rounds would resolve it (BENCH_ROUNDS)", lo, hi, n, mean, sd, need > n ? need : n + 1)
}
# cell(c, w): "median (min-max)" of the ratios, or why there is none.
function cell(c, w,    n) {
	if (c in unavail)
		return "unavailable"
	n = collect(c, w, "ratio")
	if (!n)
		return "-"
	return sprintf("%.3f (%.2f-%.2f)", median(v, n), vmin(n), vmax(n))
}
function ratio_median(c, w,    n) {
	n = collect(c, w, "ratio")
	return n ? median(v, n) : "nan"
}
function verdict(ok, by) {
	return ok ? "met" : "MISSED by " by
}

/^LBRT-INFO / { info = $0; rounds = kv($0, "rounds"); sub(/^LBRT-INFO /, "", info) }
/^LBRT-PROBE / { probes = probes " " kv($0, "kind") ":" kv($0, "sym"); nprobes++ }
/^LBRT-UNAVAIL / {
	c = kv($0, "config")
	unavail[c] = substr($0, index($0, "reason=") + 7)
}
/^LBRT-CAL / { ops[kv($0, "work")] = kv($0, "ops") }
/^LBRT-RUN / {
	c = kv($0, "config"); w = kv($0, "work"); r = kv($0, "round")
	# A workload that printed no time failed (its error is on the console):
	# counted and named, not taken for a time of 0.
	if (kv($0, "secs") == "") {
		if (!((c, w) in failed))
			failed_order[++nfailed] = c SUBSEP w
		failed[c, w]++
		next
	}
	secs[c, w, r] = kv($0, "secs")
	nsop[c, w, r] = kv($0, "ns_per_op")
	hits[c, w, r] = kv($0, "hits")
	events[c, w, r] = kv($0, "events")
	seen[c] = 1
}
/^LBRT-MEM / { mem = mem "  " substr($0, 10) "\n" }
# Who each tool names as the holder: the tool's lines verbatim, grouped by
# workload, tools in the order they came.
/^LBRT-ATTR / {
	w = kv($0, "work"); t = kv($0, "tool"); sub(/\|$/, "", t)
	if (!(w in attr_seen)) {
		attr_seen[w] = 1
		attr_works[++nattr] = w
	}
	if (!((w, t) in attr_tool)) {
		attr_tool[w, t] = 1
		attr_tools[w] = attr_tools[w] " " t
	}
	attr[w, t] = attr[w, t] "      " substr($0, index($0, "| ") + 2) "\n"
}
/^LBRT-NOTE (bpftrace attached|round [0-9]+ )/ { notes = notes "  " substr($0, 11) "\n" }

END {
	nw = split("mutex pshared pipe append mmap free pingpong", works, " ")
	nc = split("none floor lb lb-stacks lb-nostream bpftrace perf", configs, " ")
	# perf-bpf (perf lock contention -b) has a column only in runs that
	# tried it, so the reports of older runs stay as they were.
	if ("perf-bpf" in seen || "perf-bpf" in unavail)
		configs[++nc] = "perf-bpf"
	nl = split("lb lb-stacks lb-nostream", lbs, " ")
	print "realtools: " info
	print "lockblame planted " nprobes " probes (the floor plants the same):" probes
	for (c in unavail)
		print "UNAVAILABLE " c ": " unavail[c]
	for (i = 1; i <= nfailed; i++) {
		split(failed_order[i], fw, SUBSEP)
		printf "FAILED %s on %s: no time in %d of %d rounds (the guest's console has the workload's error); its cells are of the other rounds\n", fw[1], fw[2], failed[fw[1], fw[2]], rounds
	}
	print ""
	print "Time of each workload's fixed work over the time without a tracer, per round;"
	print "median over " rounds " rounds (min-max). 1.000 = no cost."
	printf "%-9s %12s", "workload", "none ns/op"
	for (i = 2; i <= nc; i++)
		printf "  %-19s", configs[i]
	printf "\n"
	for (j = 1; j <= nw; j++) {
		w = works[j]
		n = collect("none", w, "nsop")
		printf "%-9s %12.1f", w, n ? median(v, n) : 0
		for (i = 2; i <= nc; i++)
			printf "  %-19s", cell(configs[i], w)
		printf "\n"
	}
	print "(perf lock record runs on the kernel-lock workloads only: pipe, append, mmap.)"
	if (configs[nc] == "perf-bpf")
		print "(perf lock contention -b -a, with BPF skeletons, runs on the same three.)"

	print ""
	print "Target 1: added cost per ping-pong round trip <= 2.0x the floor's; per round trip"
	print "at most 6 probe hits and 3 events (issue 30). The floor's added cost must be"
	print "resolved: its range over the rounds must exclude zero."
	w = "pingpong"
	n = collect("floor", w, "added"); fadd = median(v, n); fmin = vmin(n); fmax = vmax(n)
	fn = n; fmean = vmean(n); fsd = vsd(n)
	n = collect("floor", w, "hits"); fhits = median(v, n)
	printf "  %-12s added %9.1f ns/op (%.1f to %.1f), %5.2f probe hits/op, %8.1f ns per hit\n",
		"floor", fadd, fmin, fmax, fhits, (fhits > 0 ? fadd / fhits : 0)
	for (k = 1; k <= nl; k++) {
		c = lbs[k]
		if (c in unavail || !(c in seen))
			continue
		n = collect(c, w, "added"); ladd = median(v, n)
		n = collect(c, w, "hits"); lhits = median(v, n)
		n = collect(c, w, "events"); lev = median(v, n)
		printf "  %-12s added %9.1f ns/op, %5.2f probe hits/op, %8.1f ns per hit, %5.2f events/op, %8.1f ns per event\n",
			c, ladd, lhits, (lhits > 0 ? ladd / lhits : 0), lev, (lev > 0 ? ladd / lev : 0)
		if (fn < 2 || fmin <= 0)
			printf "  %-12s lockblame/floor: undetermined: %s\n", c, rounds_needed(fn, fmean, fsd, fmin, fmax)
		else
			printf "  %-12s lockblame/floor per ping-pong op = %.2f (target <= 2.00): %s\n", c,
				ladd / fadd, verdict(ladd / fadd <= 2.0, sprintf("%.2fx", ladd / fadd - 2.0))
		printf "  %-12s probe hits per round trip %.2f (target <= 6): %s\n", c, lhits,
			verdict(lhits <= 6, sprintf("%.2f", lhits - 6))
		printf "  %-12s events per round trip %.2f (target <= 3): %s\n", c, lev,
			verdict(lev <= 3, sprintf("%.2f", lev - 3))
	}

	print ""
	print "Target 2: lockblame's overhead <= 0.5x bpftrace's, on every workload"
	for (k = 1; k <= nl; k++) {
		c = lbs[k]
		if (c in unavail || !(c in seen))
			continue
		for (j = 1; j <= nw; j++) {
			w = works[j]
			lo = ratio_median(c, w) - 1
			if ("bpftrace" in unavail || !("bpftrace" in seen)) {
				printf "  %-12s %-9s overhead %+6.1f%%; bpftrace unavailable\n", c, w, 100 * lo
				continue
			}
			bo = ratio_median("bpftrace", w) - 1
			printf "  %-12s %-9s overhead %+6.1f%%, bpftrace %+6.1f%%: ", c, w, 100 * lo, 100 * bo
			if (lo <= 0.5 * bo || lo <= 0)
				print "met"
			else if (bo <= 0)
				printf "MISSED: bpftrace's overhead is not above noise, lockblame's is %+.1f%%\n", 100 * lo
			else
				printf "MISSED by %.1f points (limit %+.1f%%)\n", 100 * (lo - 0.5 * bo), 50 * bo
		}
	}

	print ""
	print "Target 3: uncontended loop (free) within noise, <= 1%"
	for (k = 1; k <= nl; k++) {
		c = lbs[k]
		if (c in unavail || !(c in seen))
			continue
		n = collect(c, "free", "ratio")
		m = median(v, n)
		printf "  %-12s free: %+.1f%% (range %+.1f%% to %+.1f%%): %s\n", c, 100 * (m - 1),
			100 * (vmin(n) - 1), 100 * (vmax(n) - 1),
			verdict(m <= 1.01, sprintf("%.1f points", 100 * (m - 1.01)))
	}
	n = collect("floor", "free", "ratio")
	if (n)
		printf "  %-12s free: %+.1f%% (noise reference: no probe is hit)\n", "floor", 100 * (median(v, n) - 1)

	print ""
	print "Target 4: lockblame's overhead <= perf lock contention -b's, on the kernel-lock workloads"
	if ("perf-bpf" in unavail)
		print "  undetermined: perf-bpf unavailable: " unavail["perf-bpf"]
	else if (!("perf-bpf" in seen))
		print "  undetermined: this run had no perf-bpf configuration"
	for (k = 1; k <= nl && ("perf-bpf" in seen) && !("perf-bpf" in unavail); k++) {
		c = lbs[k]
		if (c in unavail || !(c in seen))
			continue
		nk = split("pipe append mmap", kworks, " ")
		for (j = 1; j <= nk; j++) {
			w = kworks[j]
			lo = ratio_median(c, w) - 1
			po = ratio_median("perf-bpf", w) - 1
			printf "  %-12s %-9s overhead %+6.1f%%, perf-bpf %+6.1f%%: %s\n", c, w, 100 * lo, 100 * po,
				verdict(lo <= po || lo <= 0, sprintf("%.1f points", 100 * (lo - po)))
		}
	}

	print ""
	print "Memory (lockblame's stats, last round):"
	printf "%s", mem
	print ""
	print "Tools' own times:"
	printf "%s", notes
	if (nattr) {
		print ""
		print "Who held the lock: one run of each workload under perf lock contention -b -o"
		print "(owners: a wait charged to the task owning the lock when it began) and one"
		print "under lockblame (the top lock with its causes; tasks with the CAUSE verdict):"
		for (j = 1; j <= nattr; j++) {
			w = attr_works[j]
			print "  " w ":"
			n = split(attr_tools[w], tl, " ")
			for (k = 1; k <= n; k++) {
				print "    " tl[k] ":"
				printf "%s", attr[w, tl[k]]
			}
		}
	}
}
