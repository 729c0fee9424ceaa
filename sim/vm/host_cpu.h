/*
 * host_cpu.h - a QEMU on a host CPU of its own (host_cpu.c says why).
 */
#ifndef HOTSIM_VM_HOST_CPU_H
#define HOTSIM_VM_HOST_CPU_H

struct hs_host_cpu {
	int cpu;		/* the host CPU, -1 none */
	int lock;		/* its lock file, held while QEMU runs; -1 none */
};

/* Choose a host CPU no other hotsim's boot holds and hold it: waits for
 * one while every CPU has a boot, as long as a boot may take, then takes
 * the one this process runs on; never fails. */
void hs_host_cpu_take(struct hs_host_cpu *h);
/* In QEMU's child before exec: every thread it makes runs on h->cpu. */
void hs_host_cpu_pin(const struct hs_host_cpu *h);
void hs_host_cpu_release(struct hs_host_cpu *h);

#endif
