/*
 * ping_pong.c - a round trip between two processes that write to each
 * other and block in read() (sched-pipe, unix.stream, ctx.ring), in six
 * sub-rows: the write() and read() system calls are the same entry
 * points whatever file they reach.
 */
#include "paths/path_internal.h"
#include "ping_pong.h"

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
 * One round trip, every record in one phase:
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
void hs_ping_pong_split(struct hs_split *s, struct hs_path_run *out, size_t begin, size_t end)
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
