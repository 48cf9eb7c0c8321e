/* Tiny LTTng-UST tracepoint provider for the CTF oracle test
 * (tests/oracle/ctf_lttng.sh): integers of several sizes and bases,
 * a float, a double, strings, arrays, sequences, an enum. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER tk_test

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./tk_tp.h"

#if !defined(TK_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define TK_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_ENUM(tk_test, color,
		TP_ENUM_VALUES(ctf_enum_value("RED", 0) ctf_enum_range("GREEN", 1, 5)
				   ctf_enum_value("BLUE", 100)))

TRACEPOINT_EVENT(
    tk_test, sample, TP_ARGS(int, i, const char *, text, double, d),
    TP_FIELDS(
	ctf_integer(int, i, i) ctf_integer_hex(unsigned int, ihex, (unsigned int)i * 2654435761u)
	    ctf_integer(int8_t, i8, (int8_t)-i) ctf_integer(uint64_t, u64, (uint64_t)i * 1000003u)
		ctf_integer_network(uint32_t, net, (uint32_t)i) ctf_float(float, f, (float)d)
		    ctf_float(double, d, d) ctf_string(text, text)
			ctf_array(int16_t, arr, ((int16_t[3]){(int16_t)i, -2, 3}), 3)
			    ctf_array_text(char, atext, "tk\0x", 4)
				ctf_sequence(uint8_t, seq, text, size_t, i % 5)
				    ctf_sequence_text(char, seqtext, text, size_t, 1 + i % 3)
					ctf_enum(tk_test, color, int, c, i % 7)))

TRACEPOINT_EVENT(tk_test, tick, TP_ARGS(int, n), TP_FIELDS(ctf_integer(long, n, n)))

#endif

#include <lttng/tracepoint-event.h>
