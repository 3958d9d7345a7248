// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of <linux/perf/pmu_format.h>: format files as perf reads them,
 * refusal of undeclared bits in every config word, events shown per
 * variant, and the self-checks of tables and masks that every driver's
 * suite runs.
 */

#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/perf/pmu_format.h>

#include "pmu_format_kunit.h"

#define T_EVENT		GENMASK_ULL(3, 0)
#define T_NODE		GENMASK_ULL(5, 4)
#define T_EDGE		BIT_ULL(8)
#define T_INDEX		GENMASK_ULL(63, 32)
#define T_QUALIFIER	GENMASK_ULL(63, 0)
#define T_TOP		BIT_ULL(63)
#define T_MCU		GENMASK_ULL(7, 0)

static struct attribute *test_format[] = {
	PMU_FORMAT_FIELD(event, PMU_FORMAT_CONFIG, T_EVENT),
	PMU_FORMAT_FIELD(node, PMU_FORMAT_CONFIG, T_NODE),
	PMU_FORMAT_FIELD(edge, PMU_FORMAT_CONFIG, T_EDGE),
	PMU_FORMAT_FIELD(starting_index, PMU_FORMAT_CONFIG, T_INDEX),
	PMU_FORMAT_FIELD(partition_id, PMU_FORMAT_CONFIG, T_INDEX),
	PMU_FORMAT_FIELD(qualifier, PMU_FORMAT_CONFIG1, T_QUALIFIER),
	PMU_FORMAT_FIELD(top, PMU_FORMAT_CONFIG2, T_TOP),
	PMU_FORMAT_FIELD(mcu, PMU_FORMAT_CONFIG2, T_MCU),
	NULL,
};

static const struct attribute_group test_format_group = {
	.name = "format",
	.attrs = test_format,
};

/* What a driver would give pmu_format_check() for test_format. */
static const u64 test_mask[PMU_FORMAT_NR_WORDS] = {
	[PMU_FORMAT_CONFIG] = T_EVENT | T_NODE | T_EDGE | T_INDEX,
	[PMU_FORMAT_CONFIG1] = T_QUALIFIER,
	[PMU_FORMAT_CONFIG2] = T_TOP | T_MCU,
};

#define V6	BIT(0)
#define V8	BIT(1)

static struct attribute *test_events[] = {
	PMU_EVENT(mem_reads, "event=0x0,node=?"),
	PMU_EVENT(latency, "event=0x4,node=1,edge"),
	PMU_EVENT(latency.unit, "ns"),
	PMU_EVENT(latency.scale, "1e-9"),
	PMU_EVENT(part, "event=0x1,partition_id=?,mcu=9"),
	PMU_EVENT_VARIANT(only_v8, "event=0x2", V8),
	PMU_EVENT_VARIANT(only_v6, "event=0x3", V6),
	PMU_EVENT_VARIANT(both, "event=0x5", V6 | V8),
	NULL,
};

static void pmu_format_test_strings(struct kunit *test)
{
	static const char *const want[][2] = {
		{ "event", "config:0-3\n" },
		{ "node", "config:4-5\n" },
		{ "edge", "config:8\n" },
		{ "starting_index", "config:32-63\n" },
		{ "partition_id", "config:32-63\n" },
		{ "qualifier", "config1:0-63\n" },
		{ "top", "config2:63\n" },
		{ "mcu", "config2:0-7\n" },
	};
	unsigned int i;

	KUNIT_EXPECT_EQ(test, pmu_kunit_count(NULL, &test_format_group),
			ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++)
		KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, NULL,
							      &test_format_group,
							      want[i][0]),
				   want[i][1]);
}

