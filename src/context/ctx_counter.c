/* Counter samples (TK_CTX_COUNTERS): an event whose payload holds one
 * number besides ids (ctx_classes.c find_counter) is a sample of the
 * counter "<class>.<field>" (LTTng-UST's my_app:current_temp.temp). */
#include "context/context_internal.h"

bool tk_context_counter(tk_context *c, const tk_event *ev, tk_counter *out)
{
	if (!c || !ev || !(c->flags & TK_CTX_COUNTERS))
		return false;
	const ctx_class *k = ctx_class_of(c, ev);
	if (!k || k->f_counter == CTX_NO_FIELD)
		return false;
	const tk_value *v = ctx_field(ev, k->f_counter);
	if (!v || !v->cls)
		return false;
	out->name = k->counter_name;
	if (v->cls->kind == TK_TYPE_FLOAT) {
		out->is_int = false;
		out->value = v->v.f;
		out->i = (int64_t)v->v.f;
		out->u = (uint64_t)out->i;
		return true;
	}
	out->is_int = true;
	out->u = v->v.u;
	out->i = v->v.i;
	out->value = v->cls->is_signed ? (double)v->v.i : (double)v->v.u;
	return true;
}
