// SPDX-License-Identifier: GPL-2.0
/*
 * One line about the "probes" file for the summary: how many probes are
 * planted, which are missing, and whether kretprobes missed wait ends.
 */
#include <stdlib.h>
#include <string.h>
#include "lockblame.h"

void lbt_probes_note(const char *dir, FILE *out)
{
	unsigned int total = 0, planted = 0;
	unsigned long long missed_sum = 0;
	char missing_req[256] = "", missing_opt[256] = "";
	char *text, *line, *save = NULL;
	size_t len;

	if (lbt_slurp(dir, "probes", true, &text, &len))
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char role[64], kind[16], need[48], state[128];
		unsigned long long hits, missed;
		char *list, *skipped = strstr(line, " (skipped)");

		/* "absent (skipped)" is one state: drop the second word. */
		if (skipped)
			memmove(skipped, skipped + 10, strlen(skipped + 10) + 1);
		if (sscanf(line, "%63s %15s %47s %127s %llu %llu", role, kind, need, state,
			   &hits, &missed) != 6)
			continue;
		/* A stand-in ("for:ROLE") counts only where it serves its role. */
		if (!strncmp(need, "for:", 4) && strcmp(state, "absent") &&
		    strncmp(state, "error(", 6) && strcmp(state, "unused")) {
			missed_sum += missed;
			continue;
		}
		if (!strncmp(need, "for:", 4))
			continue;
		total++;
		if (strcmp(state, "absent") && strncmp(state, "error(", 6)) {
			planted++;
			missed_sum += missed;
			continue;
		}
		list = strcmp(need, "required") ? missing_opt : missing_req;
		if (strlen(list) + strlen(role) + 2 < sizeof(missing_req))
			snprintf(list + strlen(list), sizeof(missing_req) - strlen(list), "%s%s",
				 *list ? "," : "", role);
	}
	free(text);
	if (!total)
		return;
	fprintf(out, "probes: %u of %u planted", planted, total);
	if (*missing_req)
		fprintf(out, "; REQUIRED MISSING: %s (results incomplete)", missing_req);
	if (*missing_opt)
		fprintf(out, "; optional missing: %s", missing_opt);
	if (missed_sum)
		fprintf(out, "; %llu kretprobe misses (wait ends lost: raise max_blocked)",
			missed_sum);
	fputc('\n', out);
}
