/*
 * never_reached.c - a workload whose marker is never reached: it exits
 * with status 3 first (tests/test_workload.c).
 */
#include <stdlib.h>

#include <hotsim/workload.h>

int main(int argc, char **argv)
{
	(void)argv;
	if (argc < 5)		/* /init runs it with no arguments */
		exit(3);
	for (;;) {
		hotsim_op_begin("late");
		hotsim_op_end();
	}
}
