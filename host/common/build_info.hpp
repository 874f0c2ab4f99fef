// What this binary was built from: the version (project(VERSION) in CMakeLists.txt, the only
// place it is written) and the commit of the source tree, "+dirty" when it had uncommitted
// changes. Both are compiled in (cmake/write_build_info.cmake), so `perftkit info` and the
// bench JSON report the binary's own commit wherever it runs.
#pragma once

#include <string_view>

namespace perftkit {

std::string_view perftkit_version();  // "0.1.0"
std::string_view perftkit_commit();   // "0b3baf3c1d2e", "0b3baf3c1d2e+dirty" or "unknown"

}  // namespace perftkit
