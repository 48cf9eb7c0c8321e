/* Loading the kernel's symbol table in a background thread; see
 * kernel_prefetch.h. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/kallsyms_core.h"
#include "symbols/kernel_prefetch.h"
#include "symbols/symcache_file.h"
#include "symbols/symcache_writer.h"
#include "symbols/symtab_internal.h"

struct tk_kprefetch {
	pthread_t thread;
	char *path; /* NULL: /proc/kallsyms */
	bool core;  /* the core lines only (kallsyms_core.h) */
	void *key;  /* NULL: no cache file */
	size_t key_len;
	char *file;
	/* the table, published under mu (ready), then read by both threads */
	pthread_mutex_t mu;
	pthread_cond_t cond;
	bool ready, taken;
	atomic_bool done; /* ready, for tk_kprefetch_ready() without the lock */
	tk_symtab *tab;
	tk_status st;
	tk_error err;
	int wrote; /* read by the caller after the join */
	/* the whole /proc/kallsyms after a core table (tk_kprefetch_whole):
	 * published under mu (wready) like the core one */
	bool whole, wready;
	atomic_bool wtaken; /* set by the caller, read by the thread */
	void *wkey;         /* NULL: no cache file */
	size_t wkey_len;
	char *wfile;
	atomic_bool stop; /* set by tk_kprefetch_finish */
	tk_symtab *wtab;
	tk_status wst;
	tk_error werr;
	int wwrote;
};

bool tk_symbols_threads_enabled(void)
{
	const char *env = getenv("TRACEKIT_THREADS");
	return !(env && strcmp(env, "0") == 0);
}

typedef struct encoding {
	const tk_symtab *tab;
	const void *key;
	size_t key_len;
} encoding;

static bool encode_to(int fd, void *arg)
{
	const encoding *e = arg;
	return tk_symfile_encode_fd(e->tab, e->key, e->key_len, fd);
}

static void *prefetch_main(void *arg)
{
	tk_kprefetch *p = arg;
	tk_symtab *tab = NULL;
	tk_error err;
	tk_error_clear(&err);
	tk_status st = p->core ? tk_symtab_load_kallsyms_core(p->path, &tab, &err)
			       : tk_symtab_load_kallsyms(p->path, &tab, &err);
	pthread_mutex_lock(&p->mu);
	p->tab = tab;
	p->st = st;
	p->err = err;
	p->ready = true;
	atomic_store(&p->done, true);
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->mu);
	/* the whole table next, before the encoding: a module frame of the
	 * caller may be waiting for it */
	tk_symtab *wtab = NULL;
	tk_status wst = TK_OK;
	if (p->whole) {
		tk_error werr;
		tk_error_clear(&werr);
		wst = tk_symtab_load_kallsyms_until(&p->stop, &wtab, &werr);
		pthread_mutex_lock(&p->mu);
		p->wtab = wtab;
		p->wst = wst;
		p->werr = werr;
		p->wready = true;
		pthread_cond_signal(&p->cond);
		pthread_mutex_unlock(&p->mu);
	}
	/* the caller may be looking symbols up in tab from here on: the
	 * encoder only reads it (straight into the file: a 6 MB buffer of
	 * fresh memory cost a cold run more than the encoding itself) */
	p->wrote = 2;
	if (st == TK_OK && p->key)
		p->wrote = tk_symfile_write_atomic_with(p->file, encode_to,
							&(encoding){tab, p->key, p->key_len});
	p->wwrote = 2;
	/* written when the caller took it (the next run will want it too),
	 * or when there is time: not once the caller is finishing */
	if (wst == TK_OK && wtab && p->wkey && (atomic_load(&p->wtaken) || !atomic_load(&p->stop)))
		p->wwrote = tk_symfile_write_atomic_with(p->wfile, encode_to,
							 &(encoding){wtab, p->wkey, p->wkey_len});
	return NULL;
}

static void free_prefetch(tk_kprefetch *p)
{
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->mu);
	free(p->path);
	free(p->key);
	free(p->file);
	free(p->wkey);
	free(p->wfile);
	free(p);
}

tk_kprefetch *tk_kprefetch_start(const char *path, bool core, const void *key, size_t key_len,
				 const char *file, const tk_kprefetch_whole *whole)
{
	if (!tk_symbols_threads_enabled())
		return NULL;
	tk_kprefetch *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cond, NULL);
	atomic_init(&p->done, false);
	atomic_init(&p->stop, false);
	atomic_init(&p->wtaken, false);
	tk_error_clear(&p->err);
	if (!file)
		key = NULL;
	p->path = path ? strdup(path) : NULL;
	p->core = core;
	p->key = key ? malloc(key_len ? key_len : 1) : NULL;
	p->file = key ? strdup(file) : NULL;
	if ((path && !p->path) || (key && (!p->key || !p->file)))
		goto fail;
	if (key) {
		memcpy(p->key, key, key_len);
		p->key_len = key_len;
	}
	if (whole && core) {
		p->whole = true;
		if (whole->key && whole->file) {
			p->wkey = malloc(whole->key_len ? whole->key_len : 1);
			p->wfile = strdup(whole->file);
			if (!p->wkey || !p->wfile)
				goto fail;
			memcpy(p->wkey, whole->key, whole->key_len);
			p->wkey_len = whole->key_len;
		}
	}
	/* signals stay with the caller's threads */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&p->thread, NULL, prefetch_main, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc == 0)
		return p;
fail:
	free_prefetch(p);
	return NULL;
}

const char *tk_kprefetch_path(const tk_kprefetch *p)
{
	return p->path;
}

bool tk_kprefetch_core(const tk_kprefetch *p)
{
	return p->core;
}

bool tk_kprefetch_ready(const tk_kprefetch *p)
{
	return atomic_load(&((tk_kprefetch *)p)->done);
}

tk_status tk_kprefetch_take(tk_kprefetch *p, tk_symtab **out, tk_error *err)
{
	pthread_mutex_lock(&p->mu);
	while (!p->ready)
		pthread_cond_wait(&p->cond, &p->mu);
	pthread_mutex_unlock(&p->mu);
	p->taken = true;
	*out = p->tab;
	if (p->st != TK_OK && err)
		*err = p->err;
	return p->st;
}

bool tk_kprefetch_has_whole(const tk_kprefetch *p)
{
	return p->whole;
}

tk_status tk_kprefetch_take_whole(tk_kprefetch *p, tk_symtab **out, tk_error *err)
{
	pthread_mutex_lock(&p->mu);
	while (!p->wready)
		pthread_cond_wait(&p->cond, &p->mu);
	pthread_mutex_unlock(&p->mu);
	atomic_store(&p->wtaken, true);
	*out = p->wtab;
	if (p->wst != TK_OK && err)
		*err = p->werr;
	return p->wst;
}

int tk_kprefetch_finish(tk_kprefetch *p, int *whole_wrote)
{
	atomic_store(&p->stop, true);
	pthread_join(p->thread, NULL);
	int wrote = p->wrote;
	if (whole_wrote)
		*whole_wrote = p->wwrote;
	if (!atomic_load(&p->wtaken))
		tk_symtab_free(p->wtab);
	if (!p->taken)
		tk_symtab_free(p->tab);
	free_prefetch(p);
	return wrote;
}
