// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The function addr2line names an address after, from a file's DWARF: perf
 * names the frames of the stacks it unwinds so (its inline resolution puts
 * addr2line's outermost function in place of its own symbol).
 *
 * Of the subprograms whose ranges hold the address (inlined code is within
 * the one it is out of line in), addr2line (BFD's
 * lookup_address_in_function_table()) takes the one with the smallest
 * range, the last of those: an assembly file's DWARF has a subprogram for
 * each alias of a function (libc's clone3.S: __clone3, __GI___clone3,
 * clone3), and perf prints the last's name. The name is its linkage name,
 * else its name (a clone's, .constprop, is its origin's).
 *
 * Each compilation unit's subprograms are read once: their ranges in an
 * array per unit, looked through for each address (a unit holds a few
 * hundred functions at most; dwarf_getfuncs() for each address read its
 * DIEs again, a sixth of a --call-graph dwarf conversion).
 */
#include <dwarf.h>
#include <stdlib.h>

#include "dwarf-names.h"

#define MAX_UNITS	(1u << 16)
#define MAX_RANGES	(1u << 20)

/* A range of a subprogram */
struct fn_range {
	uint64_t	lo, hi;
	const char	*name;		/* in the DWARF's strings */
};

/* A compilation unit's subprograms */
struct unit {
	uint64_t	off;		/* its DIE offset */
	struct fn_range	*r;
	uint32_t	nr, cap;
};

struct p2d_dwarf_names {
	Dwarf		*dw;
	struct unit	*u;		/* sorted by @off */
	uint32_t	nr, cap;
	uint32_t	ranges;
};

/**
 * p2d_dwarf_names_new - the function names of a file's DWARF
 * @dw: the DWARF (kept: it must outlive the names)
 *
 * Returns the state, or NULL when out of memory.
 */
struct p2d_dwarf_names *p2d_dwarf_names_new(Dwarf *dw)
{
	struct p2d_dwarf_names *n = calloc(1, sizeof(*n));

	if (n)
		n->dw = dw;
	return n;
}

/**
 * p2d_dwarf_names_free - free it
 * @n: the state, may be NULL
 */
void p2d_dwarf_names_free(struct p2d_dwarf_names *n)
{
	uint32_t i;

	if (!n)
		return;
	for (i = 0; i < n->nr; i++)
		free(n->u[i].r);
	free(n->u);
	free(n);
}

static const char *fn_name(Dwarf_Die *fn)
{
	Dwarf_Attribute attr;

	if (dwarf_attr_integrate(fn, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(fn, DW_AT_MIPS_linkage_name, &attr) ||
	    dwarf_attr_integrate(fn, DW_AT_name, &attr))
		return dwarf_formstring(&attr);
	return NULL;
}

struct collect {
	struct p2d_dwarf_names	*n;
	struct unit		*u;
	int			err;
};

/* dwarf_getfuncs() callback: each range of a subprogram, in DIE order */
static int add_fn(Dwarf_Die *fn, void *arg)
{
	struct collect *c = arg;
	const char *name = fn_name(fn);
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	if (!name)
		return DWARF_CB_OK;
	while ((off = dwarf_ranges(fn, off, &base, &lo, &hi)) > 0) {
		struct unit *u = c->u;

		if (hi <= lo)
			continue;
		if (c->n->ranges >= MAX_RANGES)
			return DWARF_CB_ABORT;
		if (u->nr == u->cap) {
			uint32_t cap = u->cap ? u->cap * 2 : 16;
			struct fn_range *r = realloc(u->r, cap * sizeof(*r));

			if (!r) {
				c->err = -ENOMEM;
				return DWARF_CB_ABORT;
			}
			u->r = r;
			u->cap = cap;
		}
		u->r[u->nr++] = (struct fn_range){ lo, hi, name };
		c->n->ranges++;
	}
	return DWARF_CB_OK;
}

/* The unit at DIE offset @off, read now if it was not */
static struct unit *unit(struct p2d_dwarf_names *n, Dwarf_Die *cu, int *err)
{
	uint64_t off = dwarf_dieoffset(cu);
	uint32_t lo = 0, hi = n->nr;
	struct collect c;
	struct unit *u;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (n->u[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n->nr && n->u[lo].off == off)
		return &n->u[lo];
	if (n->nr >= MAX_UNITS)
		return NULL;
	if (n->nr == n->cap) {
		uint32_t cap = n->cap ? n->cap * 2 : 64;

		u = realloc(n->u, cap * sizeof(*u));
		if (!u) {
			*err = -ENOMEM;
			return NULL;
		}
		n->u = u;
		n->cap = cap;
	}
	memmove(&n->u[lo + 1], &n->u[lo], (n->nr - lo) * sizeof(*n->u));
	n->nr++;
	u = &n->u[lo];
	*u = (struct unit){ .off = off };
	c = (struct collect){ n, u, 0 };
	dwarf_getfuncs(cu, add_fn, &c, 0);
	*err = c.err;
	return u;
}

/**
 * p2d_dwarf_names_at - the name addr2line gives the function at an address
 * @n: the state
 * @vaddr: an address of the file
 * @err: set to -ENOMEM when memory runs out (else left alone)
 *
 * Returns the name (valid while the DWARF is), or NULL where no subprogram
 * holds @vaddr.
 */
const char *p2d_dwarf_names_at(struct p2d_dwarf_names *n, uint64_t vaddr, int *err)
{
	const struct fn_range *best = NULL;
	struct unit *u;
	Dwarf_Die cu;
	uint32_t i;

	if (!n || !dwarf_addrdie(n->dw, vaddr, &cu) || !(u = unit(n, &cu, err)))
		return NULL;
	for (i = 0; i < u->nr; i++) {
		const struct fn_range *r = &u->r[i];

		if (vaddr >= r->lo && vaddr < r->hi &&
		    (!best || r->hi - r->lo <= best->hi - best->lo))
			best = r;
	}
	return best ? best->name : NULL;
}
