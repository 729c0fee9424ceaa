/* bad_syntax.c - a workload that does not compile (tests/test_workload.c). */
#include <hotsim/workload.h>

int main(void)
{
	hotsim_op_begin("x")
	return 0;
}
