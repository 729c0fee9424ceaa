/*
 * wfe_spin.c - a user workload of two processes passing a token through
 * a shared page, each waiting for it with wfe as a kernel spinlock does
 * (tests/test_booted.c, smp::a_spin_on_wfe_yields_the_turn).
 */
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <hotsim/workload.h>

static void wait_for(volatile int *token, int v)
{
	while (*token != v)
		__asm__ volatile("wfe");
}

int main(void)
{
	volatile int *token = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t peer;

	if (token == MAP_FAILED)
		return 1;
	if ((peer = fork()) == 0)
		for (;;) {
			wait_for(token, 1);
			*token = 2;
		}
	for (int i = 0; i < 300; i++) {
		hotsim_op_begin("pass");
		*token = 1;
		wait_for(token, 2);
		hotsim_op_end();
	}
	kill(peer, SIGKILL);
	return 0;
}
