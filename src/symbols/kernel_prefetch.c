/* Loading the kernel's symbol table in a background thread; see
 * kernel_prefetch.h. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/kernel_prefetch.h"
#include "symbols/symcache_file.h"
#include "symbols/symtab_internal.h"

struct tk_kprefetch {
	pthread_t thread;
	char *path; /* NULL: /proc/kallsyms */
	void *key;  /* NULL: no encoding */
	size_t key_len;
	/* results, read by the caller after the join */
	tk_symtab *tab;
	tk_status st;
	tk_error err;
	void *enc;
	size_t enc_len;
};

bool tk_symbols_threads_enabled(void)
{
	const char *env = getenv("TRACEKIT_THREADS");
	return !(env && strcmp(env, "0") == 0);
}

static void *prefetch_main(void *arg)
{
	tk_kprefetch *p = arg;
	p->st = tk_symtab_load_kallsyms(p->path, &p->tab, &p->err);
	if (p->st == TK_OK && p->key &&
	    !tk_symfile_encode(p->tab, p->key, p->key_len, &p->enc, &p->enc_len))
		p->enc = NULL;
	return NULL;
}

tk_kprefetch *tk_kprefetch_start(const char *path, const void *key, size_t key_len)
{
	if (!tk_symbols_threads_enabled())
		return NULL;
	tk_kprefetch *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	tk_error_clear(&p->err);
	p->path = path ? strdup(path) : NULL;
	p->key = key ? malloc(key_len ? key_len : 1) : NULL;
	if ((path && !p->path) || (key && !p->key))
		goto fail;
	if (key) {
		memcpy(p->key, key, key_len);
		p->key_len = key_len;
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
	free(p->path);
	free(p->key);
	free(p);
	return NULL;
}

const char *tk_kprefetch_path(const tk_kprefetch *p)
{
	return p->path;
}

tk_status tk_kprefetch_finish(tk_kprefetch *p, tk_symtab **out, void **enc, size_t *enc_len,
			      tk_error *err)
{
	pthread_join(p->thread, NULL);
	*out = p->tab;
	*enc = p->enc;
	*enc_len = p->enc_len;
	tk_status st = p->st;
	if (st != TK_OK && err)
		*err = p->err;
	free(p->path);
	free(p->key);
	free(p);
	return st;
}
