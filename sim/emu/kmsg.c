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
 * One hs_kmsg_format() call: the format (copied from the guest) and where
 * it is read, the output and where it is written, the next variadic
 * argument.
 */
struct kfmt {
	struct hs_runner *r;
	const uint64_t *x;
	char f[512];
	size_t n, i;		/* format length, read position */
	char *out;
	size_t len, o;		/* output size, write position */
	unsigned ai;		/* the next argument */
};

/* A conversion's spec: %[flags][width][.precision][length]conversion */
struct kconv {
	size_t start;		/* the '%' */
	long prec;		/* -1: none */
	int lng;		/* how many l, z, j, t (not h): nonzero is 64-bit */
};

/*
 * From just after the '%' to the conversion character (left at k->i);
 * a '*' width is skipped over, a '*' precision read. 0 when the format
 * ends first.
 */
static int read_spec(struct kfmt *k, struct kconv *c)
{
	const char *f = k->f;

	while (k->i < k->n && strchr("-+ 0#", f[k->i]))
		k->i++;
	if (f[k->i] == '*')
		k->i++, k->ai++;
	while (k->i < k->n && f[k->i] >= '0' && f[k->i] <= '9')
		k->i++;
	if (f[k->i] == '.') {
		k->i++;
		if (f[k->i] == '*') {
			c->prec = (long)(int)arg(k->r, k->x, k->ai++);
			k->i++;
		} else {
			c->prec = 0;
			while (k->i < k->n && f[k->i] >= '0' && f[k->i] <= '9')
				c->prec = c->prec * 10 + (f[k->i++] - '0');
		}
	}
	while (k->i < k->n && strchr("hlzjt", f[k->i]))
		c->lng += f[k->i++] != 'h';
	return k->i < k->n;
}

/* %p and the kernel's %pS, %ps, %pB ...: symbol+offset */
static void put_pointer(struct kfmt *k, uint64_t v)
{
	char where[128];

	/* the kernel's extensions take letters */
	while (k->i + 1 < k->n && ((k->f[k->i + 1] >= 'a' && k->f[k->i + 1] <= 'z') ||
				   (k->f[k->i + 1] >= 'A' && k->f[k->i + 1] <= 'Z')))
		k->i++;
	k->o += (size_t)snprintf(k->out + k->o, k->len - k->o, "%s",
				 hs_addr_fmt(k->r->img, v, where, sizeof(where)));
}

/* d i u x X o: the spec's flags, width and precision, then a 64-bit length
 * for the host's printf */
static void put_integer(struct kfmt *k, const struct kconv *c, uint64_t v)
{
	char spec[32], conv = k->f[k->i];
	size_t n = 0;

	for (size_t j = c->start; j < k->i && n < sizeof(spec) - 4; j++)
		if (!strchr("hlzjt", k->f[j]))
			spec[n++] = k->f[j];
	spec[n++] = 'l';
	spec[n++] = 'l';
	spec[n++] = conv;
	spec[n] = 0;
	if (!c->lng)	/* int-sized: the low 32 bits */
		v = conv == 'd' || conv == 'i' ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
	k->o += (size_t)snprintf(k->out + k->o, k->len - k->o, spec, (long long)v);
}

/* The conversion at k->i, of the next argument */
static void put_conversion(struct kfmt *k, const struct kconv *c)
{
	uint64_t v = arg(k->r, k->x, k->ai++);

	switch (k->f[k->i]) {
	case 's':
		k->o += put_gstr(k->r, v, k->out + k->o, k->len - k->o, c->prec);
		break;
	case 'p':
		put_pointer(k, v);
		break;
	case 'c':
		k->out[k->o++] = (char)v;
		break;
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
		put_integer(k, c, v);
		break;
	default:
		k->o += (size_t)snprintf(k->out + k->o, k->len - k->o, "%%%c", k->f[k->i]);
		break;
	}
	if (k->o >= k->len)
		k->o = k->len - 1;
}

/*
 * printf as the kernel's vsnprintf would do it for the common conversions
 * (d i u x X o c s p, with flags, width, precision and length); %pS-style
 * pointers print as symbol+offset. Output is one line: newlines become
 * spaces, a trailing one is dropped.
 */
static size_t hs_kmsg_format(struct hs_runner *r, uint64_t fmt, const uint64_t x[8], unsigned first,
			     char *out, size_t len)
{
	struct kfmt k = { .r = r, .x = x, .out = out, .len = len, .ai = first };

	k.n = put_gstr(r, fmt, k.f, sizeof(k.f), -1);
	k.f[k.n] = 0;
	for (k.i = 0; k.i < k.n && k.o + 1 < len; k.i++) {
		struct kconv c = { .start = k.i, .prec = -1 };

		/* the kernel's KERN_<level> prefix: \001 + digit */
		if (k.f[k.i] == 1 && k.i + 1 < k.n) {
			k.i++;
			continue;
		}
		if (k.f[k.i] != '%' || k.i + 1 >= k.n) {
			out[k.o++] = k.f[k.i] == '\n' ? ' ' : k.f[k.i];
			continue;
		}
		if (k.f[++k.i] == '%') {
			out[k.o++] = '%';
			continue;
		}
		if (!read_spec(&k, &c))
			break;
		put_conversion(&k, &c);
	}
	while (k.o && out[k.o - 1] == ' ')
		k.o--;
	out[k.o < len ? k.o : len - 1] = 0;
	return k.o;
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
