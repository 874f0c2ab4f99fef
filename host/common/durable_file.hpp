// Files that survive a crash at any instant: a reader finds the old content or the whole new
// content, never a part of it. Failures of the system calls throw std::system_error naming
// the call and the path.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace perftkit {

// Replaces path by bytes: written to a temporary file beside it (".NAME.tmp.PID.N", which
// readers of the directory skip), fsync'd, renamed over path, then the directory fsync'd.
void write_file_durably(const std::string& path, std::string_view bytes);

// Creates path holding bytes only if nothing is there: written to a temporary file, then
// link()ed to path (atomic on a local filesystem and on NFS), so path never exists empty or
// half-written, even if the process is killed. True when this call created it, false when it
// existed. Not fsync'd: for claims, which only steer work (a claim lost in a crash costs nothing).
bool create_file_exclusively(const std::string& path, std::string_view bytes);

// The whole content of path; nullopt when it does not exist.
std::optional<std::string> read_file(const std::string& path);

// True for the temporary files write_file_durably leaves behind when killed mid-write.
bool is_temporary_file_name(std::string_view name);

}  // namespace perftkit
