/*
 * rsp.c - the little of the GDB remote serial protocol hotsim needs from
 * QEMU's gdbstub: a breakpoint, continue, registers by name and memory. Register
 * numbers come from the target description QEMU sends (its system-register
 * feature numbers them at run time), so no number is assumed.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hotsim/err.h"
#include "vm/vm.h"

#define PKT_MAX 65536


static int send_raw(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = send(fd, s, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return hs_fail("gdbstub: write: %s", w ? strerror(errno) : "closed");
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

static int getc_timeout(int fd, unsigned timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	unsigned char c;
	int r = poll(&p, 1, (int)timeout_ms);

	if (r == 0)
		return -2;
	if (r < 0 || read(fd, &c, 1) != 1)
		return -1;
	return c;
}

static int send_packet(int fd, const char *data)
{
	char hdr[8];
	unsigned sum = 0;
	int c;

	for (const char *p = data; *p; p++)
		sum += (unsigned char)*p;
	snprintf(hdr, sizeof(hdr), "#%02x", sum & 0xff);
	if (send_raw(fd, "$", 1) || send_raw(fd, data, strlen(data)) || send_raw(fd, hdr, 3))
		return -1;
	/* the stub acknowledges with '+' */
	while ((c = getc_timeout(fd, 5000)) >= 0 && c != '+')
		if (c == '-' && (send_raw(fd, "$", 1) || send_raw(fd, data, strlen(data)) ||
				 send_raw(fd, hdr, 3)))
			return -1;
	return c == '+' ? 0 : hs_fail("gdbstub: no acknowledgement");
}

/* One packet's payload into buf (run-length encoding expanded). */
static int recv_packet(int fd, char *buf, size_t len, unsigned timeout_ms)
{
	size_t n = 0;
	int c;

	while ((c = getc_timeout(fd, timeout_ms)) >= 0 && c != '$')
		;
	if (c == -2)
		return -2;
	if (c < 0)
		return hs_fail("gdbstub: connection closed (the guest ended?)");
	while ((c = getc_timeout(fd, 5000)) >= 0 && c != '#') {
		if (c == '*' && n > 0) {	/* run-length: repeat the last char */
			int k = getc_timeout(fd, 5000) - 29;

			while (k-- > 0 && n + 1 < len)
				buf[n] = buf[n - 1], n++;
			continue;
		}
		if (n + 1 < len)
			buf[n++] = (char)c;
	}
	buf[n] = 0;
	getc_timeout(fd, 5000);
	getc_timeout(fd, 5000);
	return send_raw(fd, "+", 1);
}

static int transact(int fd, const char *cmd, char *reply, size_t len)
{
	if (send_packet(fd, cmd))
		return -1;
	return recv_packet(fd, reply, len, 10000) == 0 ? 0 : hs_fail("gdbstub: no reply to %s", cmd);
}

/* An XML document of the target description, fetched in chunks. */
static char *fetch_xml(int fd, const char *annex)
{
	char *doc = NULL, *reply = malloc(PKT_MAX), cmd[128];
	size_t len = 0;

	if (!reply)
		return NULL;
	for (;;) {
		snprintf(cmd, sizeof(cmd), "qXfer:features:read:%s:%zx,%x", annex, len, 4000);
		if (transact(fd, cmd, reply, PKT_MAX) || (reply[0] != 'm' && reply[0] != 'l')) {
			free(doc);
			free(reply);
			hs_fail("gdbstub: cannot read %s", annex);
			return NULL;
		}
		doc = realloc(doc, len + strlen(reply + 1) + 1);
		strcpy(doc + len, reply + 1);
		len += strlen(reply + 1);
		if (reply[0] == 'l')
			break;
	}
	free(reply);
	return doc;
}

static const char *attr(const char *tag, const char *name, char *buf, size_t len)
{
	char key[32];
	const char *p, *end = strchr(tag, '>');

	snprintf(key, sizeof(key), " %s=\"", name);
	p = strstr(tag, key);
	if (!p || (end && p > end))
		return NULL;
	p += strlen(key);
	snprintf(buf, len, "%.*s", (int)strcspn(p, "\""), p);
	return buf;
}

