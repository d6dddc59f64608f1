/* LD_PRELOAD shim for results/dev-zen5/two-threads-c.sh: sched_yield() as a
 * short pause loop, no system call (OpenBLAS waits with sched_yield). */
int sched_yield(void)
{
	for (int i = 0; i < 64; i++)
		__builtin_ia32_pause();
	return 0;
}
