#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lb-mmap: a thread holding mmap_lock for write across long mprotect()s is the cause of its readers' waiting on that rwsem.
. "$(dirname "$0")/lib.sh"

lb_case mmap lb-mmap && lb_check mmap --lock rwsem --blamed mapper --verdicts
lb_done
