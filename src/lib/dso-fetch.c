// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Symbol servers (--debuginfod, off by default): the executables and the
 * separate debug files of build ids that are not here, fetched from the
 * servers of $DEBUGINFOD_URLS with elfutils' debuginfod client, as gdb and
 * perf fetch them. dso-file.c asks only after its own places, and holds
 * what comes to the same checks as a file found here (a regular file, an
 * ELF file of the build id asked).
 *
 * libdebuginfod is loaded (dlopen) by the first conversion that asks for
 * it, as libdw loads it: it brings libcurl and its TLS, HTTP/2, LDAP and
 * Kerberos libraries, which a conversion without the option does not map.
 * One client per conversion, made at the first question and ended with
 * the conversion. Each build id is asked once for each kind of file: the
 * answer (the file in the client's cache, or none) is remembered.
 *
 * Time: the client waits 90 s for a server to send, and tries twice more
 * (elfutils' DEBUGINFOD_TIMEOUT and DEBUGINFOD_RETRY_LIMIT): a server that
 * accepts connections and never answers would stall a conversion for
 * minutes, for each file. Here a fetch is given up, through the client's
 * progress callback, when no server has begun to send within WAIT seconds
 * or a download has not grown for as long (WAIT: $DEBUGINFOD_TIMEOUT, else
 * 10; 0 or less: never), and once a fetch has failed otherwise than for
 * the file's absence (given up, connection refused, host unreachable,
 * reset), nothing more is asked in that conversion: dead servers cost one
 * wait, not one per file. elfutils (0.188) takes a fetch given up for a
 * file the servers do not have, and leaves in its cache the empty file
 * that stands for one, not asked again for 10 minutes (cache_miss_s): that
 * empty file is removed, so that the next conversion asks again.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_DEBUGINFOD
#include <elfutils/debuginfod.h>
#endif

#include "dso.h"
#include "named-file.h"

#ifdef HAVE_DEBUGINFOD

#define WAIT_DEFAULT	10	/* seconds without data before a fetch is given up */
#define LIBDEBUGINFOD	"libdebuginfod.so.1"

/* libdebuginfod's functions, loaded once for the process (never unloaded) */
static struct {
	__typeof__(&debuginfod_begin)		begin;
	__typeof__(&debuginfod_end)		end;
	__typeof__(&debuginfod_find_executable)	find_executable;
	__typeof__(&debuginfod_find_debuginfo)	find_debuginfo;
	__typeof__(&debuginfod_set_progressfn)	set_progressfn;
	__typeof__(&debuginfod_set_user_data)	set_user_data;
	__typeof__(&debuginfod_get_user_data)	get_user_data;
	__typeof__(&debuginfod_get_url)		get_url;
	char					why[160];	/* when not loaded */
} dl;
static pthread_once_t dl_once = PTHREAD_ONCE_INIT;

static void *dl_sym(void *h, const char *name)
{
	void *p = dlsym(h, name);

	if (!p && !dl.why[0])
		snprintf(dl.why, sizeof(dl.why), "%s has no %s", LIBDEBUGINFOD, name);
	return p;
}

static void dl_load(void)
{
	void *h = dlopen(LIBDEBUGINFOD, RTLD_NOW | RTLD_LOCAL);
	const char *err;

	if (!h) {
		err = dlerror();
		snprintf(dl.why, sizeof(dl.why), "%s", err ? err : LIBDEBUGINFOD);
		return;
	}
	dl.end = dl_sym(h, "debuginfod_end");
	dl.find_executable = dl_sym(h, "debuginfod_find_executable");
	dl.find_debuginfo = dl_sym(h, "debuginfod_find_debuginfo");
	dl.set_progressfn = dl_sym(h, "debuginfod_set_progressfn");
	dl.set_user_data = dl_sym(h, "debuginfod_set_user_data");
	dl.get_user_data = dl_sym(h, "debuginfod_get_user_data");
	dl.get_url = dl_sym(h, "debuginfod_get_url");
	/* set last: it says all are there */
	if (!dl.why[0])
		dl.begin = dl_sym(h, "debuginfod_begin");
}

/* A build id asked for */
struct answer {
	struct p2d_bid		bid;
	enum p2d_fetch_kind	kind;
	char			*path;	/* the file, in the client's cache; NULL: none */
};

/*
 * struct p2d_fetch - the symbol servers of one conversion
 * @diag: where failures are told
 * @cancel: the caller's &p2d_options cancel, or NULL
 * @client: elfutils' client, NULL until the first question
 * @answers: the build ids asked, @nr of them (room for @cap)
 * @wait: seconds without data before a fetch is given up; 0: never
 * @stopped: nothing more is asked
 * @gave_up: the fetch under way was given up for time
 * @last: when the fetch under way began, or its download last grew
 * @bytes: the bytes it had then (-1: no server sending yet)
 */
struct p2d_fetch {
	struct p2d_diag			*diag;
	const volatile sig_atomic_t	*cancel;
	debuginfod_client		*client;
	struct answer			*answers;
	size_t				nr;
	size_t				cap;
	long				wait;
	bool				stopped;
	bool				gave_up;
	double				last;
	long				bytes;
};

static const char *kind_name(enum p2d_fetch_kind kind)
{
	return kind == P2D_FETCH_EXECUTABLE ? "executable" : "debug file";
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The client's progress callback, about once a second while it fetches:
 * @a counts the calls (1, 2, ...) until a server sends, then the bytes
 * received. Whether one sends is told by @a alone, growing otherwise than
 * by one from a call to the next: elfutils 0.192 names the server it asks
 * (debuginfod_get_url()) before any answers, so a server that never
 * answers looked like a download that grows by a byte a second (and a
 * cache clean calls with counts of files first). Non-zero gives the fetch
 * up.
 */
static int progress(debuginfod_client *c, long a, long b)
{
	struct p2d_fetch *f = dl.get_user_data(c);
	double now = seconds();

	(void)b;
	if (!f)
		return 0;
	if (f->cancel && *f->cancel) {
		f->stopped = true;
		return 1;
	}
	if (a != f->bytes && a != f->bytes + 1)
		f->last = now;
	f->bytes = a;
	if (f->wait <= 0 || now - f->last < (double)f->wait)
		return 0;
	f->gave_up = true;
	return 1;
}

/**
 * p2d_fetch_new - the symbol servers of a conversion (--debuginfod)
 * @diag: where failures are told (kept)
 * @cancel: polled while a file is fetched (&p2d_options cancel), or NULL
 * @out: set to them
 *
 * They are those of $DEBUGINFOD_URLS, as for every user of elfutils'
 * client: without it, a warning, and nothing is fetched.
 *
 * Returns 0, -ENOMEM, or -EOPNOTSUPP (an error told) when libdebuginfod
 * cannot be loaded or the library was built without it.
 */
int p2d_fetch_new(struct p2d_diag *diag, const volatile sig_atomic_t *cancel,
		  struct p2d_fetch **out)
{
	const char *urls = getenv(DEBUGINFOD_URLS_ENV_VAR);
	const char *timeout = getenv(DEBUGINFOD_TIMEOUT_ENV_VAR);
	struct p2d_fetch *f;

	*out = NULL;
	pthread_once(&dl_once, dl_load);
	if (!dl.begin)
		return p2d_error(diag, P2D_NO_OFFSET, -EOPNOTSUPP, "the debuginfod option: not available:"
				 " %s (Debian: libdebuginfod1)", dl.why);
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->diag = diag;
	f->cancel = cancel;
	/* as the client reads it (atoi) */
	f->wait = timeout ? atoi(timeout) : WAIT_DEFAULT;
	if (!urls || !urls[strspn(urls, " \t\n")]) {
		p2d_warn(diag, P2D_NO_OFFSET, "the debuginfod option: DEBUGINFOD_URLS is not set (the"
			 " servers to ask, as for gdb and perf): nothing can be fetched");
		f->stopped = true;
	}
	*out = f;
	return 0;
}

/**
 * p2d_fetch_free - end the client and forget the answers
 * @f: the symbol servers, may be NULL
 */
void p2d_fetch_free(struct p2d_fetch *f)
{
	size_t i;

	if (!f)
		return;
	if (f->client)
		dl.end(f->client);
	for (i = 0; i < f->nr; i++)
		free(f->answers[i].path);
	free(f->answers);
	free(f);
}

static struct answer *find(struct p2d_fetch *f, enum p2d_fetch_kind kind,
			   const struct p2d_bid *bid)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		if (f->answers[i].kind == kind && f->answers[i].bid.size == bid->size &&
		    !memcmp(f->answers[i].bid.id, bid->id, bid->size))
			return &f->answers[i];
	return NULL;
}

static struct answer *add(struct p2d_fetch *f, enum p2d_fetch_kind kind,
			  const struct p2d_bid *bid)
{
	struct answer *a;
	size_t cap;

	if (f->nr == f->cap) {
		cap = f->cap ? 2 * f->cap : 16;
		a = realloc(f->answers, cap * sizeof(*a));
		if (!a)
			return NULL;
		f->answers = a;
		f->cap = cap;
	}
	a = &f->answers[f->nr++];
	a->bid = *bid;
	a->kind = kind;
	a->path = NULL;
	return a;
}

/* The client, made at the first question; false when it cannot be */
static bool client(struct p2d_fetch *f)
{
	if (f->client)
		return true;
	f->client = dl.begin();
	if (!f->client) {
		p2d_warn(f->diag, P2D_NO_OFFSET, "the debuginfod option: elfutils' debuginfod client does"
			 " not start: nothing is fetched");
		f->stopped = true;
		return false;
	}
	dl.set_user_data(f->client, f);
	dl.set_progressfn(f->client, progress);
	return true;
}

/*
 * The bytes of @bid to ask for: perf pads an id shorter than its 20 bytes
 * with zeros (an old recording does not say its size), and the ids of 16
 * bytes (md5, uuid) are the others in use
 */
static int id_size(const struct p2d_bid *bid)
{
	static const uint8_t zero[4];

	if (bid->size == 20 && !memcmp(bid->id + 16, zero, sizeof(zero)))
		return 16;
	return bid->size;
}

/* The client's cache, as elfutils finds it; NULL when out of memory */
static char *cache_dir(void)
{
	const char *env = getenv(DEBUGINFOD_CACHE_PATH_ENV_VAR), *home = getenv("HOME");
	const char *xdg = getenv("XDG_CACHE_HOME");
	struct stat st;
	char *dir;

	if (env && *env)
		return strdup(env);
	if (!home)
		home = "/";
	if (asprintf(&dir, "%s/.debuginfod_client_cache", home) < 0)
		return NULL;
	if (!stat(dir, &st))
		return dir;
	free(dir);
	if (xdg && *xdg)
		return asprintf(&dir, "%s/debuginfod_client", xdg) < 0 ? NULL : dir;
	return asprintf(&dir, "%s/.cache/debuginfod_client", home) < 0 ? NULL : dir;
}

/* A fetch given up: the client's mark of a file the servers do not have goes */
static void forget_miss(const struct answer *a, const char *hex)
{
	char *dir = cache_dir(), *path;
	struct stat st;

	if (!dir || asprintf(&path, "%s/%s/%s", dir, hex,
			     a->kind == P2D_FETCH_EXECUTABLE ? "executable" : "debuginfo") < 0) {
		free(dir);
		return;
	}
	if (!lstat(path, &st) && S_ISREG(st.st_mode) && !st.st_size && !unlink(path)) {
		*strrchr(path, '/') = '\0';
		rmdir(path);	/* when empty, as the client leaves it */
	}
	free(path);
	free(dir);
}

/* @a's fetch failed with @err */
static void failed(struct p2d_fetch *f, const struct answer *a, const char *hex, int err)
{
	/* the client's own DEBUGINFOD_TIMEOUT ran out (curl's timer) */
	if (err == -ETIME && !f->stopped)
		f->gave_up = true;
	if (f->stopped || f->gave_up)
		forget_miss(a, hex);
	if (f->stopped)		/* the caller cancelled the conversion */
		return;
	if (f->gave_up) {
		f->stopped = true;
		p2d_warn(f->diag, P2D_NO_OFFSET, "the debuginfod option: no server of DEBUGINFOD_URLS"
			 " sent the %s of build id %s within %ld s (DEBUGINFOD_TIMEOUT): nothing"
			 " more is fetched", kind_name(a->kind), hex, f->wait);
	} else if (err == -ENOENT || err == -EFBIG) {
		p2d_info(f->diag, "debuginfod: no %s of build id %s%s", kind_name(a->kind), hex,
			 err == -EFBIG ? " (larger than DEBUGINFOD_MAXSIZE)" : "");
	} else {
		f->stopped = true;
		p2d_warn(f->diag, P2D_NO_OFFSET, "the debuginfod option: the %s of build id %s cannot be"
			 " fetched from DEBUGINFOD_URLS: %s: nothing more is fetched",
			 kind_name(a->kind), hex, strerror(-err));
	}
}

/* Ask the servers for @a */
static int ask(struct p2d_fetch *f, struct answer *a, char **path)
{
	char hex[2 * P2D_BUILD_ID_MAX + 1], *got = NULL;
	int size = id_size(&a->bid), fd;
	struct stat st;

	p2d_build_id_hex(a->bid.id, (uint8_t)size, hex);
	f->gave_up = false;
	f->bytes = -1;
	f->last = seconds();
	if (a->kind == P2D_FETCH_EXECUTABLE)
		fd = dl.find_executable(f->client, a->bid.id, size, &got);
	else
		fd = dl.find_debuginfo(f->client, a->bid.id, size, &got);
	if (fd < 0) {
		free(got);
		failed(f, a, hex, fd);
		return -ENOENT;
	}
	if (!got || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		p2d_warn(f->diag, P2D_NO_OFFSET, "the debuginfod option: the %s of build id %s, %s, is"
			 " not a regular file: not used", kind_name(a->kind), hex,
			 got ? got : "unnamed");
		close(fd);
		free(got);
		return -ENOENT;
	}
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	p2d_info(f->diag, "debuginfod: the %s of build id %s: %s", kind_name(a->kind), hex, got);
	a->path = got;
	*path = strdup(got);
	if (*path)
		return fd;
	close(fd);
	return -ENOMEM;
}

/**
 * p2d_fetch_open - the file of a build id, from the symbol servers
 * @f: the conversion's symbol servers
 * @kind: the executable (or shared library), or its separate debug file
 * @bid: the build id, as the recording gives it
 * @path: set to the file's path in the client's cache (malloc()ed), or NULL
 *
 * Asks the servers the first time, then opens what they gave again. The
 * caller checks that the file is of the build id (p2d_fetch_refuse() if
 * not).
 *
 * Returns a read-only descriptor of a regular file, or a negative errno
 * (-ENOENT: none).
 */
int p2d_fetch_open(struct p2d_fetch *f, enum p2d_fetch_kind kind, const struct p2d_bid *bid,
		   char **path)
{
	struct answer *a = find(f, kind, bid);
	int fd;

	*path = NULL;
	if (a) {
		if (!a->path)
			return -ENOENT;
		fd = p2d_open_named(a->path, NULL, 0);
		if (fd < 0)
			return -ENOENT;
		*path = strdup(a->path);
		if (*path)
			return fd;
		close(fd);
		return -ENOMEM;
	}
	if (f->stopped || !bid->size)
		return -ENOENT;
	a = add(f, kind, bid);
	if (!a)
		return -ENOMEM;
	if (!client(f))
		return -ENOENT;
	return ask(f, a, path);
}

/**
 * p2d_fetch_refuse - what the servers gave for a build id is not of it
 * @f: the conversion's symbol servers
 * @kind: what was asked
 * @bid: the build id
 *
 * Tells it once, and the file is not used again.
 */
void p2d_fetch_refuse(struct p2d_fetch *f, enum p2d_fetch_kind kind, const struct p2d_bid *bid)
{
	char hex[2 * P2D_BUILD_ID_MAX + 1];
	struct answer *a = find(f, kind, bid);

	if (!a || !a->path)
		return;
	p2d_build_id_hex(bid->id, (uint8_t)id_size(bid), hex);
	p2d_warn(f->diag, P2D_NO_OFFSET, "the debuginfod option: %s, fetched as the %s of build id %s,"
		 " is not an ELF file of that build id: not used", a->path, kind_name(kind), hex);
	free(a->path);
	a->path = NULL;
}

#else /* !HAVE_DEBUGINFOD: the option is refused */

int p2d_fetch_new(struct p2d_diag *diag, const volatile sig_atomic_t *cancel,
		  struct p2d_fetch **out)
{
	(void)cancel;
	*out = NULL;
	return p2d_error(diag, P2D_NO_OFFSET, -EOPNOTSUPP, "the debuginfod option: not available:"
			 " perf2dat was built without elfutils' libdebuginfod");
}

void p2d_fetch_free(struct p2d_fetch *f)
{
	(void)f;
}

int p2d_fetch_open(struct p2d_fetch *f, enum p2d_fetch_kind kind, const struct p2d_bid *bid,
		   char **path)
{
	(void)f;
	(void)kind;
	(void)bid;
	*path = NULL;
	return -ENOENT;
}

void p2d_fetch_refuse(struct p2d_fetch *f, enum p2d_fetch_kind kind, const struct p2d_bid *bid)
{
	(void)f;
	(void)kind;
	(void)bid;
}

#endif /* HAVE_DEBUGINFOD */