/* Walk a description: <reg> elements number on from the last regnum;
 * <xi:include href> pulls in another document. */
static int add_regs(struct hs_rsp_map *map, int fd, const char *annex, int *next)
{
	char *doc = fetch_xml(fd, annex), val[64];

	if (!doc)
		return -1;
	for (const char *p = doc; (p = strchr(p, '<')); p++) {
		if (!strncmp(p, "<xi:include", 11) && attr(p, "href", val, sizeof(val))) {
			if (add_regs(map, fd, val, next))
				return free(doc), -1;
		} else if (!strncmp(p, "<reg ", 5) && map->n < (int)HS_ARRAY_SIZE(map->r)) {
			if (attr(p, "regnum", val, sizeof(val)))
				*next = atoi(val);
			attr(p, "name", map->r[map->n].name, sizeof(map->r[0].name));
			map->r[map->n].bits = attr(p, "bitsize", val, sizeof(val)) ? atoi(val) : 64;
			map->r[map->n].num = (*next)++;
			map->n++;
		}
	}
	free(doc);
	return 0;
}

static int load_map(struct hs_qemu *q)
{
	int next = 0;

	if (q->map)
		return 0;
	if (!(q->map = hs_calloc(1, sizeof(*q->map))))
		return -1;
	if (add_regs(q->map, q->gdb, "target.xml", &next)) {
		free(q->map);
		q->map = NULL;
		return -1;
	}
	return 0;
}

static int ok_reply(struct hs_qemu *q, const char *cmd)
{
	char reply[64];

	if (transact(q->gdb, cmd, reply, sizeof(reply)))
		return -1;
	return strcmp(reply, "OK") ? hs_fail("gdbstub: %s refused (%s)", cmd, reply) : 0;
}

int hs_rsp_break(struct hs_qemu *q, uint64_t va, int on)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "%c0,%llx,4", on ? 'Z' : 'z', (unsigned long long)va);
	return ok_reply(q, cmd);
}

/* A stop reply: T/S is a stop, W/X the end of the guest (-3). "T05
 * thread:N;" names the CPU that stopped (QEMU's thread N is CPU N - 1);
 * QEMU then reads that CPU's registers. */
static int stopped(struct hs_qemu *q, const char *reply)
{
	const char *t = strstr(reply, "thread:");

	if (reply[0] == 'W' || reply[0] == 'X') {
		hs_fail("the guest ended (QEMU exited: %s)", reply);
		return -3;
	}
	if (reply[0] != 'T' && reply[0] != 'S')
		return hs_fail("gdbstub: unexpected stop reply %.40s", reply);
	q->stop_cpu = 0;
	if (t) {
		unsigned long n = strtoul(t + 7, NULL, 16);

		q->stop_cpu = n ? (unsigned)n - 1 : 0;
	}
	return 0;
}

int hs_rsp_cpu(struct hs_qemu *q, unsigned cpu)
{
	char cmd[32];

	snprintf(cmd, sizeof(cmd), "Hg%x", cpu + 1);
	return ok_reply(q, cmd);
}

int hs_rsp_continue(struct hs_qemu *q, unsigned timeout_ms)
{
	char reply[256];
	int rc;

	if (send_packet(q->gdb, "c"))
		return -1;
	rc = recv_packet(q->gdb, reply, sizeof(reply), timeout_ms);
	if (rc == -2)
		return -2;
	return rc ? -1 : stopped(q, reply);
}

int hs_rsp_resume(struct hs_qemu *q)
{
	return send_packet(q->gdb, "c");
}

int hs_rsp_wait(struct hs_qemu *q, unsigned timeout_ms)
{
	char reply[256];
	int rc = recv_packet(q->gdb, reply, sizeof(reply), timeout_ms);

	if (rc == -2)
		return -2;
	return rc ? -1 : stopped(q, reply);
}

static int find_reg(struct hs_qemu *q, const char *name)
{
	if (load_map(q))
		return -1;
	for (int i = 0; i < q->map->n; i++)
		if (!strcmp(q->map->r[i].name, name))
			return i;
	return -1;
}

