// The version and commit are compiled into the binary (#16, #28): `perftkit --version`,
// `info` and the bench JSON report the commit the binary was built from, wherever it runs,
// and the version written once in CMakeLists.txt.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "support/cli_runner.hpp"
#include "support/scratch_dir.hpp"
#include "support/test_paths.hpp"

namespace perftkit {
namespace {

using testing_support::CommandResult;
using testing_support::run_shell;

std::string perftkit_in(const std::string& dir, const std::string& args) {
  const CommandResult r = run_shell("cd '" + dir + "' && '" + std::string(test_paths::perftkit_binary()) + "' " + args);
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.output;
  return r.output;
}

// project(perftkit VERSION X.Y.Z ...) in the top CMakeLists.txt.
std::string project_version() {
  std::ifstream in(std::filesystem::path(test_paths::test_data_dir()) / ".." / ".." / "CMakeLists.txt");
  std::stringstream text;
  text << in.rdbuf();
  std::smatch m;
  const std::string s = text.str();
  return std::regex_search(s, m, std::regex(R"(project\(perftkit VERSION ([0-9]+\.[0-9]+\.[0-9]+))")) ? m[1].str() : "";
}

TEST(BuildInfo, VersionComesFromTheProjectAndCommitIsBuiltIn) {
  const std::string version = project_version();
  ASSERT_FALSE(version.empty());
  const std::string line = perftkit_in(".", "--version");
  std::smatch m;
  ASSERT_TRUE(
      std::regex_search(line, m, std::regex(R"(^perftkit ([0-9.]+) \(commit ([0-9a-f]{12}(\+dirty)?|unknown)\))")))
      << line;
  EXPECT_EQ(m[1].str(), version);
}

// Run from a folder that is no git checkout, info still names the binary's commit (it used
// to read the working directory's, and said "unknown" there).
TEST(BuildInfo, TheCommitDoesNotDependOnTheWorkingDirectory) {
  const testing_support::ScratchDir elsewhere("build-info");
  const std::string source = (std::filesystem::path(test_paths::test_data_dir()) / ".." / "..").string();
  const std::string here = perftkit_in(source, "info");
  const std::string there = perftkit_in(elsewhere.path(), "info");
  const std::string first_line = here.substr(0, here.find('\n'));
  EXPECT_EQ(first_line, there.substr(0, there.find('\n')));
  EXPECT_NE(perftkit_in(elsewhere.path(), "info --json").find("\"commit\":"), std::string::npos);
  if (std::filesystem::exists(std::filesystem::path(source) / ".git")) {
    EXPECT_EQ(first_line.find("unknown"), std::string::npos) << "a git checkout has a commit: " << first_line;
  }
}

}  // namespace
}  // namespace perftkit
