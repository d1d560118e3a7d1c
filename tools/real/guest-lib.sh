# SPDX-License-Identifier: GPL-2.0
# What the real cases' guest halves share (POSIX sh, sourced by
# gil-guest.sh and pg-guest.sh after they set REAL_CASE, the name in their
# results, and out, the directory of the files they keep). Every line for
# the host begins LBREAL- (tools/qemu/real reads them):
#   LBREAL-TAP ok - real/CASE: ...       a result (the host adds the lane)
#   LBREAL-DIAG ...                      a diagnostic line for the result
#   LBREAL-FILE-BEGIN NAME / -END NAME   a file kept on the host
# shellcheck disable=SC2154 # out and REAL_CASE are the caller's
ok() { echo "LBREAL-TAP ok - real/$REAL_CASE: $1"; }
notok() { echo "LBREAL-TAP not ok - real/$REAL_CASE: $1 # $2"; }
diag() { sed 's/^/LBREAL-DIAG   /'; }
# keep_gz NAME: a bigger file, gzip'd and in base64 (the host unpacks it).
keep_gz() {
	[ -s "$out/$1" ] || return 0
	echo "LBREAL-FILE-BEGIN $1.gz.b64"
	gzip -c < "$out/$1" | base64
	echo "LBREAL-FILE-END $1.gz.b64"
}
keep() {
	[ -f "$out/$1" ] || return 0
	echo "LBREAL-FILE-BEGIN $1"
	cat "$out/$1"
	echo "LBREAL-FILE-END $1"
}
t0=$(awk '{ print int($1) }' /proc/uptime)
elapsed() { echo $(($(awk '{ print int($1) }' /proc/uptime) - t0)); }
