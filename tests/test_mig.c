/*
 * test_mig.c - the edit validation makes to a machine QEMU saved
 * (sim/vm/mig.c): VBAR_EL1 in the CPU's raw system-register arrays, found
 * by its index and checked in its array, never the same eight bytes in
 * guest RAM earlier in the stream. Synthetic streams; no QEMU needed.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vm/vm.h"

#define OLD 0xffff800080012800ULL	/* the boot CPU's vectors */
#define NEW 0xffff800080010800ULL	/* the modelled core's */

static size_t put64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
	return 8;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* "RAM" holding VBAR's index and OLD as a decoy, then the CPU's arrays:
 * be32 length, ascending indexes, values. *slot: where VBAR's value is. */
static size_t stream(uint8_t *m, size_t *slot, int with_cpu)
{
	static const uint64_t ids[] = { 0x603000000013c080ULL, HS_MIG_ID_VBAR_EL1, 0x603000000013de82ULL };
	size_t n = 0;

	memset(m, 0x5a, 64);
	n += 64;
	n += put64(m + n, HS_MIG_ID_VBAR_EL1);
	n += put64(m + n, 0);
	n += put64(m + n, OLD);
	if (!with_cpu)
		return n;
	memcpy(m + n, "\0\0\0\3", 4);
	n += 4;
	for (int i = 0; i < 3; i++)
		n += put64(m + n, ids[i]);
	for (int i = 0; i < 3; i++) {
		if (i == 1)
			*slot = n;
		n += put64(m + n, i == 1 ? OLD : 0x1234);
	}
	return n;
}

static void write_stream(const char *path, const uint8_t *m, size_t n)
{
	FILE *f = fopen(path, "wb");

	cr_assert(f);
	cr_assert_eq(fwrite(m, 1, n, f), n);
	fclose(f);
}

static void read_stream(const char *path, uint8_t *m, size_t n)
{
	FILE *f = fopen(path, "rb");

	cr_assert(f);
	cr_assert_eq(fread(m, 1, n, f), n);
	fclose(f);
}

Test(mig, vbar_set_in_the_cpu_arrays_only)
{
	uint8_t m[256], back[256];
	size_t slot = 0, n = stream(m, &slot, 1);
	char path[] = "/tmp/hotsim-test-mig-XXXXXX";
	int fd = mkstemp(path);

	cr_assert(fd >= 0);
	close(fd);
	write_stream(path, m, n);
	cr_assert_eq(hs_mig_set_sysreg(path, HS_MIG_ID_VBAR_EL1, OLD, NEW), 0);
	read_stream(path, back, n);
	cr_assert_eq(get64(back + slot), NEW);
	memcpy(back + slot, m + slot, 8);
	cr_assert(!memcmp(back, m, n), "only VBAR's value changes (the decoy in RAM stays)");
	/* recordings from one point share the machine: again is a no-op */
	cr_assert_eq(hs_mig_set_sysreg(path, HS_MIG_ID_VBAR_EL1, OLD, NEW), 0);
	read_stream(path, back, n);
	cr_assert_eq(get64(back + slot), NEW);
	unlink(path);
}

Test(mig, refused_without_the_cpu_arrays)
{
	uint8_t m[256];
	size_t slot = 0, n = stream(m, &slot, 0);
	char path[] = "/tmp/hotsim-test-mig-XXXXXX";
	int fd = mkstemp(path);

	cr_assert(fd >= 0);
	close(fd);
	write_stream(path, m, n);
	cr_assert_neq(hs_mig_set_sysreg(path, HS_MIG_ID_VBAR_EL1, OLD, NEW), 0);
	unlink(path);
}
