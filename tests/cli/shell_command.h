#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace caliber::testing {

struct ShellResult {
  int exit_code;
  std::string output;  // stdout and stderr
};

// Runs `command` through the shell with stderr folded into stdout, as the CLI tests run the
// real binary.
inline ShellResult run_shell(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  std::string output;
  char buffer[4096];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace caliber::testing
