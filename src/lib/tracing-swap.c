// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tracepoint payloads of a recording made on a machine of the other byte
 * order. The trace.dat is written in this host's byte order (so version 7
 * and compression work; libtracecmd 1.3.1 writes broken big-endian version
 * 7 files), which means every field of every payload is swapped, guided by
 * the event's format: scalars by their size, array elements by their
 * element size, __data_loc / __rel_loc words and the elements of the
 * dynamic data they point to. Strings and char arrays stay as they are.
 * An event whose format libtraceevent could not parse cannot be swapped
 * safely, and is left out with a warning.
 */
#include <event-parse.h>

#include "tracing.h"

static void swap_elems(uint8_t *p, uint32_t bytes, unsigned int size)
{
	uint32_t i;

	for (i = 0; i + size <= bytes; i += size) {
		switch (size) {
		case 2:
			p2d_put16(p + i, p2d_get16(p + i, true));
			break;
		case 4:
			p2d_put32(p + i, p2d_get32(p + i, true), false);
			break;
		case 8:
			p2d_put64(p + i, p2d_get64(p + i, true), false);
			break;
		default:
			return;
		}
	}
}

static void swap_dynamic(const struct tep_format_field *f, uint8_t *buf, uint32_t len)
{
	uint32_t word, off, dlen;

	if (f->size != 4)
		return;
	word = p2d_get32(buf + f->offset, true);
	p2d_put32(buf + f->offset, word, false);
	off = word & 0xffff;
	dlen = word >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += (uint32_t)(f->offset + f->size);
	if (f->elementsize <= 1 || (f->flags & TEP_FIELD_IS_STRING) || off >= len)
		return;
	if (dlen > len - off)
		dlen = len - off;
	swap_elems(buf + off, dlen, f->elementsize);
}

static void swap_fields(const struct tep_format_field *f, uint8_t *buf, uint32_t len)
{
	for (; f; f = f->next) {
		if (f->offset < 0 || f->size <= 0 || (uint32_t)f->offset > len ||
		    (uint32_t)f->size > len - (uint32_t)f->offset)
			continue;
		if (f->flags & TEP_FIELD_IS_DYNAMIC)
			swap_dynamic(f, buf, len);
		else if (f->flags & TEP_FIELD_IS_ARRAY)
			swap_elems(buf + f->offset, (uint32_t)f->size, f->elementsize);
		else
			swap_elems(buf + f->offset, (uint32_t)f->size, (unsigned int)f->size);
	}
}

/**
 * p2d_swap_payload - convert a payload to this host's byte order
 * @tep: the recording's formats
 * @buf: payload, swapped in place
 * @len: its size
 *
 * Returns 0, or -ENOENT when the event's format is unknown or did not parse.
 */
int p2d_swap_payload(struct tep_handle *tep, uint8_t *buf, uint32_t len)
{
	struct tep_event *ev;

	if (len < 2)
		return -ENOENT;
	ev = tep_find_event(tep, p2d_get16(buf, true));
	if (!ev || (ev->flags & TEP_EVENT_FL_FAILED))
		return -ENOENT;
	swap_fields(ev->format.common_fields, buf, len);
	swap_fields(ev->format.fields, buf, len);
	return 0;
}
