/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fuzz targets' own tep_parse_event() and tep_parse_format(), taking
 * the place of libtraceevent's for the library compiled into the target:
 * a format the parser dies on is refused (tep-shield.h), and what the
 * parser loses on a damaged one is freed after each input (tep-losses.h),
 * unseen by LeakSanitizer. Included once, by each target's program, after
 * tep-losses.h and tep-shield.h.
 */
#ifndef P2D_TEP_STANDINS_H
#define P2D_TEP_STANDINS_H

void __lsan_disable(void);
void __lsan_enable(void);

enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
			       const char *sys);
enum tep_errno tep_parse_format(struct tep_handle *tep, struct tep_event **eventp,
				const char *buf, unsigned long size, const char *sys);

enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
			       const char *sys)
{
	enum tep_errno ret;

	if (tep_shield_refuses(tep, buf, size, sys))
		return TEP_ERRNO__READ_FORMAT_FAILED;
	__lsan_disable();
	tep_losses_enter();
	ret = tep_real_parse(tep, buf, size, sys);
	tep_losses_leave();
	__lsan_enable();
	if (!tep_shield_off)
		tep_parsed(buf, size);
	return ret;
}

/* The library parses the recording's formats with this one */
enum tep_errno tep_parse_format(struct tep_handle *tep, struct tep_event **eventp,
				const char *buf, unsigned long size, const char *sys)
{
	enum tep_errno ret;

	if (tep_shield_refuses(tep, buf, size, sys)) {
		if (eventp)
			*eventp = NULL;
		return TEP_ERRNO__READ_FORMAT_FAILED;
	}
	__lsan_disable();
	tep_losses_enter();
	ret = tep_real_parse_format(tep, eventp, buf, size, sys);
	tep_losses_leave();
	__lsan_enable();
	if (!tep_shield_off)
		tep_parsed(buf, size);
	return ret;
}

#endif /* P2D_TEP_STANDINS_H */
