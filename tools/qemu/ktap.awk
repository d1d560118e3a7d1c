# SPDX-License-Identifier: GPL-2.0
# KTAP printed on a lane's console by lockblame_kunit.ko -> one TAP line per
# test that has no subtests (suite.case or suite.case.param), so a case is
# counted once; a parent reported "not ok" without a failing subtest (a suite
# whose init failed) counts as a failure of its own. Then two checks: there
# were results at all, and every suite the top-level plan announced reported.
# Input: the console with CRs and printk timestamps removed. -v lane=NAME
# KTAP starts after the LOCKBLAME-KUNIT-BEGIN marker; lines the guest's shell
# printed ("lockblame-...") are not kernel output and are skipped.

function emit(status, name, directive,    i) {
	line = status " - " lane ": " name
	if (directive != "")
		line = line " # " directive
	print line
	if (status == "not ok")
		for (i = 1; i <= ndiag; i++)
			print "#   " diag[i]
	results++
}

/^LOCKBLAME-KUNIT-BEGIN/ { inside = 1; next }
!inside || /^lockblame-/ || /^LOCKBLAME-/ { next }
/kunit: disabled/ { disabled = 1 }

{
	match($0, /^ */)
	ind = RLENGTH
	body = substr($0, ind + 1)
}

body ~ /^# Subtest: / {
	subtest[ind] = substr(body, 12)
	next
}

ind == 0 && body ~ /^1\.\.[0-9]+$/ {
	planned += substr(body, 4) + 0
	plans++
	next
}

body ~ /^(not )?ok [0-9]+ / {
	failed = body ~ /^not /
	desc = body
	sub(/^(not )?ok [0-9]+ /, "", desc)
	directive = ""
	if ((p = index(desc, " # ")) > 0) {
		directive = substr(desc, p + 3)
		desc = substr(desc, 1, p - 1)
	}
	name = desc
	for (l = ind; l >= 4; l -= 4)
		name = subtest[l] "." name
	if (ind == 0)
		top++

	is_parent = has_child[ind]
	child_failed = failed_below[ind]
	has_child[ind] = 0
	failed_below[ind] = 0
	for (l = 0; l < ind; l += 4) {
		has_child[l] = 1
		if (failed)
			failed_below[l] = 1
	}

	if (!is_parent) {
		if (failed)
			emit("not ok", name, directive == "" ? "failed" : directive)
		else if (toupper(directive) ~ /^SKIP/)
			emit("ok", name, "SKIP" substr(directive, 5))
		else
			emit("ok", name, "")
	} else if (failed && !child_failed) {
		emit("not ok", name, "reported not ok without a failing subtest")
	}
	ndiag = 0
	next
}

# Everything else in the region explains the next result (expectation failures).
{
	if (ndiag < 40)
		diag[++ndiag] = $0
}

END {
	if (!inside)
		exit
	if (disabled)
		print "not ok - " lane ": KTAP: suites ran # kunit says \"disabled\": KUNIT_DEFAULT_ENABLED unset?"
	else if (results == 0)
		print "not ok - " lane ": KTAP: suites ran # no KTAP results on the console"
	if (plans == 0 && results > 0)
		print "not ok - " lane ": KTAP: every planned suite reported # no top-level KTAP plan"
	else if (top != planned)
		print "not ok - " lane ": KTAP: every planned suite reported # plan announced " planned ", " top " reported: the run was cut short"
	else if (plans > 0)
		print "ok - " lane ": KTAP: every planned suite reported (" planned ")"
}
