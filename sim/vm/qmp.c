/*
 * qmp.c - the QEMU Machine Protocol command hotsim sends: pmemsave (guest
 * RAM to a file). One JSON object per line; events interleave with
 * replies and are skipped.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "hotsim/err.h"
#include "vm/vm.h"

static int qmp_line(int fd, char *buf, size_t len, unsigned timeout_ms)
{
	size_t n = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char c;

		if (poll(&p, 1, (int)timeout_ms) <= 0)
			return hs_fail("QMP: no reply within %u ms", timeout_ms);
		if (read(fd, &c, 1) != 1)
			return hs_fail("QMP: connection closed");
		if (c == '\n')
			break;
		if (n + 1 < len)
			buf[n++] = c;
	}
	buf[n] = 0;
	return 0;
}

/* Send cmd, return the reply (not an event) in buf. */
static int qmp(struct hs_qemu *q, const char *cmd, char *buf, size_t len, unsigned timeout_ms)
{
	if (!q->qmp_ready) {
		/* the greeting, then capabilities negotiation */
		if (qmp_line(q->qmp, buf, len, 5000))
			return -1;
		q->qmp_ready = 1;
		if (qmp(q, "{\"execute\":\"qmp_capabilities\"}", buf, len, 5000))
			return -1;
	}
	if (send(q->qmp, cmd, strlen(cmd), MSG_NOSIGNAL) != (ssize_t)strlen(cmd) ||
	    send(q->qmp, "\n", 1, MSG_NOSIGNAL) != 1)
		return hs_fail("QMP: write: %s", strerror(errno));
	do {
		if (qmp_line(q->qmp, buf, len, timeout_ms))
			return -1;
	} while (strstr(buf, "\"event\""));
	if (strstr(buf, "\"error\""))
		return hs_fail("QMP: %.200s", buf);
	return 0;
}

int hs_qmp_pmemsave(struct hs_qemu *q, uint64_t pa, uint64_t size, const char *path)
{
	char cmd[600], reply[4096];

	snprintf(cmd, sizeof(cmd),
		 "{\"execute\":\"pmemsave\",\"arguments\":{\"val\":%llu,\"size\":%llu,\"filename\":\"%s\"}}",
		 (unsigned long long)pa, (unsigned long long)size, path);
	return qmp(q, cmd, reply, sizeof(reply), 60000);
}

/*
 * A machine saved while the debugger holds it records the run state
 * "debug", and QEMU 7.2 refuses to load that ("invalid runstate transition:
 * 'inmigrate' -> 'debug'"); the global-state section is sent for any state
 * but running and paused. Make the saved state "paused": the section is
 * "globalstate", instance and version ids, then a 32-bit size and the
 * state's name (VMSTATE_BUFFER of 100 bytes, migration/global_state.c).
 */
static int saved_paused(const char *path)
{
	static const char sec[] = "\x0bglobalstate";
	struct stat st;
	char *m, *hit;
	size_t at;
	int fd = open(path, O_RDWR | O_CLOEXEC), rc = 0;

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return hs_fail("%s: %s", path, strerror(errno));
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return hs_fail("%s: cannot map: %s", path, strerror(errno));
	hit = memmem(m, (size_t)st.st_size, sec, sizeof(sec) - 1);
	at = hit ? (size_t)(hit - m) + sizeof(sec) - 1 + 8 : 0;
	if (hit && at + 11 <= (size_t)st.st_size && !memcmp(m + at, "\0\0\0\x06" "debug", 10))
		memcpy(m + at, "\0\0\0\x07" "paused", 11);
	if (munmap(m, (size_t)st.st_size))
		rc = hs_fail("%s: %s", path, strerror(errno));
	return rc;
}

int hs_qmp_migrate(struct hs_qemu *q, const char *path)
{
	char cmd[600], reply[4096];
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	snprintf(cmd, sizeof(cmd),
		 "{\"execute\":\"migrate\",\"arguments\":{\"uri\":\"exec:cat > '%s'\"}}", path);
	if (qmp(q, cmd, reply, sizeof(reply), 10000))
		return -1;
	for (int i = 0; i < 6000; i++) {
		if (qmp(q, "{\"execute\":\"query-migrate\"}", reply, sizeof(reply), 10000))
			return -1;
		if (strstr(reply, "\"completed\""))
			return saved_paused(path);
		if (strstr(reply, "\"failed\""))
			return hs_fail("QMP: migration failed: %.200s", reply);
		nanosleep(&ts, NULL);
	}
	return hs_fail("QMP: saving the machine did not complete within 120 s");
}

int hs_qmp_wait_incoming(struct hs_qemu *q, unsigned timeout_ms)
{
	char reply[4096];
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	for (unsigned waited = 0; waited < timeout_ms; waited += 20) {
		if (qmp(q, "{\"execute\":\"query-status\"}", reply, sizeof(reply), 10000))
			return -1;
		if (!strstr(reply, "\"inmigrate\""))
			return 0;
		nanosleep(&ts, NULL);
	}
	return hs_fail("QMP: restoring the machine did not complete within %u s", timeout_ms / 1000);
}
