/*
 * guest_end.c - a boot that ends before the workload is known when it
 * ends, with the kernel's own reason, instead of at the boot timeout.
 *
 * For the whole boot, breakpoints sit on the kernel's ways of giving up:
 * panic() and vpanic() (6.12 on: panic() calls it, and some callers call it
 * directly) - a fatal oops ends there too ("Fatal exception", "Attempted
 * to kill init") - and machine_halt(), machine_power_off() and
 * machine_restart(). A guest that stops at one has ended: its log buffer
 * says why (klog.c; a kernel without a console has no other voice). panic()
 * prints its line after it is entered, so a panic is let run on to its
 * endless delay loop (__delay(), after the "end Kernel panic" line), or to
 * the restart panic=N asks for, before the log is read. A guest that reaches no breakpoint in time hangs: it
 * is stopped, and the answer says where it runs, by symbol, and what its
 * log holds.
 */
#include <stdio.h>
#include <string.h>

#include "hotsim/err.h"
#include "vm/vm.h"

/* how long a panicking guest may take from panic() to its delay loop */
#define SETTLE_MS 20000

static const struct { const char *sym, *what; int settle; } kinds[] = {
	{ "panic", "the kernel panicked", 1 },
	{ "vpanic", "the kernel panicked", 1 },
	{ "machine_halt", "the kernel halted", 0 },
	{ "machine_power_off", "the kernel powered off", 0 },
	{ "machine_restart", "the kernel restarted", 0 },
};

int hs_vm_ends_arm(struct hs_qemu *q, const struct hs_image *img, struct hs_vm_ends *e)
{
	const struct hs_sym *d = hs_sym_exact(img, "__delay");

	memset(e, 0, sizeof(*e));
	e->img = img;
	e->settle = d ? d->addr : 0;
	for (unsigned i = 0; i < HS_ARRAY_SIZE(kinds) && e->n < HS_ARRAY_SIZE(e->at); i++) {
		const struct hs_sym *s = hs_sym_exact(img, kinds[i].sym);

		if (!s)
			continue;
		if (hs_rsp_break(q, s->addr, 1))
			return -1;
		e->at[e->n] = s->addr;
		e->kind[e->n++] = i;
	}
	return 0;
}

/* The log, or why there is none to quote, into buf. */
static const char *log_of(struct hs_qemu *q, const struct hs_vm_ends *e, char *buf, size_t len)
{
	const char *l = hs_vm_klog(q, e->img, buf, len);

	if (!l)
		snprintf(buf, len, "(not read: %.200s)", hs_errmsg());
	else if (!l[0])
		snprintf(buf, len, "(empty)");
	return buf;
}

/* "; console: ..." when the console says what the log does not (a user
 * program's words: a line of its tail not in the log), else "". */
static const char *console_news(struct hs_qemu *q, const char *log, char *buf, size_t len)
{
	char tail[400], *save = NULL;
	int news = 0;

	snprintf(buf, len, "; console: %s", hs_qemu_console_tail(q, tail, sizeof(tail)));
	for (char *l = strtok_r(tail, "|", &save); l && !news; l = strtok_r(NULL, "|", &save)) {
		l += strspn(l, " ");
		if (*l == '[' && strchr(l, ']'))	/* a printk timestamp: "[    0.651014] " */
			l = strchr(l, ']') + 1 + (strchr(l, ']')[1] == ' ');
		if (strlen(l) > 4 && !strcmp(l + strlen(l) - 4, " ..."))
			l[strlen(l) - 4] = 0;	/* the tail's first (fatal) line */
		while (*l && l[strlen(l) - 1] == ' ')
			l[strlen(l) - 1] = 0;
		news = *l && !strstr(log, l);
	}
	if (!news)
		buf[0] = 0;
	return buf;
}

/* The guest stopped at end k: let a panic print its line, then say what
 * the kernel said. Always -2. */
static int ended(struct hs_qemu *q, const struct hs_vm_ends *e, unsigned k, const char *goal)
{
	char log[560], con[400], at[120];
	uint64_t pc;
	int rc = 0;

	/* on to its delay loop, or to the restart panic=N asks for */
	if (kinds[e->kind[k]].settle && e->settle) {
		for (unsigned i = 0; i < e->n; i++)
			if (kinds[e->kind[i]].settle)
				hs_rsp_break(q, e->at[i], 0);
		if (hs_rsp_break(q, e->settle, 1) == 0 && (rc = hs_rsp_continue(q, SETTLE_MS)) == -2)
			rc = hs_rsp_interrupt(q, &pc);
	}
	hs_addr_fmt(e->img, e->at[k], at, sizeof(at));
	if (rc == -3) {		/* it rebooted (panic=N): only the console is left */
		hs_fail("%s (%s) before reaching %s; console: %s", kinds[e->kind[k]].what, at, goal,
			hs_qemu_console_tail(q, con, sizeof(con)));
		return -2;
	}
	log_of(q, e, log, sizeof(log));		/* first: console_news compares with it */
	hs_fail("%s before reaching %s: %s%s", kinds[e->kind[k]].what, goal, log,
		console_news(q, log, con, sizeof(con)));
	return -2;
}

/* No breakpoint within timeout_s: stop the guest, say where it is. -2. */
static int hung(struct hs_qemu *q, const struct hs_vm_ends *e, unsigned timeout_s, const char *goal)
{
	char log[400], con[300], at[120];
	uint64_t pc;

	if (hs_rsp_interrupt(q, &pc)) {
		hs_fail("the guest did not reach %s within %u s, and does not stop", goal, timeout_s);
		return -2;
	}
	log_of(q, e, log, sizeof(log));
	hs_fail("the guest did not reach %s within %u s: it runs in %s (0x%llx); its log ends: %s%s", goal,
		timeout_s, hs_addr_fmt(e->img, pc, at, sizeof(at)), (unsigned long long)pc, log,
		console_news(q, log, con, sizeof(con)));
	return -2;
}

int hs_vm_run(struct hs_qemu *q, const struct hs_vm_ends *e, unsigned timeout_s, const char *goal, uint64_t *pc)
{
	char con[400];
	int rc = hs_rsp_continue(q, timeout_s * 1000);

	if (rc == -2)
		return hung(q, e, timeout_s, goal);
	if (rc) {
		hs_fail("%s before reaching %s; console: %s", hs_errmsg(), goal,
			hs_qemu_console_tail(q, con, sizeof(con)));
		return rc == -3 ? -2 : -1;
	}
	if (hs_rsp_pc(q, pc))
		return -1;
	for (unsigned k = 0; k < e->n; k++)
		if (e->at[k] == *pc)
			return ended(q, e, k, goal);
	return 0;
}