static void pmu_format_test_masks(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, pmu_kunit_format_mask(test_format, PMU_FORMAT_CONFIG),
			0xffffffff0000013fULL);
	KUNIT_EXPECT_EQ(test, pmu_kunit_format_mask(test_format, PMU_FORMAT_CONFIG1),
			~0ULL);
	KUNIT_EXPECT_EQ(test, pmu_kunit_format_mask(test_format, PMU_FORMAT_CONFIG2),
			0x80000000000000ffULL);
	pmu_kunit_check_mask(test, test_format, test_mask);
}

static void pmu_format_test_check(struct kunit *test)
{
	struct perf_event_attr attr = {};
	/* Every bit of each word that no field declares, one at a time. */
	static const u64 reserved[PMU_FORMAT_NR_WORDS] = {
		[PMU_FORMAT_CONFIG] = 0x00000000fffffec0ULL,
		[PMU_FORMAT_CONFIG1] = 0,
		[PMU_FORMAT_CONFIG2] = 0x7fffffffffffff00ULL,
	};
	int w, bit;

	KUNIT_EXPECT_EQ(test, pmu_format_check(test_mask, &attr), 0);
	attr.config = 0xffffffff0000013fULL;
	attr.config1 = ~0ULL;
	attr.config2 = 0x80000000000000ffULL;
	KUNIT_EXPECT_EQ(test, pmu_format_check(test_mask, &attr), 0);
	for (w = 0; w < PMU_FORMAT_NR_WORDS; w++) {
		for (bit = 0; bit < 64; bit++) {
			struct perf_event_attr bad = attr;

			if (!(reserved[w] & BIT_ULL(bit)))
				continue;
			*pmu_kunit_word(&bad, w) |= BIT_ULL(bit);
			KUNIT_EXPECT_EQ_MSG(test, pmu_format_check(test_mask, &bad),
					    -EINVAL, "word %d bit %d", w, bit);
		}
	}
	/* Field extraction with the same masks. */
	attr.config = FIELD_PREP(T_EVENT, 0x4) | FIELD_PREP(T_NODE, 2) |
		      FIELD_PREP(T_INDEX, 0xdeadbeef);
	KUNIT_EXPECT_EQ(test, FIELD_GET(T_EVENT, attr.config), 0x4ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(T_NODE, attr.config), 2ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(T_EDGE, attr.config), 0ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(T_INDEX, attr.config), 0xdeadbeefULL);
}

/* A field in config3, which perf_event_attr has had since Linux 6.3. */
#define T_EXT		GENMASK_ULL(15, 8)

static struct attribute *test_format_config3[] = {
	PMU_FORMAT_FIELD(event, PMU_FORMAT_CONFIG, T_EVENT),
	PMU_FORMAT_FIELD(ext, PMU_FORMAT_CONFIG3, T_EXT),
	NULL,
};

static const u64 test_mask_config3[PMU_FORMAT_NR_WORDS] = {
	[PMU_FORMAT_CONFIG] = T_EVENT,
	[PMU_FORMAT_CONFIG3] = T_EXT,
};

/*
 * config3 is checked as the other words are: a bit there is refused
 * unless a field declares it.
 */
static void pmu_format_test_config3(struct kunit *test)
{
	const struct attribute_group g = { .name = "format",
					   .attrs = test_format_config3 };
	struct perf_event_attr attr = { .config3 = BIT_ULL(0) };

	/* test_format has no field in config3 */
	KUNIT_EXPECT_EQ(test, pmu_format_check(test_mask, &attr), -EINVAL);
	attr.config3 = BIT_ULL(63);
	KUNIT_EXPECT_EQ(test, pmu_format_check(test_mask, &attr), -EINVAL);

	attr.config3 = 0xff00;
	KUNIT_EXPECT_EQ(test, pmu_format_check(test_mask_config3, &attr), 0);
	attr.config3 = BIT_ULL(16);
	KUNIT_EXPECT_EQ(test, pmu_format_check(test_mask_config3, &attr), -EINVAL);
	attr.config3 = BIT_ULL(7);
	KUNIT_EXPECT_EQ(test, pmu_format_check(test_mask_config3, &attr), -EINVAL);
	KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, NULL, &g, "ext"),
			   "config3:8-15\n");
	pmu_kunit_check_tables(test, test_format_config3, NULL);
	pmu_kunit_check_mask(test, test_format_config3, test_mask_config3);
}

