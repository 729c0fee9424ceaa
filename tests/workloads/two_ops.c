/*
 * two_ops.c - a user workload with two marked operations (tests/test_workload.c):
 * getppid() alone, as syscall.getppid is, and getppid() + getpid().
 */
#include <sys/syscall.h>
#include <unistd.h>

#include <hotsim/workload.h>

int main(void)
{
	for (int i = 0; i < 2000; i++)		/* warm the syscalls */
		syscall(SYS_getppid);
	for (int i = 0; i < 200; i++) {
		hotsim_op_begin("ppid");
		syscall(SYS_getppid);
		hotsim_op_end();
	}
	for (int i = 0; i < 200; i++) {
		hotsim_op_begin("both");
		syscall(SYS_getppid);
		syscall(SYS_getpid);
		hotsim_op_end();
	}
	return 0;
}