static int hexbytes(const char *hex, uint8_t *out, size_t max)
{
	size_t n = strlen(hex) / 2;

	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		unsigned b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (uint8_t)b;
	}
	return (int)n;
}

int hs_rsp_reg(struct hs_qemu *q, const char *name, uint8_t *val)
{
	char cmd[32], reply[128];
	int k = find_reg(q, name);

	if (k < 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "p%x", q->map->r[k].num);
	if (transact(q->gdb, cmd, reply, sizeof(reply)) || reply[0] == 'E')
		return hs_fail("gdbstub: cannot read %s", name);
	return hexbytes(reply, val, 16);
}

int hs_rsp_reg64(struct hs_qemu *q, const char *name, uint64_t *v)
{
	uint8_t b[16] = { 0 };
	int n = hs_rsp_reg(q, name, b);

	if (n < 0)
		return hs_fail("gdbstub: QEMU has no register %s", name);
	*v = 0;
	for (int i = n < 8 ? n - 1 : 7; i >= 0; i--)
		*v = *v << 8 | b[i];
	return 0;
}

int hs_rsp_pc(struct hs_qemu *q, uint64_t *pc)
{
	return hs_rsp_reg64(q, "pc", pc);
}

int hs_rsp_write(struct hs_qemu *q, uint64_t va, const void *buf, size_t len)
{
	char *cmd;
	int rc;

	if (len > 2048)
		return hs_fail("gdbstub: write of %zu bytes at once", len);
	if (!(cmd = malloc(2 * len + 48)))
		return hs_fail("out of memory");
	int at = snprintf(cmd, 48, "M%llx,%zx:", (unsigned long long)va, len);
	for (size_t i = 0; i < len; i++)
		snprintf(cmd + at + 2 * i, 3, "%02x", ((const uint8_t *)buf)[i]);
	rc = ok_reply(q, cmd);
	free(cmd);
	return rc;
}

/* 'm' replies are hex, two characters a byte, in QEMU's 4096-byte packet */
#define READ_CHUNK 1024

int hs_rsp_read(struct hs_qemu *q, uint64_t va, void *buf, size_t len)
{
	char cmd[64], *reply = malloc(2 * READ_CHUNK + 16);

	if (!reply)
		return hs_fail("out of memory");
	for (size_t at = 0; at < len; at += READ_CHUNK) {
		size_t n = len - at < READ_CHUNK ? len - at : READ_CHUNK;

		snprintf(cmd, sizeof(cmd), "m%llx,%zx", (unsigned long long)(va + at), n);
		if (transact(q->gdb, cmd, reply, 2 * READ_CHUNK + 16) || reply[0] == 'E' ||
		    hexbytes(reply, (uint8_t *)buf + at, n) != (int)n) {
			free(reply);
			return hs_fail("gdbstub: cannot read guest memory at 0x%llx",
				       (unsigned long long)(va + at));
		}
	}
	free(reply);
	return 0;
}

int hs_rsp_interrupt(struct hs_qemu *q, uint64_t *pc)
{
	char reply[256];

	if (send_raw(q->gdb, "\x03", 1) || recv_packet(q->gdb, reply, sizeof(reply), 5000) ||
	    stopped(q, reply))
		return hs_fail("gdbstub: the guest does not stop");
	return hs_rsp_pc(q, pc);
}

int hs_rsp_set_reg64(struct hs_qemu *q, const char *name, uint64_t v)
{
	char cmd[80];
	int k = find_reg(q, name), at;

	if (k < 0)
		return hs_fail("gdbstub: QEMU has no register %s", name);
	at = snprintf(cmd, sizeof(cmd), "P%x=", q->map->r[k].num);
	for (int i = 0; i < q->map->r[k].bits / 8 && i < 8; i++)
		at += snprintf(cmd + at, sizeof(cmd) - (size_t)at, "%02x", (unsigned)(v >> (8 * i)) & 0xff);
	return ok_reply(q, cmd);
}

int hs_rsp_phys(struct hs_qemu *q, int on)
{
	return ok_reply(q, on ? "Qqemu.PhyMemMode:1" : "Qqemu.PhyMemMode:0");
}