/*
 * Every word, offset and width: the format file names exactly the field's
 * bits, and the check accepts exactly them in that word.
 */
static void pmu_format_test_all_positions(struct kunit *test)
{
	static const char *const words[] = {
		"config", "config1", "config2", "config3"
	};
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	unsigned int word, lsb, width;
	char want[32];

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (word = 0; word < PMU_FORMAT_NR_WORDS; word++) {
		for (width = 1; width <= 64; width++) {
			for (lsb = 0; lsb + width <= 64; lsb++) {
				struct pmu_format_attr fmt = {
					.attr = __ATTR(f, 0444, pmu_format_show, NULL),
					.mask = GENMASK_ULL(lsb + width - 1, lsb),
					.word = word,
				};
				struct attribute *list[] = { &fmt.attr.attr, NULL };
				u64 mask[PMU_FORMAT_NR_WORDS] = {};
				struct perf_event_attr attr = {};
				u64 *w = pmu_kunit_word(&attr, word);

				if (width == 1)
					snprintf(want, sizeof(want), "%s:%u\n",
						 words[word], lsb);
				else
					snprintf(want, sizeof(want), "%s:%u-%u\n",
						 words[word], lsb, lsb + width - 1);
				KUNIT_ASSERT_GT(test, pmu_format_show(NULL, &fmt.attr, buf), 0);
				KUNIT_ASSERT_STREQ(test, buf, want);
				mask[word] = fmt.mask;
				KUNIT_ASSERT_EQ(test, pmu_kunit_format_mask(list, word),
						fmt.mask);
				*w = fmt.mask;
				KUNIT_ASSERT_EQ(test, pmu_format_check(mask, &attr), 0);
				if (width < 64) {
					*w = ~fmt.mask;
					KUNIT_ASSERT_EQ(test, pmu_format_check(mask, &attr),
							-EINVAL);
				}
				/* the same bit in the next word is not the field's */
				*w = 0;
				*pmu_kunit_word(&attr, (word + 1) % PMU_FORMAT_NR_WORDS) =
					BIT_ULL(lsb);
				KUNIT_ASSERT_EQ(test, pmu_format_check(mask, &attr),
						-EINVAL);
			}
		}
	}
}

static bool test_event_shown(struct kunit *test, u32 variants,
			     const char *name)
{
	struct attribute **a;

	for (a = test_events; *a; a++)
		if (!strcmp((*a)->name, name))
			return pmu_event_visible(*a, variants) != 0;
	KUNIT_FAIL(test, "no event %s", name);
	return false;
}

static void pmu_format_test_variants(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, test_event_shown(test, 0, "mem_reads"));
	KUNIT_EXPECT_TRUE(test, test_event_shown(test, 0, "latency.scale"));
	KUNIT_EXPECT_FALSE(test, test_event_shown(test, 0, "only_v8"));
	KUNIT_EXPECT_TRUE(test, test_event_shown(test, V8, "only_v8"));
	KUNIT_EXPECT_FALSE(test, test_event_shown(test, V8, "only_v6"));
	KUNIT_EXPECT_TRUE(test, test_event_shown(test, V6, "only_v6"));
	KUNIT_EXPECT_TRUE(test, test_event_shown(test, V6, "both"));
	KUNIT_EXPECT_TRUE(test, test_event_shown(test, V8, "both"));
	KUNIT_EXPECT_FALSE(test, test_event_shown(test, BIT(5), "both"));
}

static void pmu_format_test_event_strings(struct kunit *test)
{
	const struct attribute_group g = { .name = "events",
					   .attrs = test_events };

	KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, NULL, &g, "latency"),
			   "event=0x4,node=1,edge\n");
	KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, NULL, &g,
						      "latency.unit"), "ns\n");
	KUNIT_EXPECT_STREQ(test, pmu_kunit_group_file(test, NULL, &g,
						      "latency.scale"), "1e-9\n");
}

