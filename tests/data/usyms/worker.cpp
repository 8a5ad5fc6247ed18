// SPDX-License-Identifier: GPL-2.0-or-later
// A C++ program for tests/integration/user-names.sh: templates, a
// namespace, a sort (std::__introsort_loop<...>), libc's random().
#include <algorithm>
#include <cstdlib>
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

int main(int argc, char **argv)
{
	long s = 0;
	int rounds = argc > 1 ? atoi(argv[1]) : 200;

	for (int i = 0; i < rounds; i++)
		s += worker(20000, 1000);
	return (int)(s & 1);
}
