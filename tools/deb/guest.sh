#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of tools/deb/check: the module DKMS built, loaded with modprobe
# (kmod, after depmod), and the packaged reader's report of an lb-mutex run.
# Prints "PKG ok - ..." / "PKG not ok - ... # why" lines for the host.
ok() { echo "PKG ok - $1"; }
bad() { echo "PKG not ok - $1 # $2"; }
want=$(cat /pkg-version)
kver=$(uname -r)

for t in depmod modprobe modinfo; do
	ln -sf /bin/kmod /sbin/$t
done
ko=$(ls /lib/modules/"$kver"/updates/dkms/lockblame.ko* 2> /dev/null)
[ -n "$ko" ] && ok "DKMS module in /lib/modules/$kver/updates/dkms: ${ko##*/}" ||
	bad "DKMS module in /lib/modules/$kver/updates/dkms" "not in the image"
if out=$(depmod -a 2>&1) && out=$(modprobe lockblame 2>&1); then
	ok "modprobe lockblame"
else
	bad "modprobe lockblame" "$out"
fi
v=$(cat /sys/module/lockblame/version 2> /dev/null)
[ "$v" = "$want" ] && ok "loaded module is version $v" ||
	bad "loaded module is version $want" "/sys/module/lockblame/version says '$v'"
v=$(lockblame --version 2>&1)
case $v in
"lockblame $want "*) ok "packaged reader: $v" ;;
*) bad "packaged reader is version $want" "--version says '$v'" ;;
esac

lockblame --reset > /dev/null 2>&1
lb-mutex > /tmp/truth 2> /tmp/err || bad "lb-mutex" "exited $?: $(cat /tmp/err)"
culprit=$(sed -n 's/^truth role=culprit pid=\([0-9]*\) .*/\1/p' /tmp/truth)
lockblame > /tmp/summary 2>&1
rc=$?
sed 's/^/PKG-OUT /' /tmp/summary
if [ $rc = 0 ] && [ -n "$culprit" ] &&
	awk -v p="$culprit" '/^TASKS / { t = 1; getline; next } t && $1 == p && $4 == "cause" { f = 1 } END { exit !f }' /tmp/summary; then
	ok "packaged reader names lb-mutex's culprit ($culprit) the cause"
else
	bad "packaged reader names lb-mutex's culprit the cause" "culprit '$culprit', lockblame exit $rc"
fi
if grep -q '^lockblame report' /sys/kernel/debug/lockblame/report; then
	ok "cat report"
else
	bad "cat report" "no report header"
fi
if out=$(modprobe -r lockblame 2>&1); then
	ok "modprobe -r lockblame"
else
	bad "modprobe -r lockblame" "$out"
fi
