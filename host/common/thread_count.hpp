// Thread counts: 0 (the default of every --threads) means one thread a core.
#pragma once

namespace perftkit {

// The cores this machine offers to the process, at least 1.
unsigned hardware_threads();

// requested, or one thread a core when it is 0.
inline unsigned threads_or_all_cores(unsigned requested) { return requested ? requested : hardware_threads(); }

}  // namespace perftkit
