/* no_markers.c - a workload with no marker (tests/test_workload.c). */
#include <unistd.h>

int main(void)
{
	for (int i = 0; i < 100; i++)
		getppid();
	return 0;
}
