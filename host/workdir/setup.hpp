// Starting or resuming a run in a work dir: the one step that writes shards and the manifest.
#pragma once

#include <cstdio>
#include <string>

#include "workdir/work_dir.hpp"
#include "workdir/split.hpp"

namespace perftkit {

// The run of request in path. A new path (or one without a manifest) gets every shard file,
// then the manifest. A path that holds a run must hold this one — the same root and depth,
// and the shard count and split depth when request names them — else WorkDirError (runs are
// never mixed); its shard files are checked, and any that is missing or corrupt is written
// again from the same split. Progress notes go to log when it is not null.
WorkDir prepare_work_dir(const std::string& path, const SplitRequest& request, std::FILE* log);

}  // namespace perftkit
