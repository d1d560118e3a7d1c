# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154 # $top is the sourcing script's
# Shared by the QEMU lane and demo scripts (sourced, bash). Expects $top.

# What a guest's console says when its kernel complains, one pattern for
# every script that reads one (boot, lane, real, demo), as extended regular
# expressions (grep -E, awk). LB_CRASH_ERE: the first line of a fatal or
# warning report (crash summaries and the TCG crash class). LB_SPLAT_ERE:
# anything a clean run never prints. A user process's fault ("traps: ...
# general protection fault ip:...") is not the kernel's: "[,:]" keeps it out.
LB_CRASH_ERE='Oops: |kernel BUG at |BUG: |general protection fault[,:]|WARNING: '
LB_SPLAT_ERE='BUG:|WARNING:|Oops|Call Trace|KASAN|unreferenced object|suspected memory leak|Kernel panic|general protection fault[,:]|UBSAN:|INFO: task .* blocked|detected stall|kernel BUG'
export LB_CRASH_ERE LB_SPLAT_ERE

# The guests' CPU: QEMU's default model without cmpxchg16b. QEMU 7.2's TCG
# (Debian 12's) translates cmpxchg8b/16b into a helper that computes RFLAGS
# from the flags state before the instruction's cc_op was written back, so a
# flags-setting instruction just before it turns its operand into RFLAGS: TF,
# DF and reserved bits set, then a single-step trap, a string copy run
# backwards, a return to 0 (int3-evidence.md, "cmpxchg16b"; the reproducer is
# tools/qemu/cx16-flags.c). Without the CPUID bit the kernels take their own
# fallbacks (slub's this_cpu_cmpxchg16b_emu); lockblame never needs it.
# LB_QEMU_CPU overrides it ("qemu64" puts cmpxchg16b back).
LB_QEMU_CPU=${LB_QEMU_CPU:-qemu64,-cx16}

# stage_tree DIR: copy what builds the module (no build products) into DIR, so
# builds for different kernels never disturb the checkout or each other.
stage_tree() {
	mkdir -p "$1"
	local f
	for f in Makefile Kbuild module include kunit; do
		[ -e "$top/$f" ] || continue
		rsync -a --exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
			--exclude='.*.cmd' --exclude='Module.symvers' --exclude='modules.order' \
			"$top/$f" "$1/"
	done
}

# The module cache. lockblame.ko built from the same sources for the same
# kernel image is the same module, so the W=1 build step, the lanes and the
# real-program guests build it once per tree and kernel, and the others take
# it from $LB_CACHE/modules/KEY (the newest 24 kept). W=1 adds warnings only,
# not code, so a module built with it serves a lane built without.
# module_key TREE KERNEL: the key of TREE's sources (stage_tree's copy, before
# any build in it) and the kernel image KERNEL they are built for.
module_key() {
	{
		(cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) &&
			sha256sum < "$2"
	} | sha256sum | cut -c1-24
}

# module_cached KEY TREE: the module kept under KEY into TREE/lockblame.ko;
# fails when there is none.
module_cached() {
	[ -f "$LB_CACHE/modules/$1/lockblame.ko" ] &&
		cp "$LB_CACHE/modules/$1/lockblame.ko" "$2/lockblame.ko"
}

