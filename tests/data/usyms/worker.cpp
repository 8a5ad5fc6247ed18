// SPDX-License-Identifier: GPL-2.0-or-later
// A C++ program for tests/integration/user-names.sh and gui-user-names.sh:
// templates, a namespace, a sort (std::__introsort_loop<...>), libc's
// random(), in a thread of its own (libc's start_thread, clone3).
//	worker [ROUNDS [SPIN]]
#include <algorithm>
#include <cstdlib>
#include <pthread.h>
#include <vector>

namespace ns {
template <typename T> struct Box {
	T v;
	__attribute__((noinline)) T get(int k) const
	{
		volatile T x = v;

		for (int i = 0; i < k; i++)
			x = x + 1;
		return x;
	}
};
}

__attribute__((noinline)) long worker(int n, int m)
{
	std::vector<int> v(n);

	for (int i = 0; i < n; i++)
		v[i] = (int)random();
	std::sort(v.begin(), v.end());
	ns::Box<long> b{v[0]};
	return b.get(m);
}

static volatile long sink;	/* the sums are used: nothing is optimized out */

struct job {
	int rounds, spin;
	long sum;
};

static void *thread_main(void *arg)
{
	struct job *j = static_cast<struct job *>(arg);

	for (int i = 0; i < j->rounds; i++)
		j->sum += worker(20000, j->spin);
	return nullptr;
}

int main(int argc, char **argv)
{
	struct job j = { argc > 1 ? atoi(argv[1]) : 200, argc > 2 ? atoi(argv[2]) : 1000, 0 };
	pthread_t t;

	if (pthread_create(&t, nullptr, thread_main, &j))
		return 2;
	pthread_join(t, nullptr);
	sink = j.sum;
	return 0;
}
