/*
 * kmsg.c - the kernel's own words when a run dies in it: panic() and WARN()
 * messages formatted from the registers of the call, the source line of a
 * BUG()/WARN() trap from __bug_table, and stack-protector failures. A stop
 * in any of them reports that text, not an unrelated fault further down
 * (panic() would otherwise go on to IPI other CPUs and fault there).
 */
#include <stdio.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "elf/bugtable.h"
#include "hotsim/err.h"
#include "emu/runner_internal.h"

/* The i-th variadic argument: x1..x7, then the caller's stack (AAPCS64). */
static uint64_t arg(struct hs_runner *r, const uint64_t x[8], unsigned i)
{
	uint64_t v = 0;

	if (i < 8)
		return x[i];
	if (hs_rt_read64(r, hs_rt_reg(r, UC_ARM64_REG_SP) + 8ULL * (i - 8), &v))
		return 0;
	return v;
}

/* Append at most n bytes of the guest string at va. */
static size_t put_gstr(struct hs_runner *r, uint64_t va, char *out, size_t len, long prec)
{
	size_t i = 0;

	for (; i + 1 < len && (prec < 0 || (long)i < prec); i++) {
		const char *c = hs_rt_host(r, va + i, 1);

		if (!c || !*c)
			break;
		out[i] = (*c >= 32 && *c < 127) || *c == '\n' ? *c : '?';
	}
	if (i == 0 && !hs_rt_host(r, va, 1))
		return (size_t)snprintf(out, len, "(bad address 0x%llx)", (unsigned long long)va);
	return i;
}

/*
 * printf as the kernel's vsnprintf would do it for the common conversions
 * (d i u x X o c s p, with flags, width, precision and length); %pS-style
 * pointers print as symbol+offset. Output is one line: newlines become
 * spaces, a trailing one is dropped.
 */
size_t hs_kmsg_format(struct hs_runner *r, uint64_t fmt, const uint64_t x[8], unsigned first,
		      char *out, size_t len)
{
	char f[512], spec[32];
	size_t o = 0, n = put_gstr(r, fmt, f, sizeof(f), -1);
	unsigned ai = first;

	f[n] = 0;
	/* the kernel's KERN_<level> prefix: \001 + digit */
	for (size_t i = 0; i < n && o + 1 < len; i++) {
		size_t s = i;
		int lng = 0;
		long prec = -1;
		uint64_t v;

		if (f[i] == 1 && i + 1 < n) {
			i++;
			continue;
		}
		if (f[i] != '%' || i + 1 >= n) {
			out[o++] = f[i] == '\n' ? ' ' : f[i];
			continue;
		}
		if (f[++i] == '%') {
			out[o++] = '%';
			continue;
		}
		while (i < n && strchr("-+ 0#", f[i]))
			i++;
		if (f[i] == '*')
			i++, ai++;
		while (i < n && f[i] >= '0' && f[i] <= '9')
			i++;
		if (f[i] == '.') {
			i++;
			if (f[i] == '*') {
				prec = (long)(int)arg(r, x, ai++);
				i++;
			} else {
				prec = 0;
				while (i < n && f[i] >= '0' && f[i] <= '9')
					prec = prec * 10 + (f[i++] - '0');
			}
		}
		while (i < n && strchr("hlzjt", f[i]))
			lng += f[i++] != 'h';
		if (i >= n)
			break;
		v = arg(r, x, ai++);
		switch (f[i]) {
		case 's':
			o += put_gstr(r, v, out + o, len - o, prec);
			break;
		case 'p': {
			char where[128];

			/* %pS, %ps, %pB ...: the kernel's extensions take letters */
			while (i + 1 < n && ((f[i + 1] >= 'a' && f[i + 1] <= 'z') ||
					     (f[i + 1] >= 'A' && f[i + 1] <= 'Z')))
				i++;
			o += (size_t)snprintf(out + o, len - o, "%s",
					      hs_addr_fmt(r->img, v, where, sizeof(where)));
			break;
		}
		case 'c':
			out[o++] = (char)v;
			break;
		case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': {
			/* the spec's flags, width and precision, then a 64-bit
			 * length for the host's printf */
			size_t k = 0;

			for (size_t j = s; j < i && k < sizeof(spec) - 4; j++)
				if (!strchr("hlzjt", f[j]))
					spec[k++] = f[j];
			spec[k++] = 'l';
			spec[k++] = 'l';
			spec[k++] = f[i];
			spec[k] = 0;
			if (!lng)	/* int-sized: the low 32 bits */
				v = f[i] == 'd' || f[i] == 'i' ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
			o += (size_t)snprintf(out + o, len - o, spec, (long long)v);
			break;
		}
		default:
			o += (size_t)snprintf(out + o, len - o, "%%%c", f[i]);
			break;
		}
		if (o >= len)
			o = len - 1;
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o < len ? o : len - 1] = 0;
	return o;
}

