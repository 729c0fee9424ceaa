/*
 * cgroup.c - the cgroups a workload can run in (cgroup.h): where systemd
 * puts a login shell, with what it enables above it. Sources: systemd's
 * NEWS ("CHANGES WITH 252": "The cpu controller is delegated to user
 * manager units by default") and its units/user@.service.in
 * ("Delegate=pids memory cpu"; Debian 12's /lib/systemd/system/user@.service,
 * systemd 252.38, says the same), and its defaults since 238 (NEWS,
 * "CHANGES WITH 238"): memory and task accounting on for every unit, and
 * with them the memory and pids controllers. pam_systemd puts a login
 * (console or ssh) in session-N.scope of user-UID.slice; to delegate cpu to
 * user@UID.service, its sibling, systemd enables cpu in user-UID.slice and
 * every slice above, so the session's scope has it too.
 */
#include <string.h>

#include "hotsim/cgroup.h"

const struct hs_cgroup hs_cgroups[] = {
	{ "session", "user.slice/user-0.slice/session-1.scope", "cpu,memory,pids",
	  "root's login session under systemd 252 or later (Debian 12, Yocto scarthgap's 255): logind's scope in "
	  "the user's slice; memory and pids for systemd's default accounting, cpu because user@.service "
	  "delegates it" },
	{ "session-pre252", "user.slice/user-0.slice/session-1.scope", "memory,pids",
	  "root's login session under systemd 238 to 251 (Debian 11's 247): memory and pids accounting, no cpu "
	  "controller" },
	{ NULL, NULL, NULL, NULL }
};

const struct hs_cgroup *hs_cgroup_find(const char *name)
{
	for (const struct hs_cgroup *c = hs_cgroups; name && c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}