# module_keep KEY KO: keep KO under KEY (written whole, then renamed, so a
# reader never takes half a module).
module_keep() {
	local d=$LB_CACHE/modules
	mkdir -p "$d/.new-$$" && cp "$2" "$d/.new-$$/lockblame.ko" &&
		mv -T "$d/.new-$$" "$d/$1" 2> /dev/null
	rm -rf "$d/.new-$$"
	ls -dt "$d"/*/ 2> /dev/null | tail -n +25 | xargs -r rm -rf
}

# module_build KEY TREE LOG CMD...: TREE/lockblame.ko taken from the cache
# under KEY, or else built by CMD (its output in LOG) and kept under KEY. An
# empty KEY never uses the cache. Fails when CMD fails or leaves no module.
module_build() {
	local key=$1 tree=$2 log=$3
	shift 3
	if [ -n "$key" ] && module_cached "$key" "$tree"; then
		echo "module cache $LB_CACHE/modules/$key: lockblame.ko built before from these sources" > "$log"
		return 0
	fi
	"$@" > "$log" 2>&1 && [ -f "$tree/lockblame.ko" ] || return 1
	[ -z "$key" ] || module_keep "$key" "$tree/lockblame.ko"
}

# clean_console: the serial log made greppable: no CRs, no terminal escapes
# (SeaBIOS leaves some in front of the first line init prints), no printk
# timestamps, and the guest's marker and result lines on lines of their own
# even when kernel output shared the line.
clean_console() {
	tr -d '\r' | sed -E 's/\x1b(\[[0-9;?]*[A-Za-z]|[^[])//g' |
		sed -E 's/(.)(LOCKBLAME-[A-Z]|lockblame-(test:|e2e\[|probes:|diag:|demo:))/\1\n\2/g' |
		sed -E 's/^\[ *[0-9]+\.[0-9]+\] //'
}

# guest_bins: the executables that go into the guest's /bin, one per line
# (FILE or FILE=NAME): whatever `make -C tools/workloads` and
# `make -C tools/torture` left in their bin/, the reader, static if it was
# built so, and Debian's stress-ng when the host has it (59-stress-ng.sh; its
# libraries come along).
guest_bins() {
	local b
	for b in "$top"/tools/workloads/bin/* "$top"/tools/torture/bin/*; do
		[ -f "$b" ] && [ -x "$b" ] && echo "$b"
	done
	for b in "$top"/tools/lockblame/lockblame.static "$top"/tools/lockblame/lockblame; do
		if [ -f "$b" ] && [ -x "$b" ] && head -c 4 "$b" | grep -q ELF; then
			echo "$b=lockblame"
			break
		fi
	done
	[ -x /usr/bin/stress-ng ] && echo /usr/bin/stress-ng
	return 0
}

# build_errors LOG [TREE]: the lines of a failed build worth reading first,
# with the staged copy's path (TREE/) taken out of file names.
build_errors() {
	local e
	e=$(grep -E 'error:|ERROR:|undefined|fatal|No rule' "$1" | head -n 25)
	[ -n "$e" ] || e=$(tail -n 15 "$1")
	if [ -n "${2:-}" ]; then
		echo "$e" | sed "s|$2/||g"
	else
		echo "$e"
	fi
}

# tcg_crash_class CONSOLE: when the kernel's first crash on the cleaned
# console is of the class multi-threaded QEMU TCG causes on its own
# (int3-evidence.md), print why and succeed; otherwise fail, printing
# nothing. The class: "Oops: int3" (an INT3 executed after text_poke_bp had
# removed it) with no lockblame frame in its trace, or an instruction fetch
# at 0 ("RIP: 0010:0x0") inside the kernel's own code patching (ftrace,
# text_poke, jump labels, kprobe arming), where lockblame's only frames are
# those that plant or remove probes. Also any crash whose register dump shows
# EFLAGS with a reserved bit set (3, 5, 15, 22 to 31): a CPU never holds one,
# software cannot set one (popf and iret ignore them), so the emulator made
# that state (QEMU 7.2's cmpxchg16b flags bug, int3-evidence.md); but not with
# a frame of lockblame's handlers or drain. Any other crash, or one with such
# a frame, is lockblame's to explain.
tcg_crash_class() {
	awk -v crash="$LB_CRASH_ERE" '
	# eflags_reserved(HEX): the reserved bits of an 8-digit EFLAGS value.
	function eflags_reserved(hex,   i, v) {
		v = 0
		for (i = 1; i <= length(hex); i++)
			v = v * 16 + index("0123456789abcdef", substr(hex, i, 1)) - 1
		return (v >= 4194304) || (int(v / 32768) % 2) || (int(v / 32) % 2) || (int(v / 8) % 2)
	}
	/^(lockblame-|LOCKBLAME-)/ { next }
	!what && /Oops: int3/ { what = "int3"; intrace = 0; next }
	!what && /BUG: kernel NULL pointer dereference, address: 0+$/ { what = "null"; next }
	!what && $0 ~ crash { what = "other"; next }
	what && !done && !badflags && match($0, /EFLAGS: [0-9a-f]+/) {
		flags = substr($0, RSTART + 8, RLENGTH - 8)
		if (eflags_reserved(flags)) badflags = flags
	}
	what && !done && /RIP: 0010:0x0( |$)/ { rip0 = 1 }
	what && !done && /Call Trace:/ { intrace = 1; next }
	what && intrace && !done {
		# Frames, stack markers (<IRQ>, <#DB>, </TASK>) and the register
		# dump of an exception taken inside the trace belong to it.
		if ($0 !~ /^ *[^ ]+\+0x[0-9a-f]+\/0x[0-9a-f]+/ && $0 !~ /^ *(\? |<\/?[A-Z#]+>)/ &&
		    $0 !~ /^(RIP|Code|RSP|RAX|RDX|RBP|R10|R13): /) { done = 1; next }
		if (/\[lockblame\]/) {
			if ($0 ~ /(^| )(lb_probe_register|lb_probe_unregister|lb_probe_plant|lb_probe_unplant|lb_probes_[a-z_]+|lb_probe_plant_standins|lb_init|lb_init_stages|lb_exit)\+/) lbreg = 1
			else lbother = 1
		} else if (/(ftrace_|text_poke|jump_label|arch_jump|kprobe_ftrace|arm_kprobe|disarm_kprobe|static_key_)/) {
			patching = 1
		}
	}
	/^<\/TASK>|^---\[ end trace/ { if (what) done = 1 }
	END {
		if (what && badflags && !lbother) {
			print "EFLAGS " badflags " with reserved bits set: the emulator'"'"'s flags state (QEMU 7.2 cmpxchg16b)"
			exit 0
		}
		if (what == "int3" && !lbother && !lbreg) { print "Oops: int3 with no lockblame frame"; exit 0 }
		if (what == "null" && rip0 && patching && !lbother) {
			print "a jump to 0 inside the kernel'"'"'s code patching" (lbreg ? " (lockblame only planting or removing probes)" : "")
			exit 0
		}
		exit 1
	}' "$1"
}
