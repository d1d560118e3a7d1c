#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lb-pipe: writers filling one pipe contend on the kernel's pipe->mutex, and the writers are among its causes.
. "$(dirname "$0")/lib.sh"

lb_case pipe lb-pipe && lb_check pipe --lock mutex --blamed writer
lb_done
