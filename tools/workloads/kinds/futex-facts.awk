# SPDX-License-Identifier: GPL-2.0
# Reads `strace -f -qq -T -e trace=futex` output (pid-prefixed) and the
# kind-waiter pids (-v waiters="pid pid ..."); prints the futex facts of
# the case and what the futex-kinds method predicts for each waiter:
#   fact OP xN: VALUE(count) ...     (waits: the expected word; wakes: nr)
#   keys N waited-on addresses, M of them broadcast (a wake with nr > 1)
#   waiter PID lock_ms=X event_ms=Y predict=lock|event
#   predict lock|event (waiters lock/event: A/B)
# The method, per FUTEX_WAIT*: lock if the key has seen no broadcast yet
# and val == 2, or val has bit 31 set and val != 0xffffffff; else event.
# FUTEX_LOCK_PI is a lock by its op. Duration: the syscall's -T time.

function hex(v) {
	if (v == "-")
		return v
	v += 0
	if (v < 0)
		v += 4294967296
	return v > 65535 ? sprintf("0x%x", v) : v ""
}

function lockish(v) {
	if (v < 0)
		v += 4294967296
	return v == 2 || (v >= 2147483648 && v != 4294967295)
}

# Called at the start of each futex call, in trace order.
function start(pid, addr, op, val,    kind) {
	sub(/_PRIVATE/, "", op)
	sub(/\|FUTEX_CLOCK_REALTIME/, "", op)
	n[op]++
	c[op SUBSEP hex(val)]++
	if (op ~ /^FUTEX_WAKE/ || op ~ /REQUEUE/) {
		if (val + 0 > 1)
			bcast[addr] = 1
		return
	}
	if (op ~ /^FUTEX_WAIT/) {
		waited[addr] = 1
		kind = !(addr in bcast) && lockish(val + 0) ? "lock" : "event"
	} else if (op ~ /^FUTEX_LOCK_PI/) {
		kind = "lock"
	} else {
		return
	}
	pending[pid] = kind
}

function finish(pid, line,    t) {
	if (!(pid in pending))
		return
	if (match(line, /<[0-9.]+>$/)) {
		t = substr(line, RSTART + 1, RLENGTH - 2) * 1000
		ms[pid SUBSEP pending[pid]] += t
	}
	delete pending[pid]
}

/futex\(0x[0-9a-f]+, [A-Z_|]+/ {
	pid = $1
	s = $0
	sub(/^[0-9]+ +futex\(/, "", s)
	split(s, a, ", ")
	op = a[2]
	sub(/[^A-Z_|].*/, "", op)
	val = op == a[2] ? a[3] : ""
	sub(/[^-0-9].*/, "", val)
	if (val == "")
		val = "-"
	start(pid, a[1], op, val)
	if ($0 !~ /<unfinished \.\.\.>$/)
		finish(pid, $0)
	next
}

/<\.\.\. futex resumed>/ {
	finish($1, $0)
}

END {
	for (op in n) {
		line = "fact " op " x" n[op] ":"
		for (k = 0; k < 6; k++) {
			best = ""
			bc = 0
			for (key in c) {
				split(key, p, SUBSEP)
				if (p[1] == op && c[key] > bc) {
					best = key
					bc = c[key]
				}
			}
			if (best == "")
				break
			split(best, p, SUBSEP)
			line = line " " p[2] "(" bc ")"
			delete c[best]
		}
		for (key in c) {
			split(key, p, SUBSEP)
			if (p[1] == op) {
				line = line " ..."
				break
			}
		}
		print line | "sort"
	}
	close("sort")
	nk = nb = 0
	for (addr in waited) {
		nk++
		nb += addr in bcast
	}
	print "keys " nk " waited-on, " nb " of them broadcast"
	nw = split(waiters, w, " ")
	locks = events = 0
	for (i = 1; i <= nw; i++) {
		l = ms[w[i] SUBSEP "lock"] + 0
		e = ms[w[i] SUBSEP "event"] + 0
		kind = l >= e && l > 0 ? "lock" : "event"
		if (kind == "lock")
			locks++
		else
			events++
		printf "waiter %s lock_ms=%.1f event_ms=%.1f predict=%s\n",
		       w[i], l, e, kind
	}
	printf "predict %s (waiters lock/event: %d/%d)\n",
	       (locks > events ? "lock" : "event"), locks, events
}