/* One name per variant, terms that differ: what firmware versions need. */
static struct attribute *test_events_per_variant[] = {
	PMU_EVENT_VARIANT(idle, "event=0x1", V6),
	PMU_EVENT_VARIANT(idle, "event=0x2,node=?", V8),
	PMU_EVENT_VARIANT(idle.unit, "ns", V8),
	NULL,
};

static void pmu_format_test_tables_ok(struct kunit *test)
{
	pmu_kunit_check_tables(test, test_format, test_events);
	pmu_kunit_check_tables(test, test_format, test_events_per_variant);
}

/*
 * Tables that the self-check must refuse; each is checked on a fake test,
 * which must end failed.
 */
static struct attribute *bad_format_overlap[] = {
	PMU_FORMAT_FIELD(event, PMU_FORMAT_CONFIG, GENMASK_ULL(7, 0)),
	PMU_FORMAT_FIELD(umask, PMU_FORMAT_CONFIG, GENMASK_ULL(11, 4)),
	NULL,
};

static struct attribute *bad_format_twice[] = {
	PMU_FORMAT_FIELD(event, PMU_FORMAT_CONFIG, GENMASK_ULL(7, 0)),
	PMU_FORMAT_FIELD(event, PMU_FORMAT_CONFIG1, GENMASK_ULL(7, 0)),
	NULL,
};

static struct attribute *bad_format_name[] = {
	PMU_FORMAT_FIELD(ev.ent, PMU_FORMAT_CONFIG, GENMASK_ULL(7, 0)),
	NULL,
};

static struct attribute *bad_format_holes[] = {
	PMU_FORMAT_FIELD(event, PMU_FORMAT_CONFIG, 0x5),
	NULL,
};

static struct attribute *bad_format_empty[] = {
	PMU_FORMAT_FIELD(event, PMU_FORMAT_CONFIG, 0),
	NULL,
};

static struct attribute *bad_format_word[] = {
	PMU_FORMAT_FIELD(event, PMU_FORMAT_NR_WORDS, 0xf),
	NULL,
};

static struct attribute *bad_events_unknown[] = {
	PMU_EVENT(reads, "event=0x1,channel=?"),
	NULL,
};

static struct attribute *bad_events_too_big[] = {
	PMU_EVENT(reads, "event=0x10"),
	NULL,
};

static struct attribute *bad_events_alias_twice[] = {
	PMU_EVENT(reads, "starting_index=1,partition_id=2"),
	NULL,
};

static struct attribute *bad_events_value[] = {
	PMU_EVENT(reads, "event=zero"),
	NULL,
};

static struct attribute *bad_events_dup[] = {
	PMU_EVENT(reads, "event=0x1"),
	PMU_EVENT(reads, "event=0x2"),
	NULL,
};

static struct attribute *bad_events_dup_variant[] = {
	PMU_EVENT_VARIANT(reads, "event=0x1", V6 | V8),
	PMU_EVENT_VARIANT(reads, "event=0x2", V8),
	NULL,
};

static struct attribute *bad_events_orphan_unit[] = {
	PMU_EVENT(reads, "event=0x1"),
	PMU_EVENT(writes.unit, "ns"),
	NULL,
};

static struct attribute *bad_events_unit_variant[] = {
	PMU_EVENT_VARIANT(reads, "event=0x1", V6),
	PMU_EVENT(reads.scale, "2"),
	NULL,
};

static struct attribute *bad_events_suffix[] = {
	PMU_EVENT(reads, "event=0x1"),
	PMU_EVENT(reads.unt, "ns"),
	NULL,
};

