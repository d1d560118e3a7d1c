# SPDX-License-Identifier: GPL-2.0
# The e2e scripts' output on a lane's console -> TAP lines named
# "<lane>: e2e/<script>: <test>", plus a failure for a script that did not
# finish, exited non-zero without saying what failed, or printed no results.
# Artifacts (LB-ARTIFACT-BEGIN/END, see artifacts) are neither results nor
# diagnostics. Input: the cleaned console. -v lane=NAME

function script_of(line) {
	return substr(line, 15, index(line, "]: ") - 15)
}

/^LOCKBLAME-E2E-BEGIN / {
	order[++nscripts] = $2
	begun[$2] = 1
	next
}

/^LOCKBLAME-E2E-END / {
	ended[$2] = 1
	rc[$2] = substr($3, 4)
	timedout[$2] = $4 == "timeout"
	if ($NF ~ /^secs=[0-9]+$/)
		secs[$2] = substr($NF, 6)
	next
}

/^lockblame-e2e\[/ {
	s = script_of($0)
	text = substr($0, 15 + length(s) + 3)
	if (s in artifact) {
		if (text == "LB-ARTIFACT-END " artifact[s])
			delete artifact[s]
		next
	}
	if (text ~ /^LB-ARTIFACT-BEGIN /) {
		artifact[s] = substr(text, 19)
		next
	}
	if (text ~ /^(not )?ok( [0-9]+)?( -)?( |$)/) {
		status = text ~ /^not / ? "not ok" : "ok"
		sub(/^(not )?ok( [0-9]+)?( -)? */, "", text)
		print status " - " lane ": e2e/" s ": " text
		count[s]++
		after_failure[s] = 0
		if (status == "not ok") {
			failures[s]++
			after_failure[s] = 1
			shown[s] = 0
			for (i = 1; i <= ndiag[s]; i++)
				print "#   " diag[s, i]
		}
		ndiag[s] = 0
	} else if (after_failure[s]) {
		# what a script prints after a failure explains it (lb_check's dumps)
		if (++shown[s] <= 80)
			print "#   " text
		else if (shown[s] == 81)
			print "#   ... (more in the console log)"
	} else if (ndiag[s] < 30) {
		diag[s, ++ndiag[s]] = text
	}
	next
}

END {
	for (i = 1; i <= nscripts; i++) {
		s = order[i]
		name = lane ": e2e/" s
		if (!ended[s]) {
			print "not ok - " name ": finished # the guest stopped in the middle of it"
			continue
		}
		if (timedout[s] || (rc[s] != 0 && !failures[s])) {
			why = timedout[s] ? "killed after LB_E2E_TIMEOUT seconds" : "exited with status " rc[s]
			print "not ok - " name ": exit status # " why
			for (j = 1; j <= ndiag[s]; j++)
				print "#   " diag[s, j]
		}
		if (!count[s]) {
			print "not ok - " name ": results # printed no ok/not ok lines"
			for (j = 1; j <= ndiag[s]; j++)
				print "#   " diag[s, j]
		}
	}
	# Each script's time in the guest, for finding where a lane's time goes.
	line = ""
	for (i = 1; i <= nscripts; i++)
		if (order[i] in secs)
			line = line (line == "" ? "" : ", ") order[i] " " secs[order[i]]
	if (line != "")
		print "# " lane ": e2e seconds: " line
}
