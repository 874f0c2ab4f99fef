// Ctrl-C and kill: perftkit stops at once with exit code 130 (SIGINT) or 143 (SIGTERM), after
// removing the partial output files it was told about, so that an interrupted command never
// leaves a file cut in the middle of a row. Durable work (work-dir shards) needs nothing
// here: it survives any stop by construction (durable_file.hpp).
#pragma once

#include <string>

namespace perftkit {

// Installs the SIGINT and SIGTERM handlers (main calls it once, before any work).
void stop_on_interrupt();

// path is removed if the process is interrupted before forget_on_interrupt(path). At most
// a few files at once; the path is copied.
void remove_on_interrupt(const std::string& path);
void forget_on_interrupt(const std::string& path);

// Text the interrupt message ends with ("perftkit: interrupted: NOTE"): where a resumable run
// stands and how to resume it. Replaces the note before; "" removes it. At most a few
// hundred bytes are kept.
void set_interrupt_note(const std::string& note);

}  // namespace perftkit
