/*
 * mdtable.h - checks that markdown holds well-formed GitHub tables: every
 * line that starts with '|' belongs to a table whose header row is followed
 * by a separator row (cells of ---, optionally :---:), and every row of a
 * table has the header's number of cells ("\|" inside a cell is text).
 */
#ifndef HOTSIM_TESTS_MDTABLE_H
#define HOTSIM_TESTS_MDTABLE_H

#include <stdio.h>
#include <string.h>

/* Cells of one row "| a | b |", or -1 when it does not start and end with '|'. */
static inline int md_cells(const char *l, size_t len)
{
	int pipes = 0;

	while (len && (l[len - 1] == ' ' || l[len - 1] == '\r'))
		len--;
	if (len < 2 || l[0] != '|' || l[len - 1] != '|' || l[len - 2] == '\\')
		return -1;
	for (size_t i = 0; i < len; i++)
		if (l[i] == '|' && (i == 0 || l[i - 1] != '\\'))
			pipes++;
	return pipes - 1;
}

static inline int md_separator(const char *l, size_t len)
{
	if (md_cells(l, len) < 1)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!strchr("|-: ", l[i]))
			return 0;
	return strstr(l, "---") != NULL && (size_t)(strstr(l, "---") - l) < len;
}

/* Count the tables and their body rows; 0, or -1 with why[] filled. */
static inline int md_tables(const char *md, int *tables, int *rows, char *why, size_t whylen)
{
	const char *l = md;
	int in = 0, cols = 0, lineno = 0;

	*tables = *rows = 0;
	while (*l) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		const char *next = e ? e + 1 : l + len;
		int n;

		lineno++;
		if (!len || l[0] != '|') {
			in = 0;
		} else if (!in) {
			const char *e2 = strchr(next, '\n');
			size_t len2 = e2 ? (size_t)(e2 - next) : strlen(next);

			cols = md_cells(l, len);
			if (cols < 1 || !md_separator(next, len2) || md_cells(next, len2) != cols) {
				snprintf(why, whylen, "line %d: a table row without a header and separator row: %.*s",
					 lineno, (int)(len < 120 ? len : 120), l);
				return -1;
			}
			(*tables)++;
			in = 1;
			next = e2 ? e2 + 1 : next + len2;
			lineno++;
		} else if ((n = md_cells(l, len)) != cols) {
			snprintf(why, whylen, "line %d: %d cells, the header has %d: %.*s", lineno, n, cols,
				 (int)(len < 120 ? len : 120), l);
			return -1;
		} else {
			(*rows)++;
		}
		l = next;
	}
	return 0;
}

#endif
