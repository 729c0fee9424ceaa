/*
 * sched_pipe.c - sched-pipe: one round trip of `perf bench sched pipe` (tools/perf/bench/
 * sched-pipe.c: two tasks, two pipes, one byte each way) between the boot
 * workload's processes, from the booted state only: A writes a byte,
 * B (asleep in read) is woken, A blocks in read and the CPU switches to B
 * (switch_mm: another process), B's read returns, B writes the byte back
 * and wakes A, B blocks in read, the switch back to A, and A's read
 * returns to user space. Sub-rows split every instruction into .user,
 * .write, .wakeup, .read, .switch and .return.
 */
#ifdef HS_USER_SIDE
#include "user_op.h"

/* A writes a byte to B through pipe a, B echoes it back through pipe b,
 * A reads it: perf bench sched pipe's round trip, between two processes */
#include <unistd.h>

static int a[2], b[2];
static char byte = 'x';

HS_SITE(hs_at_write);
HS_SITE(hs_at_read);

static void setup(struct hs_wl *w)
{
	(void)w;
	if (pipe(a) || pipe(b)) {
		hs_wl_say("HOTSIM workload: no pipes\n");
		return;
	}
	if (fork() == 0) {
		/* B: echo every byte back, forever */
		for (;;) {
			hs_sys_fn(a[0], (long)&byte, 1, SYS_read);
			hs_sys_fn(b[1], (long)&byte, 1, SYS_write);
		}
	}
}

static void warm(struct hs_wl *w)
{
	(void)w;
	hs_sys_fn(a[1], (long)&byte, 1, SYS_write);
	hs_sys_fn(b[0], (long)&byte, 1, SYS_read);
}

static void run(struct hs_wl *w, long ops)
{
	(void)w;
	for (long i = 0; i < ops; i++) {
		hs_at_write_fn(a[1], (long)&byte, 1, SYS_write);
		hs_at_read_fn(b[0], (long)&byte, 1, SYS_read);
	}
}

HS_USER_OP(pipe, .order = 30, .setup = setup, .warm = warm, .run = run);
#else
#include "paths/path_internal.h"
#include "paths/split.h"

/* booted: A at the svc of its write() (the workload's hs_at_write), B
 * asleep in read(); each op is a round trip, to A's read() returning */
const struct hs_boot_point hs_point_pipe = {
	.name = "pipe", .kind = HS_POINT_SVC, .site = "hs_at_write",
};

static const char *const landmarks[] = {
	"anon_pipe_write|pipe_write", "anon_pipe_read|pipe_read", "try_to_wake_up", "__schedule",
	"cpu_do_switch_mm|check_and_switch_context", "__switch_to", "finish_task_switch", NULL
};

enum { PP_USER, PP_WRITE, PP_WAKEUP, PP_READ_BLOCK, PP_SWITCH, PP_READ_RETURN };

/* What the syscall entered at record i is: write or read (the first of
 * their entry points it reaches). */
static int syscall_kind(const struct hs_split *s, size_t i, size_t end, uint64_t wr, uint64_t rd)
{
	for (; i < end; i++) {
		if (hs_split_pc(s, i) == wr)
			return PP_WRITE;
		if (hs_split_pc(s, i) == rd)
			return PP_READ_BLOCK;
	}
	return PP_WRITE;
}

/*
 * One round trip of the ping-pong, every record in one phase:
 *   .user         the two processes' own instructions
 *   .write        the write() syscalls, less the wakeups in them
 *   .wakeup       try_to_wake_up() of a reader asleep in read()
 *   .read         read() from its svc until it returns or blocks
 *   .switch       __schedule, from its entry to the other task's return
 *   .return       read() after its task was woken, to the eret
 * A switch resumes the other task in whatever phase it left (B starts
 * asleep in read()): with wakeup preemption A's write() is cut short by
 * the switch to B and finished after the switch back.
 */
static void pipe_split(struct hs_split *s, struct hs_path_run *out, size_t begin, size_t end)
{
	static const char *const names[] = { "user", "write", "wakeup", "read", "switch", "return" };
	static const char *const wr_names[] = { "ksys_write", "__arm64_sys_write", NULL };
	static const char *const rd_names[] = { "ksys_read", "__arm64_sys_read", NULL };
	const struct hs_sym *sched = hs_sym_lookup(s->img, "__schedule", NULL);
	const struct hs_sym *ttwu = hs_sym_lookup(s->img, "try_to_wake_up", NULL);
	const struct hs_sym *wr = hs_split_sym(s, wr_names), *rd = hs_split_sym(s, rd_names);
	unsigned switches = 0, wakeups = 0, in_switch = 0, task = 0;
	int cur = PP_USER, id[6], saved[2] = { PP_USER, PP_READ_RETURN };

	if (!sched || !ttwu || !wr || !rd || !hs_split_begin(out))
		return;
	for (int k = 0; k < 6; k++)
		id[k] = hs_split_part(out, names[k]);
	for (size_t i = begin; i < end; i++) {
		uint64_t pc = hs_split_pc(s, i);
		const struct a64_insn *in = hs_split_insn(s, i);

		if (pc < s->img->base) {
			out->part_of[i] = (uint8_t)id[PP_USER];
			if (a64_is_svc(in->word))
				cur = syscall_kind(s, i + 1, end, wr->addr, rd->addr);
			continue;
		}
		if (!in_switch && pc == sched->addr) {
			in_switch = 1;
			switches++;
			saved[task] = cur;
		}
		if (in_switch) {
			out->part_of[i] = (uint8_t)id[PP_SWITCH];
			if (in->cls == A64_C_RET && pc >= sched->addr && pc < sched->addr + sched->size) {
				in_switch = 0;
				task ^= 1;
				cur = saved[task] == PP_READ_BLOCK ? PP_READ_RETURN : saved[task];
			}
			continue;
		}
		if (pc == ttwu->addr) {
			size_t e = hs_split_call_end(s, i + 1, end);

			hs_split_mark(out, id[PP_WAKEUP], i, e);
			wakeups++;
			i = e - 1;
			continue;
		}
		out->part_of[i] = (uint8_t)id[cur == PP_USER ? PP_WRITE : cur];
	}
	hs_path_note(out, "one round trip: %u switches, %u wakeups", switches, wakeups);
}

static const struct hs_bench_def bench = {
	.benchmark = "perf bench sched pipe", .op = "one round trip is one op",
};

const struct hs_path_def hs_path_sched_pipe = {
	.name = "sched-pipe",
	.summary = "one perf bench sched pipe round trip between two processes (booted state only)",
	.kind = HS_PATH_BOOTED,
	.landmarks = landmarks,
	.boot = { .point = &hs_point_pipe, .split = pipe_split, .machine = 1,
		  .op = { .kind = HS_OP_SYSCALL, .end_site = "hs_at_read", .warmup = 8, .samples = 64 } },
	.bench = &bench,
};
#endif
