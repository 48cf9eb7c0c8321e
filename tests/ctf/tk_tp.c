/* Instantiates the tracepoint probes of tk_tp.h. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "tk_tp.h"
