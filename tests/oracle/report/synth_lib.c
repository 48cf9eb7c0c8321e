/* A shared object for synth_perf.py's made-up samples (oracle/report_synth). */
__attribute__((noinline)) int lib_fn(int x)
{
	return x * 7;
}