static void pmu_format_test_tables_bad(struct kunit *test)
{
	static const struct {
		const char *what;
		struct attribute **format, **events;
	} bad[] = {
		{ "overlapping fields", bad_format_overlap, NULL },
		{ "a field declared twice", bad_format_twice, NULL },
		{ "a field name perf cannot parse", bad_format_name, NULL },
		{ "a field with a hole", bad_format_holes, NULL },
		{ "a field of no bits", bad_format_empty, NULL },
		{ "a field beyond the last config word", bad_format_word, NULL },
		{ "a term naming no field", test_format, bad_events_unknown },
		{ "a value too big for its field", test_format, bad_events_too_big },
		{ "one field given twice through an alias", test_format,
		  bad_events_alias_twice },
		{ "a value that is no number", test_format, bad_events_value },
		{ "an event declared twice", test_format, bad_events_dup },
		{ "an event declared twice for one variant", test_format,
		  bad_events_dup_variant },
		{ "a unit of no event", test_format, bad_events_orphan_unit },
		{ "a scale shown where its event is not", test_format,
		  bad_events_unit_variant },
		{ "an unknown suffix", test_format, bad_events_suffix },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct kunit fake;

		kunit_init_test(&fake, "pmu_format self-check of a bad table", NULL);
		pmu_kunit_check_tables(&fake, bad[i].format, bad[i].events);
		KUNIT_EXPECT_EQ_MSG(test, fake.status, KUNIT_FAILURE,
				    "self-check accepts %s", bad[i].what);
		kunit_cleanup(&fake);
	}
}

/* Masks that leave out a field's bits, or add bits of none. */
static const u64 bad_mask_missing[PMU_FORMAT_NR_WORDS] = {
	[PMU_FORMAT_CONFIG] = T_EVENT | T_NODE | T_EDGE,
	[PMU_FORMAT_CONFIG1] = T_QUALIFIER,
	[PMU_FORMAT_CONFIG2] = T_TOP | T_MCU,
};

static const u64 bad_mask_extra[PMU_FORMAT_NR_WORDS] = {
	[PMU_FORMAT_CONFIG] = T_EVENT | T_NODE | T_EDGE | T_INDEX,
	[PMU_FORMAT_CONFIG1] = T_QUALIFIER,
	[PMU_FORMAT_CONFIG2] = T_TOP | T_MCU | BIT_ULL(8),
};

static void pmu_format_test_mask_bad(struct kunit *test)
{
	static const struct {
		const char *what;
		const u64 *mask;
	} bad[] = {
		{ "a mask without a field", bad_mask_missing },
		{ "a mask with a bit of no field", bad_mask_extra },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct kunit fake;

		kunit_init_test(&fake, "pmu_format self-check of a bad mask", NULL);
		pmu_kunit_check_mask(&fake, test_format, bad[i].mask);
		KUNIT_EXPECT_EQ_MSG(test, fake.status, KUNIT_FAILURE,
				    "self-check accepts %s", bad[i].what);
		kunit_cleanup(&fake);
	}
}

static struct kunit_case pmu_format_test_cases[] = {
	KUNIT_CASE(pmu_format_test_strings),
	KUNIT_CASE(pmu_format_test_masks),
	KUNIT_CASE(pmu_format_test_check),
	KUNIT_CASE(pmu_format_test_config3),
	KUNIT_CASE(pmu_format_test_all_positions),
	KUNIT_CASE(pmu_format_test_variants),
	KUNIT_CASE(pmu_format_test_event_strings),
	KUNIT_CASE(pmu_format_test_tables_ok),
	KUNIT_CASE(pmu_format_test_tables_bad),
	KUNIT_CASE(pmu_format_test_mask_bad),
	{}
};

static struct kunit_suite pmu_format_test_suite = {
	.name = "pmu_format",
	.test_cases = pmu_format_test_cases,
};

kunit_test_suite(pmu_format_test_suite);

MODULE_DESCRIPTION("KUnit tests of the perf PMU event-encoding helper");
MODULE_LICENSE("GPL");