/* panic(fmt, ...) */
static int sh_panic(struct hs_runner *r, void *ctx, uint64_t x[8])
{
	char msg[384];

	(void)ctx;
	hs_kmsg_format(r, x[0], x, 1, msg, sizeof(msg));
	return hs_fail("kernel panic: \"%s\"", msg);
}

/* __warn_printk(fmt, ...): WARN(cond, fmt, ...) prints this, then traps */
static int sh_warn_printk(struct hs_runner *r, void *ctx, uint64_t x[8])
{
	(void)ctx;
	hs_kmsg_format(r, x[0], x, 1, r->warn_msg, sizeof(r->warn_msg));
	x[0] = 0;
	return 0;
}

/* __stack_chk_fail(): the canary of the caller's frame was overwritten */
static int sh_stack_chk_fail(struct hs_runner *r, void *ctx, uint64_t x[8])
{
	char where[128];

	(void)ctx, (void)x;
	return hs_fail("stack protector: __stack_chk_fail, stack corrupted in %s",
		       hs_addr_fmt(r->img, hs_rt_reg(r, UC_ARM64_REG_X30) - 4, where, sizeof(where)));
}

/* Every kernel has panic(); __warn_printk and __stack_chk_fail come with
 * CONFIG_BUG and CONFIG_STACKPROTECTOR. The runner also runs code that is
 * not a kernel (snippets, fixtures): what is absent has nothing to catch. */
int hs_kmsg_install(struct hs_runner *r)
{
	return hs_rt_shim(r, "panic", sh_panic, NULL, 0) ||
	       hs_rt_shim(r, "__warn_printk", sh_warn_printk, NULL, 0) ||
	       hs_rt_shim(r, "__stack_chk_fail", sh_stack_chk_fail, NULL, 0) ? -1 : 0;
}

void hs_kmsg_trap(struct hs_runner *r, uint64_t pc, const char *stack, char *out, size_t len)
{
	struct hs_bug b;
	char where[128];
	int known = hs_bug_find(r->img, r->mem, pc, &b) == 0;
	const char *kind = known && (b.flags & HS_BUGFLAG_WARNING) ? "WARNING" : "BUG";

	hs_addr_fmt(r->img, pc, where, sizeof(where));
	if (known && b.file)
		snprintf(out, len, "kernel %s at %s:%u (%s)%s%s%s%s%s", kind, b.file, b.line, where,
			 r->warn_msg[0] ? ": \"" : "", r->warn_msg, r->warn_msg[0] ? "\"" : "",
			 stack[0] ? ", called from " : "", stack);
	else
		snprintf(out, len, "kernel %s (brk #0x800) at %s%s%s%s%s%s",
			 known ? kind : "BUG()/WARN()", where, r->warn_msg[0] ? ": \"" : "",
			 r->warn_msg, r->warn_msg[0] ? "\"" : "", stack[0] ? ", called from " : "",
			 stack);
}
