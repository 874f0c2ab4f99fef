#pragma once
// Where the tests find the perftkit binary and their data. The paths are absolute, so they
// live in one generated unit (test_paths.cpp in the build folder) rather than in compile
// definitions: every other test unit then compiles the same in any clone and hits ccache.

namespace perftkit::test_paths {

const char* perftkit_binary();    // the perftkit executable under test
const char* bug_engine_binary();  // tests/bug_engine: perftkit's core with one injected bug
const char* shared_data_dir();    // ../shared/data: public suites and positions (may be absent)
const char* test_data_dir();      // tests/data in the source tree

}  // namespace perftkit::test_paths
