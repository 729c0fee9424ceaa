/*
 * disasm.c - disassembly text for reports.
 *
 * Capstone 4.0.2 (Debian 12) knows ARMv8.0-8.2 but not LSE atomics, RCpc
 * loads, pointer authentication, BTI, MTE or the newer hints, it decodes
 * sb (0xd50330ff) as an msr, and it refuses the CONSTRAINED UNPREDICTABLE
 * register combinations that objdump prints.  Those words get text built
 * by a64_text.c from the decoder's fields; everything else goes through
 * Capstone, one word at a time (cs_disasm() stops at the first word it
 * cannot decode), with a few alias spellings brought in line with the Arm
 * ARM's preferred disassembly.  Words the decoder calls unallocated are
 * ".inst 0x%08x" whatever Capstone thinks of them, so the text never
 * contradicts the classification.
 */
#include <stdio.h>
#include <string.h>

#include <capstone/capstone.h>

#include "a64/internal.h"

static csh cs_handle;
static int cs_state;		/* 0 not opened, 1 open, -1 open failed */

void a64_disasm_release(void)
{
	if (cs_state == 1)
		cs_close(&cs_handle);
	cs_state = 0;
}

const char *a64_capstone_version(char *buf, size_t len)
{
	int major = 0, minor = 0;

	cs_version(&major, &minor);
	snprintf(buf, len, "%d.%d.%d (library %d.%d)", CS_VERSION_MAJOR, CS_VERSION_MINOR, CS_VERSION_EXTRA,
		 major, minor);
	return buf;
}

static int cs_ready(void)
{
	if (cs_state == 0) {
		if (cs_open(CS_ARCH_ARM64, CS_MODE_LITTLE_ENDIAN, &cs_handle) == CS_ERR_OK)
			cs_state = 1;
		else
			cs_state = -1;
	}
	return cs_state == 1;
}

/*
 * Capstone's spelling of a few aliases differs from the preferred
 * disassembly: ins is always shown as mov, and sshll/ushll by #0 as
 * sxtl/uxtl.  Rewrites mnem/ops in place.
 */
static void fix_alias(char *mnem, size_t mlen, char *ops)
{
	size_t n;

	if (!strcmp(mnem, "ins")) {
		snprintf(mnem, mlen, "mov");
		return;
	}
	if ((!strncmp(mnem, "sshll", 5) || !strncmp(mnem, "ushll", 5)) &&
	    (n = strlen(ops)) > 4 && !strcmp(ops + n - 4, ", #0")) {
		char u = mnem[0], two = mnem[5];	/* "sshll2" -> "sxtl2" */

		snprintf(mnem, mlen, "%cxtl%s", u, two == '2' ? "2" : "");
		ops[n - 4] = '\0';
	}
}

void a64_disasm(uint32_t word, uint64_t pc, char *buf, size_t len)
{
	struct a64_out o = { buf, len, 0 };
	struct a64_insn in;
	const struct a64_enc *e;
	uint8_t bytes[4];
	cs_insn *insn;
	size_t n;

	if (!buf || !len)
		return;
	buf[0] = '\0';
	if (a64_decode(word, pc, &in) < 0) {
		a64_put(&o, ".inst 0x%08x", word);
		return;
	}
	if (a64_text_own(&o, word, &in))
		return;
	bytes[0] = (uint8_t)word;
	bytes[1] = (uint8_t)(word >> 8);
	bytes[2] = (uint8_t)(word >> 16);
	bytes[3] = (uint8_t)(word >> 24);
	if (cs_ready() && (n = cs_disasm(cs_handle, bytes, 4, pc, 1, &insn)) > 0) {
		fix_alias(insn[0].mnemonic, sizeof(insn[0].mnemonic), insn[0].op_str);
		if (insn[0].op_str[0])
			a64_put(&o, "%s %s", insn[0].mnemonic, insn[0].op_str);
		else
			a64_put(&o, "%s", insn[0].mnemonic);
		cs_free(insn, n);
		return;
	}
	if (a64_text_fallback(&o, word, &in))
		return;
	/* allocated, but beyond both: say which family it is */
	e = a64_enc_lookup(word);
	a64_put(&o, ".inst 0x%08x // %s", word, e ? e->name : "?");
}
