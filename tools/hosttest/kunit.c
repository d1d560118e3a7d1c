// SPDX-License-Identifier: GPL-2.0
/*
 * The host's KUnit runner (include/kunit/test.h): runs every registered
 * suite, one TAP line a test, with each failed expectation above its line.
 */
#include <stdarg.h>
#include <kunit/test.h>

/* How many failed expectations of one test are printed. */
#define KUNIT_HOST_DIAG	20

struct kunit_alloc {
	struct kunit_alloc *next;
};

static struct kunit_suite *suites[16];
static unsigned int nr_suites;

void kunit_register_suite(struct kunit_suite *suite)
{
	if (nr_suites == ARRAY_SIZE(suites)) {
		fprintf(stderr, "kunit: more than %zu suites\n", ARRAY_SIZE(suites));
		exit(2);
	}
	suites[nr_suites++] = suite;
}

void *kunit_kzalloc(struct kunit *test, size_t size, int gfp)
{
	struct kunit_alloc *a = calloc(1, sizeof(*a) + size);

	(void)gfp;
	if (!a)
		return NULL;
	a->next = test->allocs;
	test->allocs = a;
	return a + 1;
}

const char *kunit_host_values(char *buf, size_t size, bool is_signed, unsigned long long left,
			      unsigned long long right)
{
	if (is_signed)
		snprintf(buf, size, "%lld vs %lld", (long long)left, (long long)right);
	else
		snprintf(buf, size, "%llu vs %llu", left, right);
	return buf;
}

void kunit_host_check(struct kunit *test, bool ok, bool assert, const char *file, int line,
		      const char *expr, const char *values, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	test->expectations++;
	if (ok)
		return;
	if (++test->failures <= KUNIT_HOST_DIAG) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		printf("#   %s:%d: %s failed: %s%s%s%s%s%s\n", file, line,
		       assert ? "assertion" : "expectation", expr, values ? " (" : "",
		       values ? values : "", values ? ")" : "", *msg ? ": " : "", msg);
	}
	if (assert)
		longjmp(*test->abort, 1);
}

/* Runs one test; true if it passed. */
static bool run_test(struct kunit_suite *suite, struct kunit_case *c, void *param,
		     unsigned long *expectations)
{
	struct kunit test = { .param_value = param, .name = c->name };
	jmp_buf abort;
	struct kunit_alloc *a;

	test.abort = &abort;
	if (!setjmp(abort)) {
		if (suite->init && suite->init(&test))
			test.failures++;
		else
			c->run_case(&test);
	}
	if (suite->exit)
		suite->exit(&test);
	while ((a = test.allocs)) {
		test.allocs = a->next;
		free(a);
	}
	*expectations += test.expectations;
	return !test.failures;
}

int main(void)
{
	unsigned int i, tests = 0, failed = 0;
	unsigned long expectations = 0;
	char desc[KUNIT_PARAM_DESC_SIZE];
	struct kunit_case *c;
	const void *param;

	/* Every line out before a sanitizer's report at exit (a failed assertion leaks). */
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < nr_suites; i++) {
		for (c = suites[i]->test_cases; c->run_case; c++) {
			bool ok;

			if (!c->generate_params) {
				ok = run_test(suites[i], c, NULL, &expectations);
				failed += !ok;
				printf("%sok %u - %s.%s\n", ok ? "" : "not ", ++tests,
				       suites[i]->name, c->name);
				continue;
			}
			desc[0] = '\0';
			for (param = c->generate_params(NULL, desc); param;
			     param = c->generate_params(param, desc)) {
				ok = run_test(suites[i], c, (void *)param, &expectations);
				failed += !ok;
				printf("%sok %u - %s.%s.%s\n", ok ? "" : "not ", ++tests,
				       suites[i]->name, c->name, desc);
				desc[0] = '\0';
			}
		}
	}
	printf("# %lu expectations checked\n", expectations);
	printf("1..%u\n", tests);
	printf("# passed %u failed %u\n", tests - failed, failed);
	return failed ? 1 : 0;
}
