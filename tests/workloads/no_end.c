/*
 * no_end.c - an operation that begins and does not end within any budget:
 * its end marker waits for a counter to wrap (tests/test_workload.c).
 */
#include <hotsim/workload.h>

int main(void)
{
	volatile unsigned long n = 0;

	hotsim_op_begin("forever");
	for (;;)
		if (++n == 0)
			hotsim_op_end();
	return 0;
}
