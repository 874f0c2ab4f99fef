// perftkit: exact perft (in memory or as durable shards), suite verification, bulk
// classification and benchmarks.
#include "cli/command_line.hpp"

int main(int argc, char** argv) { return perftkit::run_command_line(argc, argv); }
