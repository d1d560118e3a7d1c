/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for KUnit: enough of <kunit/test.h> to build a KUnit suite
 * unchanged on the host, as the kernel's tools/testing/radix-tree builds the
 * maple tree's tests. kunit.c runs the suites and prints one TAP line a test
 * (suite.case, or suite.case.param for a parameterised case), as
 * tools/qemu/ktap.awk counts the guest's KTAP.
 */
#ifndef _LB_HOST_KUNIT_TEST_H
#define _LB_HOST_KUNIT_TEST_H

#include <setjmp.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#define KUNIT_PARAM_DESC_SIZE	128

struct kunit_alloc;

struct kunit {
	void *param_value;
	/* private: the runner's */
	const char *name;
	unsigned int failures;
	unsigned long expectations;
	jmp_buf *abort;
	struct kunit_alloc *allocs;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
};

struct kunit_suite {
	const char name[256];
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(test_name)	{ .run_case = test_name, .name = #test_name }
#define KUNIT_CASE_PARAM(test_name, gen_params)					\
	{ .run_case = test_name, .name = #test_name, .generate_params = gen_params }

/* As the kernel's: @name##_gen_params walks @array, describing each element. */
#define KUNIT_ARRAY_PARAM(name, array, get_desc)					\
	static const void *name##_gen_params(const void *prev, char *desc)		\
	{										\
		typeof((array)[0]) *__next = prev ? ((typeof(__next))prev) + 1 : (array); \
		if ((size_t)(__next - (array)) < ARRAY_SIZE((array))) {			\
			void (*__get_desc)(typeof(__next), char *) = get_desc;		\
			if (__get_desc)							\
				__get_desc(__next, desc);				\
			return __next;							\
		}									\
		return NULL;								\
	}

void kunit_register_suite(struct kunit_suite *suite);

#define kunit_test_suite(suite)							\
	__attribute((constructor)) static void kunit_register_##suite(void)	\
	{									\
		kunit_register_suite(&(suite));					\
	}

/* Freed when the test ends, as kunit_kzalloc()'s memory is. */
void *kunit_kzalloc(struct kunit *test, size_t size, int gfp);

/*
 * One expectation: @ok, or a failure reported with @expr and, for a
 * comparison, both values. An assertion that fails ends the test.
 */
__printf(8, 9)
void kunit_host_check(struct kunit *test, bool ok, bool assert, const char *file, int line,
		      const char *expr, const char *values, const char *fmt, ...);
const char *kunit_host_values(char *buf, size_t size, bool is_signed, unsigned long long left,
			      unsigned long long right);

/* Both sides in the type they are compared in, as C compares them. */
#define KUNIT_HOST_BINARY(test, assert, left, op, right, fmt, ...)			\
	do {										\
		typeof((left) + (right)) __left = (left), __right = (right);		\
		char __values[64];							\
		kunit_host_check(test, __left op __right, assert, __FILE__, __LINE__,	\
				 #left " " #op " " #right,				\
				 kunit_host_values(__values, sizeof(__values),		\
						   (typeof(__left))-1 < 1,		\
						   __left, __right),			\
				 fmt, ##__VA_ARGS__);					\
	} while (0)

#define KUNIT_HOST_TRUE(test, assert, cond, expr, fmt, ...)				\
	kunit_host_check(test, !!(cond), assert, __FILE__, __LINE__, expr, NULL, fmt,	\
			 ##__VA_ARGS__)

/* The messages' format and arguments are the last of each: "..." below. */
#define KUNIT_EXPECT_EQ_MSG(t, l, r, ...) KUNIT_HOST_BINARY(t, false, l, ==, r, __VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, l, r, ...) KUNIT_HOST_BINARY(t, false, l, !=, r, __VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, l, r, ...) KUNIT_HOST_BINARY(t, false, l, <, r, __VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, l, r, ...) KUNIT_HOST_BINARY(t, false, l, <=, r, __VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(t, l, r, ...) KUNIT_HOST_BINARY(t, false, l, >, r, __VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, ...) KUNIT_HOST_BINARY(t, false, l, >=, r, __VA_ARGS__)
#define KUNIT_EXPECT_TRUE_MSG(t, c, ...) KUNIT_HOST_TRUE(t, false, c, #c, __VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, ...) KUNIT_HOST_TRUE(t, false, !(c), "!(" #c ")", __VA_ARGS__)
#define KUNIT_EXPECT_NULL_MSG(t, p, ...) KUNIT_HOST_TRUE(t, false, !(p), #p " == NULL", __VA_ARGS__)
#define KUNIT_EXPECT_NOT_NULL_MSG(t, p, ...) \
	KUNIT_HOST_TRUE(t, false, p, #p " != NULL", __VA_ARGS__)
#define KUNIT_ASSERT_EQ_MSG(t, l, r, ...) KUNIT_HOST_BINARY(t, true, l, ==, r, __VA_ARGS__)
#define KUNIT_ASSERT_TRUE_MSG(t, c, ...) KUNIT_HOST_TRUE(t, true, c, #c, __VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL_MSG(t, p, ...) KUNIT_HOST_TRUE(t, true, p, #p " != NULL", __VA_ARGS__)

#define KUNIT_EXPECT_EQ(t, l, r)	KUNIT_EXPECT_EQ_MSG(t, l, r, "%s", "")
#define KUNIT_EXPECT_NE(t, l, r)	KUNIT_EXPECT_NE_MSG(t, l, r, "%s", "")
#define KUNIT_EXPECT_LT(t, l, r)	KUNIT_EXPECT_LT_MSG(t, l, r, "%s", "")
#define KUNIT_EXPECT_LE(t, l, r)	KUNIT_EXPECT_LE_MSG(t, l, r, "%s", "")
#define KUNIT_EXPECT_GT(t, l, r)	KUNIT_EXPECT_GT_MSG(t, l, r, "%s", "")
#define KUNIT_EXPECT_GE(t, l, r)	KUNIT_EXPECT_GE_MSG(t, l, r, "%s", "")
#define KUNIT_EXPECT_TRUE(t, c)		KUNIT_EXPECT_TRUE_MSG(t, c, "%s", "")
#define KUNIT_EXPECT_FALSE(t, c)	KUNIT_EXPECT_FALSE_MSG(t, c, "%s", "")
#define KUNIT_EXPECT_NULL(t, p)		KUNIT_EXPECT_NULL_MSG(t, p, "%s", "")
#define KUNIT_EXPECT_NOT_NULL(t, p)	KUNIT_EXPECT_NOT_NULL_MSG(t, p, "%s", "")
#define KUNIT_ASSERT_EQ(t, l, r)	KUNIT_ASSERT_EQ_MSG(t, l, r, "%s", "")
#define KUNIT_ASSERT_TRUE(t, c)		KUNIT_ASSERT_TRUE_MSG(t, c, "%s", "")
#define KUNIT_ASSERT_NOT_NULL(t, p)	KUNIT_ASSERT_NOT_NULL_MSG(t, p, "%s", "")

#endif
